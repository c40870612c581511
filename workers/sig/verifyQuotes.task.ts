// Piscina entry: a batch of signed quotes in, one recovered signer (or null) per quote out.
// Batches amortise the thread hop: one quote per task is slower than recovering on the main thread.
// A batch travels as cells (signedQuoteCells.ts `quoteCells`), ten a quote, as the relay sends it.
import { domainSeparator } from './quoteHash.js'
import { recoverQuoteSigner } from './recoverQuoteSigner.js'
import { QUOTE_CELLS, quoteAt } from './signedQuoteCells.js'
import type { Domain } from './types.js'

export interface VerifyQuotesBatch {
  domain: Domain
  cells: readonly (string | number)[]
}

// A relay serves one contract, so this holds one entry; the bound only guards against misuse.
const separators = new Map<string, Uint8Array>()

export default function verifyQuotes(batch: VerifyQuotesBatch): (string | null)[] {
  const separator = separatorOf(batch.domain)
  const { cells } = batch
  const signers: (string | null)[] = []
  for (let k = 0; k + QUOTE_CELLS <= cells.length; k += QUOTE_CELLS)
    signers.push(separator ? recoverQuoteSigner(separator, quoteAt(cells, k), cells[k + 9]) : null)
  return signers
}

function separatorOf(domain: Domain): Uint8Array | null {
  try {
    const key = `${domain.name}\n${domain.version}\n${domain.chainId}\n${domain.verifyingContract.toLowerCase()}`
    let sep = separators.get(key)
    if (!sep) {
      if (separators.size >= 16) separators.clear()
      separators.set(key, (sep = domainSeparator(domain)))
    }
    return sep
  } catch {
    return null // a malformed domain (e.g. non-integer chainId) fails every item rather than the task
  }
}
