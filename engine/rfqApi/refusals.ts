// The RFQ REST API's one table from the RFQ service's refusals to replies: status, the spec's text for
// the action, and the machine code. Route handlers never choose a status or write a text themselves.
import type { RfqStatus } from '../../actors/rfqTypes.js'
import type { Refusal } from '../rfq/outcomes.js'
import { HttpError } from '../front/errors.js'
import { SIGNATURE_WINDOW_SECS } from '../agents/message.js'

export const DUPLICATE_FILL = 'Fill already recorded for this transaction'

export const CancelErrors = {
  notFound: 'Not found',
  notTaker: 'Forbidden: only the taker that created this RFQ can cancel it',
  noProof: 'Forbidden: only the taker can cancel: send the taker agent\'s key, or {signature, timestamp} signed by the taker',
  timestamp: 'timestamp is required (unix seconds)',
  expired: `Signature expired. Timestamp must be within ${SIGNATURE_WINDOW_SECS}s of current time.`,
  notOpen: (status: RfqStatus) => `RFQ is not open (status ${status})`,
} as const

export const FillErrors = {
  txHash: 'Missing or invalid txHash (expected 0x + 64 hex chars)',
  maker: 'Missing or invalid maker address',
  amounts: 'Missing amountIn or amountOut (BigInt strings)',
  usd: 'Missing or invalid amountInUsd (number)',
  notTaker: 'Forbidden: only the taker that created this RFQ can fill it',
  notFound: 'RFQ not found',
  notOpen: (status: RfqStatus) => `RFQ cannot be filled (status ${status})`,
} as const

type Action = 'cancel' | 'fill' | 'record'

/** The reply for a refusal of `action`; every one carries its code next to the spec's text. */
export function refusalReply(r: Refusal, action: Action): HttpError {
  const reply = (status: number, text: string, extra: Record<string, unknown> = {}) => new HttpError(status, text, { ...extra, code: r.code })
  switch (r.code) {
    case 'NOT_FOUND': return reply(404, action === 'cancel' ? CancelErrors.notFound : FillErrors.notFound)
    case 'NOT_TAKER': return reply(403, action === 'cancel' ? CancelErrors.notTaker : FillErrors.notTaker)
    case 'NO_PROOF': return reply(403, CancelErrors.noProof)
    case 'BAD_TIMESTAMP': return reply(400, CancelErrors.timestamp)
    case 'SIGNATURE_EXPIRED': return reply(400, CancelErrors.expired)
    // the relay's own proof: never produced on this surface, mapped for completeness
    case 'CANCEL_SIGNATURE_REQUIRED': return reply(403, CancelErrors.noProof)
    case 'CANCEL_NOT_TAKER': return reply(403, CancelErrors.notTaker)
    case 'NOT_OPEN': return reply(409, CancelErrors.notOpen(r.status), { status: r.status })
    case 'NOT_FILLABLE': return reply(409, FillErrors.notOpen(r.status), { status: r.status })
    case 'DUPLICATE_FILL': return reply(409, DUPLICATE_FILL)
    case 'FILL_UNVERIFIED': return reply(400, r.reason)
    case 'CHAIN_UNAVAILABLE': return new HttpError(503, r.reason, { code: r.code }, { 'retry-after': '5' })
  }
}
