// The RFQ actor's slow work answers through the quote's message itself (rfq.ts RfqDeps, `Answered`: no promise, no
// reaction queued behind one, and no closure, on a quote's two trips). A dependency written as an async function, a
// test's stub or a bench's, goes through these: its value, or its failure as an Error, to the message's `answered`.
import type { RfqDeps } from './rfq.js'
import type { Address, NumberedQuote, QuoteJson } from './rfqTypes.js'
import { asError } from '../workers/values/index.js'

export function signerFromAsync(
  recover: (quote: QuoteJson, signature: string) => Promise<Address | null>,
): RfqDeps['recoverSigner'] {
  return (signed, to) =>
    void recover(signed.quote, signed.signature).then(
      signer => to.answered(signer),
      (e: unknown) => to.answered(asError(e)),
    )
}

export function commitFromAsync(commit: (quote: NumberedQuote) => Promise<void>): RfqDeps['commitQuote'] {
  return (quote, to) =>
    void commit(quote).then(
      () => to.answered(undefined),
      (e: unknown) => to.answered(asError(e)),
    )
}
