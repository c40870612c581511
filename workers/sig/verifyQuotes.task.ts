// Piscina entry: a batch of signed quotes in, one recovered signer (or null) per item out.
// Batches amortise the thread hop: one quote per task is slower than recovering on the main thread.
import { domainSeparator } from './quoteHash.js'
import { recoverQuoteSigner } from './recoverQuoteSigner.js'
import type { Domain, QuoteJson } from './types.js'

export interface SignedQuote {
  quote: QuoteJson
  signature: string
}

export interface VerifyQuotesBatch {
  domain: Domain
  items: readonly SignedQuote[]
}

// A relay serves one contract, so this holds one entry; the bound only guards against misuse.
const separators = new Map<string, Uint8Array>()

export default function verifyQuotes(batch: VerifyQuotesBatch): (string | null)[] {
  const separator = separatorOf(batch.domain)
  return batch.items.map(item => (separator ? recoverQuoteSigner(separator, item.quote, item.signature) : null))
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
