// A quote's way through its RFQ actor is three messages: submitted, its signer recovered (from the pool), its
// commit landed (from the store). One object carries it through all three, changing its `type` as it goes, so a
// quote allocates one message and one shape instead of three; the hot path runs tens of thousands a second.
import type { Reply } from './mailbox.js'
import type { AcceptedQuote, Address, QuoteJson, QuoteVerdict } from './rfqTypes.js'
import type { QuoteRefusal } from './errors.js'

export class QuoteInFlight {
  type: 'QuoteSubmitted' | 'SignerRecovered' | 'QuoteCommitted' = 'QuoteSubmitted'
  /** set by the checks (SignerRecovered on) */
  quote: QuoteJson | null = null
  /** the pool's answer: an address, null (no signer), or the failure */
  signer: Address | null | Error = null
  /** set once reserved and sent to the store (QuoteCommitted) */
  accepted: AcceptedQuote | null = null
  /** the store's refusal or failure (QuoteCommitted) */
  error: Error | null = null

  constructor(
    readonly raw: Record<string, unknown>,
    readonly signature: string,
    readonly shareTokenHash: string | null,
    /** the relay's schema checked every field's grammar already */
    readonly wellFormed: boolean,
    /** what the schema refused that no rule named */
    readonly residual: Omit<QuoteRefusal, 'ok'> | undefined,
    readonly replyTo: Reply<QuoteVerdict>,
  ) {}

  /** the message for the pool's answer */
  recovered(signer: Address | null | Error): this {
    this.type = 'SignerRecovered'
    this.signer = signer
    return this
  }

  /** the message for the store's answer */
  committed(result: unknown): this {
    this.type = 'QuoteCommitted'
    this.error = result instanceof Error ? result : null
    return this
  }
}
