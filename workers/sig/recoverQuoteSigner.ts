// One signed quote to its signer: parse, hash, recover. Shared by the pool task and inline callers.
import { parseQuote, parseSignature } from './parseQuote.js'
import { quoteDigest } from './quoteHash.js'
import { recoverAddress } from './recover.js'
import type { Address } from './types.js'

/** The recovered lowercase signer of a JSON quote under a precomputed domain separator, or null. Never throws. */
export function recoverQuoteSigner(domainSeparator: Uint8Array, quote: unknown, signature: unknown): Address | null {
  const parsed = parseQuote(quote)
  if (!parsed.ok) return null
  const sig = parseSignature(signature)
  if (!sig.ok) return null
  return recoverAddress(quoteDigest(domainSeparator, parsed.quote), sig.signature)
}
