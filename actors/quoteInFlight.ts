// A quote's way through its RFQ actor is three messages: submitted, its signer recovered (from the pool), its
// commit landed (from the store). One object carries it through all three, changing its `type` as it goes, so a
// quote allocates one message and one shape instead of three; the hot path runs tens of thousands a second. It is its
// own way back too: the pool, the store and the ask answer through its methods (`Answered`), so none of its trips
// makes a closure (each had been a function and its context: issue 29).
import type { Answered } from './actorTypes.js'
import type { AcceptedQuote, Address, QuoteJson, QuoteVerdict } from './rfqTypes.js'
import type { QuoteRefusal } from './errors.js'

/** a quote and its signature, as the pool checks them (workers/sig/signedQuoteCells.ts SignedQuote) */
export interface SignedQuoteJson {
  readonly quote: QuoteJson
  readonly signature: string
}

export class QuoteInFlight implements Answered<unknown> {
  type: 'QuoteSubmitted' | 'SignerRecovered' | 'QuoteCommitted' = 'QuoteSubmitted'
  /** set by the checks (SignerRecovered on) */
  quote: QuoteJson | null = null
  /** the pool's answer: an address, null (no signer), or the failure */
  signer: Address | null | Error = null
  /** set once reserved and sent to the store (QuoteCommitted) */
  accepted: AcceptedQuote | null = null
  /** the store's refusal or failure (QuoteCommitted) */
  error: Error | null = null

  /** the ask this message answers, given by the ask (`withReply`) */
  asked: Answered<QuoteVerdict> = noReply
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

  /** the verdict, to the asker (once, and only while its ask waits: asks.ts) */
  replyTo(verdict: QuoteVerdict): void {
    this.asked.answered(verdict)
  }

  /**
   * The answer of both of the quote's trips (the pool's, then the store's: it is on one at a time), which comes back
   * as this message to `deliver`.
   */
  answered(result: unknown): void {
    if (this.type === 'QuoteSubmitted') this.recovered(result as Address | null | Error)
    else this.committed(result)
    this.deliver!(this)
  }

  /**
   * The quote passed its checks: this message, which now carries it and its signature, goes to the pool as it is,
   * and its trips' answers will go to `deliver` (the RFQ actor's, ActorContext).
   */
  checked(quote: QuoteJson, deliver: (msg: QuoteInFlight) => void): SignedQuoteJson & this {
    this.quote = quote
    this.deliver = deliver
    return this as SignedQuoteJson & this
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

/** `askTo`'s make for a quote: the message is made before the ask, and learns its ask here */
export function withReply(ask: Answered<QuoteVerdict>, msg: QuoteInFlight): QuoteInFlight {
  msg.asked = ask
  return msg
}

const noReply: Answered<QuoteVerdict> = {
  answered() {
    throw new Error('a quote in flight replied before its ask gave it a reply channel')
  },
}
