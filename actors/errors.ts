// The relay's ERROR texts, exactly as the spec writes them, once. Each carries a stable `code` so a
// maker can tell failures apart without matching on prose; the texts are part of the API.

export interface RelayError {
  code: string
  message: string
  /** BUSY only: when to try again */
  retryAfterMs?: number
}

const e = (code: string, message: string): RelayError => ({ code, message })

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
} as const
