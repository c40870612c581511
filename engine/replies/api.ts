// The API surface's one table (API_PORT): every refusal a domain function answers (the RFQ service, fill
// recording and verification, agent registration, the route finder) to its reply: status, the spec's text
// for the action, and the machine code. Route handlers never choose a status or write a text themselves;
// the relay's table is replies/relay.ts. (Parse-step 400s are each route's own: nothing reached the domain.)
import type { QuoteVerdict, RfqStatus } from '../../actors/rfqTypes.js'
import type { Refusal } from '../rfq/outcomes.js'
import type { RegisterOutcome } from '../agents/register.js'
import { RegisterErrors } from '../agents/register.js'
import { describe, type SorRefusal } from '../sor/errors.js'
import { HttpError } from '../front/errors.js'
import { SIGNATURE_WINDOW_SECS } from '../agents/message.js'
import type { TokenRefusal } from '../tokens/outcomes.js'

type RegisterRefusal = Extract<RegisterOutcome, { ok: false }>
export type ApiRefusal = Refusal | SorRefusal | RegisterRefusal

export const DUPLICATE_FILL = 'Fill already recorded for this transaction'

export const CancelErrors = {
  notFound: 'Not found',
  notTaker: 'Forbidden: only the taker that created this RFQ can cancel it',
  noProof:
    "Forbidden: only the taker can cancel: send the taker agent's key, or {signature, timestamp} signed by the taker",
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

/** The reply for a refusal (of `action`, where texts differ by action); each carries its code next to the text. */
export function apiReply(r: ApiRefusal, action: Action = 'record'): HttpError {
  const reply = (status: number, text: string, extra: Record<string, unknown> = {}) =>
    new HttpError(status, text, { ...extra, code: r.code })
  switch (r.code) {
    case 'NOT_FOUND':
      return reply(404, action === 'cancel' ? CancelErrors.notFound : FillErrors.notFound)
    case 'NOT_TAKER':
      return reply(403, action === 'cancel' ? CancelErrors.notTaker : FillErrors.notTaker)
    case 'NO_PROOF':
      return reply(403, CancelErrors.noProof)
    case 'BAD_TIMESTAMP':
      return reply(400, CancelErrors.timestamp)
    case 'SIGNATURE_EXPIRED':
      return reply(400, CancelErrors.expired)
    // the relay's own proof: never produced on this surface, mapped for completeness
    case 'CANCEL_SIGNATURE_REQUIRED':
      return reply(403, CancelErrors.noProof)
    case 'CANCEL_NOT_TAKER':
      return reply(403, CancelErrors.notTaker)
    case 'NOT_OPEN':
      return reply(409, CancelErrors.notOpen(r.status), { status: r.status })
    case 'NOT_FILLABLE':
      return reply(409, FillErrors.notOpen(r.status), { status: r.status })
    case 'DUPLICATE_FILL':
      return reply(409, DUPLICATE_FILL)
    case 'FILL_UNVERIFIED':
      return reply(400, r.reason)
    case 'CHAIN_UNAVAILABLE':
      return new HttpError(503, r.reason, { code: r.code }, { 'retry-after': '5' })
    case 'TOO_MANY_ACTIVE':
      return new HttpError(
        429,
        'Too many active RFQs',
        { activeCount: r.activeCount, code: r.code },
        { 'retry-after': '1' },
      )
    // the route finder
    case 'TOKEN_NOT_FOUND':
      return reply(404, describe(r))
    case 'NO_CHAIN':
    case 'SEARCH_TIMEOUT':
      return reply(503, describe(r))
    case 'SEARCH_BUSY':
      return new HttpError(503, describe(r), { code: r.code }, { 'retry-after': '1' })
    case 'PROTOCOLS_INVALID':
      return reply(500, describe(r))
    // agent registration
    case 'SIGNATURE_INVALID':
      return reply(400, `Signature verification failed: ${r.reason}`)
    case 'SIGNATURE_MISMATCH':
      return reply(403, RegisterErrors.mismatch, { expected: r.expected, recovered: r.recovered })
    case 'SIGNATURE_REPLAYED':
      return reply(409, RegisterErrors.replayed)
    case 'MAX_AGENTS':
      return reply(409, RegisterErrors.maxAgents)
    case 'AGENT_WALLET_TAKEN':
      return reply(409, RegisterErrors.walletTaken)
  }
}

/** A token the RFQ API could not take, named by its field (the spec's text for one not in the registry). */
export function tokenReply(r: TokenRefusal, side: 'tokenIn' | 'tokenOut', chainId: number): HttpError {
  switch (r.code) {
    case 'TOKEN_UNKNOWN':
      return new HttpError(400, `Unknown ${side}: ${r.given}. Use address or symbol.`, { code: r.code })
    case 'TOKEN_AMBIGUOUS':
      return new HttpError(
        400,
        `${side} ${r.given} names ${r.candidates.length} tokens on chain ${chainId} ` +
          `(${r.candidates.join(', ')}). Use the address.`,
        { code: r.code, candidates: r.candidates },
      )
    case 'TOKEN_NOT_ERC20':
      return new HttpError(400, `${side} ${r.given} is not an ERC-20 token: ${r.reason}`, { code: r.code })
    case 'CHAIN_UNAVAILABLE':
      return new HttpError(503, r.reason, { code: r.code }, { 'retry-after': '5' })
  }
}

export const QuoteErrors = {
  missing: 'Missing rfqId or quote',
  notFound: 'RFQ not found or expired',
  duplicate: 'Duplicate quote from this maker',
  signature: 'Invalid signature',
} as const

/**
 * POST /api/v1/quotes: the relay's verdict codes with this endpoint's own texts (the spec gives REST its
 * own); a store that did not answer or admission control is a 503, with Retry-After for BUSY.
 */
export function quoteReply(v: Extract<QuoteVerdict, { ok: false }>): HttpError {
  if (v.code === 'INTERNAL') return new HttpError(503, v.message, { code: v.code })
  if (v.code === 'BUSY')
    return new HttpError(
      503,
      v.message,
      { code: v.code },
      { 'retry-after': String(Math.max(1, Math.ceil((v.retryAfterMs ?? 1000) / 1000))) },
    )
  const text =
    v.code === 'RFQ_NOT_FOUND'
      ? QuoteErrors.notFound
      : v.code === 'DUPLICATE_QUOTE'
        ? QuoteErrors.duplicate
        : v.code === 'INVALID_SIGNATURE' || v.code === 'MISSING_FIELDS'
          ? QuoteErrors.signature
          : v.message
  return new HttpError(400, text, { code: v.code })
}
