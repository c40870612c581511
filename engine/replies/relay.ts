// The relay surface's one table (the API's: replies/api.ts): what each outcome of a relay verb sends back as an
// ERROR frame. The texts are the relay's, once, in actors/errors.ts; the compiler holds the table whole (a code
// of the RFQ service without its frame does not build). The WebSocket front sends only what these answer.
import type { Refusal } from '../rfq/outcomes.js'
import { RelayErrors, type QuoteRefusal, type RelayError } from '../../actors/errors.js'
import { isUnavailable } from '../store/unavailable.js'

/**
 * A CANCEL_REQUEST's refusal. Only the relay's own proof has words of its own; every other refusal reads as the
 * spec's one text for an RFQ that cannot be cancelled (unknown, unseen, ended or no longer open), so a cancel
 * never tells a stranger more than that.
 */
const CANCEL_REPLIES = {
  CANCEL_SIGNATURE_REQUIRED: RelayErrors.cancelSignatureRequired,
  CANCEL_NOT_TAKER: RelayErrors.cancelNotTaker,
  NOT_TAKER: RelayErrors.cancelNotTaker,
  NOT_FOUND: RelayErrors.cancelNotFound,
  NOT_OPEN: RelayErrors.cancelNotFound,
  // the REST cancel's proofs and the fill's refusals: never answered to a CANCEL_REQUEST, worded all the same
  NO_PROOF: RelayErrors.cancelNotFound,
  BAD_TIMESTAMP: RelayErrors.cancelNotFound,
  SIGNATURE_EXPIRED: RelayErrors.cancelNotFound,
  NOT_FILLABLE: RelayErrors.cancelNotFound,
  DUPLICATE_FILL: RelayErrors.cancelNotFound,
  FILL_UNVERIFIED: RelayErrors.cancelNotFound,
  CHAIN_UNAVAILABLE: RelayErrors.cancelNotFound,
  TOO_MANY_ACTIVE: RelayErrors.cancelNotFound,
} satisfies Record<Refusal['code'], () => RelayError>

export function relayRefusal(r: Refusal): RelayError {
  return CANCEL_REPLIES[r.code]()
}

/** A QUOTE_SUBMIT's refusal: its code and the relay's text, which the quote checks took from the relay's table. */
export function relayQuoteReply(v: QuoteRefusal): RelayError {
  return v.retryAfterMs === undefined
    ? { code: v.code, message: v.message }
    : { code: v.code, message: v.message, retryAfterMs: v.retryAfterMs }
}

/** A relay verb that threw: the store being down is UNAVAILABLE (retry shortly), anything else INTERNAL. */
const FAILURES = {
  quote: { down: RelayErrors.unavailable, broken: RelayErrors.internal },
  cancel: { down: RelayErrors.cancelUnavailable, broken: RelayErrors.internalCancel },
} as const

export function relayFailure(verb: keyof typeof FAILURES, err: unknown): RelayError {
  return isUnavailable(err) ? FAILURES[verb].down() : FAILURES[verb].broken()
}
