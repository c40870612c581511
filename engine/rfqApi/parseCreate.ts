// The body of POST /api/v1/agent/rfqs, checked in a fixed order with the spec's texts where it
// has them and plain ones where it does not.
import type { Address, RfqKind, Visibility } from '../../actors/rfqTypes.js'
import type { TokenRegistry } from '../tokens/registry.js'
import type { Token } from '../store/tokens.js'
import { Errors } from '../front/errors.js'
import { tokenReply } from '../replies/api.js'
import { isAddress, isPlainObject, parseU256 } from '../../workers/values/index.js'

export const TTL = { default: 30, min: 10, max: 300 } as const
export const MAX_ALLOWED_MAKERS = 100

export const CreateErrors = {
  bigint: 'amountIn/amountOut must be valid BigInt strings',
  amountInRequired: 'amountIn is required for EXACT_IN',
  amountOutRequired: 'amountOut is required for EXACT_OUT',
} as const

export interface CreateRequest {
  tokenIn: Token
  tokenOut: Token
  kind: RfqKind
  amountIn: bigint | null
  amountOut: bigint | null
  ttlSeconds: number
  visibility: Visibility
  allowedMakers: Address[]
}

export async function parseCreate(body: unknown, tokens: TokenRegistry): Promise<CreateRequest> {
  if (!isPlainObject(body)) throw Errors.invalidJson()
  const b = body
  const tokenIn = await token(b.tokenIn, 'tokenIn', tokens)
  const tokenOut = await token(b.tokenOut, 'tokenOut', tokens)
  if (tokenIn.address === tokenOut.address) throw Errors.badRequest('tokenIn and tokenOut must be different')

  const kind = b.kind === undefined ? 0 : b.kind
  if (kind !== 0 && kind !== 1) throw Errors.badRequest('kind must be 0 (EXACT_IN) or 1 (EXACT_OUT)')
  const amountIn = amount(b.amountIn)
  const amountOut = amount(b.amountOut)
  if (kind === 0 && amountIn === undefined) throw Errors.badRequest(CreateErrors.amountInRequired)
  if (kind === 1 && amountOut === undefined) throw Errors.badRequest(CreateErrors.amountOutRequired)
  const wanted = kind === 0 ? amountIn! : amountOut!
  if (wanted <= 0n) throw Errors.badRequest(kind === 0 ? 'amountIn must be > 0' : 'amountOut must be > 0')

  const ttl = b.ttlSeconds === undefined ? TTL.default : b.ttlSeconds
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < TTL.min || ttl > TTL.max) {
    throw Errors.badRequest(`ttlSeconds must be an integer from ${TTL.min} to ${TTL.max}`)
  }
  const visibility = b.visibility === undefined ? 'public' : b.visibility
  if (visibility !== 'public' && visibility !== 'private')
    throw Errors.badRequest('visibility must be public or private')
  const makers = b.allowedMakers === undefined || b.allowedMakers === null ? [] : b.allowedMakers
  if (!Array.isArray(makers) || makers.length > MAX_ALLOWED_MAKERS || !makers.every(isAddress)) {
    throw Errors.badRequest(`allowedMakers must be an array of at most ${MAX_ALLOWED_MAKERS} 0x addresses`)
  }
  if (makers.length && visibility !== 'private') throw Errors.badRequest('allowedMakers applies to private RFQs only')

  return {
    tokenIn,
    tokenOut,
    kind,
    ttlSeconds: ttl,
    visibility,
    amountIn: kind === 0 ? amountIn! : null,
    amountOut: kind === 1 ? amountOut! : null,
    allowedMakers: [...new Set(makers.map(m => m.toLowerCase() as Address))],
  }
}

async function token(x: unknown, side: 'tokenIn' | 'tokenOut', tokens: TokenRegistry): Promise<Token> {
  if (typeof x !== 'string' || !x.trim()) throw Errors.badRequest(`${side} is required (address or symbol)`)
  const r = await tokens.resolve(x)
  if (!r.ok) throw tokenReply(r, side, tokens.chainId)
  return r.token
}

/** undefined when absent; throws the spec's text when present but not a uint256 decimal string. */
function amount(x: unknown): bigint | undefined {
  if (x === undefined || x === null) return undefined
  const v = parseU256(x)
  if (v === null) throw Errors.badRequest(CreateErrors.bigint)
  return v
}
