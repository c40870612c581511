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

  /** the asker's reply channel, given by the ask (`withReply`) */
  replyTo: Reply<QuoteVerdict> = noReply
  /** where the pool's and the store's answers go: the RFQ actor's `deliver`, given with the pool's trip */
  private deliver: ((msg: QuoteInFlight) => void) | null = null

  constructor(
    /** the RFQ asked, for a failed ask's log */
    readonly rfqId: string,
    readonly raw: Record<string, unknown>,
    readonly signature: string,
    readonly shareTokenHash: string | null,
    /** the relay's schema checked every field's grammar already */
    readonly wellFormed: boolean,
    /** what the schema refused that no rule named */
    readonly residual: Omit<QuoteRefusal, 'ok'> | undefined,
  ) {}

  /**
   * The one callback for both of the quote's trips (the pool's, then the store's: it is on one at a time), which comes
   * back as this message to `deliver`. One function a quote, where each trip had made two closures and their contexts.
   */
  readonly back = (result: unknown): void => {
    if (this.type === 'QuoteSubmitted') this.recovered(result as Address | null | Error)
    else this.committed(result)
    this.deliver!(this)
  }

  /** `back`, its answers sent to `deliver` (the RFQ actor's, ActorContext) */
  backTo(deliver: (msg: QuoteInFlight) => void): (result: unknown) => void {
    this.deliver = deliver
    return this.back
  }

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

/** `askTo`'s make for a quote: the message is made before the ask, and takes its reply channel here */
export function withReply(replyTo: Reply<QuoteVerdict>, msg: QuoteInFlight): QuoteInFlight {
  msg.replyTo = replyTo
  return msg
}

function noReply(): void {
  throw new Error('a quote in flight replied before its ask gave it a reply channel')
}
