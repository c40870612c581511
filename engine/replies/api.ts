// The API surface's one table (API_PORT): every refusal a domain function answers (the RFQ service, fill
// recording and verification, agent registration, the route finder) to its reply: status, the spec's text
// for the action, and the machine code. Route handlers never choose a status or write a text themselves;
// the relay's table is replies/relay.ts. The compiler holds each table whole: a code without its reply does not
// build. (Parse-step 400s are each route's own: nothing reached the domain.)
import type { RfqStatus } from '../../actors/rfqTypes.js'
import type { QuoteCode, QuoteRefusal } from '../../actors/errors.js'
import type { Refusal } from '../rfq/outcomes.js'
import { MAX_AGENTS_PER_OWNER, type RegisterRefusal } from '../agents/register.js'
import { describe, type SorRefusal } from '../sor/errors.js'
import { Errors, HttpError } from '../front/errors.js'
import { SIGNATURE_WINDOW_SECS } from '../agents/message.js'
import type { TokenRefusal } from '../tokens/outcomes.js'
import { unmapped } from '../../workers/outcome.js'

export type ApiRefusal = Refusal | SorRefusal | RegisterRefusal

export const DUPLICATE_FILL = 'Fill already recorded for this transaction'

/** Agent registration: its parse step's texts (engine/routes/agents.ts), then its refusals'. */
export const RegisterErrors = {
  name: 'name is required (max 64 chars)',
  ownerWallet: 'ownerWallet must be a valid 0x address',
  agentWallet: 'agentWallet must be a valid 0x address',
  roles: 'roles must be a non-empty array of: taker, maker, monitor',
  signature: 'signature is required',
  timestamp: 'timestamp is required (unix seconds)',
  expired: `Signature expired. Timestamp must be within ${SIGNATURE_WINDOW_SECS}s of current time.`,
  mismatch: 'Signature does not match ownerWallet.',
  maxAgents: `Maximum ${MAX_AGENTS_PER_OWNER} agents per owner wallet`,
  replayed: 'Signature already used',
  walletTaken: 'agentWallet is already registered to another owner',
} as const

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
    case 'SEARCH_UNAVAILABLE':
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
    default:
      return unmapped(r)
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
    default:
      return unmapped(r)
  }
}

export const QuoteErrors = {
  missing: 'Missing rfqId or quote',
  notFound: 'RFQ not found or expired',
  duplicate: 'Duplicate quote from this maker',
  signature: 'Invalid signature',
} as const

const rest = (status: number, text: string) => (v: QuoteRefusal) => new HttpError(status, text, { code: v.code })
const relayText = (v: QuoteRefusal) => new HttpError(400, v.message, { code: v.code })

/**
 * POST /api/v1/quotes: the relay's verdict codes with this endpoint's own texts (the spec gives REST its own; the
 * rules it does not word keep the relay's). A store that is down answers as every API route does during an outage
 * (503, Retry-After); one that failed otherwise and admission control are 503s too, BUSY with its Retry-After.
 */
const QUOTE_REPLIES = {
  MISSING_FIELDS: rest(400, QuoteErrors.signature),
  RFQ_NOT_FOUND: rest(400, QuoteErrors.notFound),
  INVALID_MAKER: relayText,
  MAKER_NOT_ALLOWED: relayText,
  TOKEN_IN_MISMATCH: relayText,
  TOKEN_OUT_MISMATCH: relayText,
  TAKER_MISMATCH: relayText,
  DEADLINE_PAST: relayText,
  AMOUNT_IN_ZERO: relayText,
  AMOUNT_OUT_ZERO: relayText,
  INVALID_QUOTE_FIELD: relayText,
  INVALID_MESSAGE: relayText,
  INVALID_SIGNATURE: rest(400, QuoteErrors.signature),
  DUPLICATE_QUOTE: rest(400, QuoteErrors.duplicate),
  BUSY: v =>
    new HttpError(
      503,
      v.message,
      { code: v.code },
      { 'retry-after': String(Math.max(1, Math.ceil((v.retryAfterMs ?? 1000) / 1000))) },
    ),
  UNAVAILABLE: () => Errors.dependencyDown(),
  INTERNAL: v => new HttpError(503, v.message, { code: v.code }),
} satisfies Record<QuoteCode, (v: QuoteRefusal) => HttpError>

export function quoteReply(v: QuoteRefusal): HttpError {
  return QUOTE_REPLIES[v.code](v)
}
