// The relay's ERROR texts, exactly as the spec writes them, once. Each carries a stable `code` so a
// maker can tell failures apart without matching on prose; the texts are part of the API. They sit on the
// floor that checks quotes (in the spec's order, each refusal with its text), so a quote's refusal carries the
// relay's words; the REST surface words the same codes its own way (engine/replies/api.ts).
import type { Refused } from '../workers/outcome.js'

const e = <C extends string>(code: C, message: string) => ({ code, message })

export const RelayErrors = {
  // quote submission, in the order the relay checks them
  missingFields: () => e('MISSING_FIELDS', 'Missing rfqId, quote, or signature'),
  rfqNotFound: () => e('RFQ_NOT_FOUND', 'RFQ not found or expired'),
  invalidMaker: () => e('INVALID_MAKER', 'Invalid maker address'),
  tokenInMismatch: () => e('TOKEN_IN_MISMATCH', 'Quote rejected: tokenIn does not match RFQ'),
  tokenOutMismatch: () => e('TOKEN_OUT_MISMATCH', 'Quote rejected: tokenOut does not match RFQ'),
  takerMismatch: () => e('TAKER_MISMATCH', "Quote rejected: taker must be the RFQ's taker or the zero address"),
  deadlinePast: () => e('DEADLINE_PAST', 'Quote rejected: Deadline is in the past'),
  amountInZero: () => e('AMOUNT_IN_ZERO', 'Quote rejected: amountIn must be > 0'),
  amountOutZero: () => e('AMOUNT_OUT_ZERO', 'Quote rejected: amountOut must be > 0'),
  badSignature: () => e('INVALID_SIGNATURE', 'Invalid EIP-712 signature -- signer does not match maker'),
  duplicateQuote: () => e('DUPLICATE_QUOTE', 'Duplicate quote from this maker for this RFQ'),
  // beyond the spec's list: a field the six rules do not cover is malformed (taker, expiry, nonce,
  // or a deadline/amount that is not a uint), and a private RFQ's maker allow-list
  invalidQuoteField: (field: string, reason: string) => e('INVALID_QUOTE_FIELD', `Quote rejected: ${field} ${reason}`),
  makerNotAllowed: () => e('MAKER_NOT_ALLOWED', 'Quote rejected: maker is not allowed on this private RFQ'),
  // cancellation
  cancelMissingRfqId: () => e('MISSING_RFQ_ID', 'Missing rfqId'),
  cancelNotFound: () => e('RFQ_NOT_FOUND', 'RFQ not found or already expired'),
  cancelSignatureRequired: () =>
    e('CANCEL_SIGNATURE_REQUIRED', 'Cancel rejected: signature required (EIP-191 by the RFQ taker)'),
  cancelNotTaker: () => e('CANCEL_NOT_TAKER', 'Cancel rejected: signature does not match RFQ taker'),
  // general
  rateLimited: (max: number) => e('RATE_LIMITED', `Rate limit exceeded (max ${max} msg/min)`),
  busy: (retryAfterMs: number) => ({
    ...e('BUSY', `Busy: more than the admitted work is in flight; retry in ${retryAfterMs} ms`),
    retryAfterMs,
  }),
  // a frame its message's schema refuses where no rule above names the fault (the relay's AsyncAPI contract)
  invalidMessage: (type: string, detail: string) => e('INVALID_MESSAGE', `Invalid ${type}: ${detail}`),
  unknownType: (type: string) => e('UNKNOWN_MESSAGE_TYPE', `Unknown message type: ${type}`),
  parseError: (detail: string) => e('PARSE_ERROR', `Parse error: ${detail}`),
  internal: () => e('INTERNAL', 'Internal error: the quote could not be stored; retry'),
  internalMessage: () => e('INTERNAL', 'Internal error: the message could not be handled; retry'),
  internalCancel: () => e('INTERNAL', 'Internal error: the cancel could not be stored; retry'),
  unavailable: () => e('UNAVAILABLE', 'Service unavailable: the quote could not be stored right now; retry shortly'),
  cancelUnavailable: () =>
    e('UNAVAILABLE', 'Service unavailable: the cancel could not be stored right now; retry shortly'),
} as const

/** Every code the relay's ERROR frames carry: a closed union. */
export type RelayCode = ReturnType<(typeof RelayErrors)[keyof typeof RelayErrors]>['code']

export interface RelayError {
  code: RelayCode
  message: string
  /** BUSY only: when to try again */
  retryAfterMs?: number
}

/** The codes a quote submission is refused with, on the relay (QUOTE_SUBMIT) and on REST (POST /api/v1/quotes). */
export const QUOTE_CODES = [
  'MISSING_FIELDS',
  'RFQ_NOT_FOUND',
  'INVALID_MAKER',
  'MAKER_NOT_ALLOWED',
  'TOKEN_IN_MISMATCH',
  'TOKEN_OUT_MISMATCH',
  'TAKER_MISMATCH',
  'DEADLINE_PAST',
  'AMOUNT_IN_ZERO',
  'AMOUNT_OUT_ZERO',
  'INVALID_QUOTE_FIELD',
  'INVALID_MESSAGE',
  'INVALID_SIGNATURE',
  'DUPLICATE_QUOTE',
  'BUSY',
  'UNAVAILABLE',
  'INTERNAL',
] as const satisfies readonly RelayCode[]

export type QuoteCode = (typeof QUOTE_CODES)[number]

/** A quote's refusal: its code and the relay's text for it (`retryAfterMs`: BUSY's hint). */
export type QuoteRefusal = Refused<QuoteCode> & { message: string; retryAfterMs?: number }

/** A relay error as a quote's refusal (the quote checks and the actor answer only quote codes). */
export function refuseQuote(e: { code: QuoteCode; message: string; retryAfterMs?: number }): QuoteRefusal {
  return { ok: false, ...e }
}
