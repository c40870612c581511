// POST /api/v1/fills body -> FillInput, with the spec's error texts in the spec's order:
// missing fields first (all of them named), then address format, then the BigInt amounts.
import type { FillInput, Address, Hex } from '../../actors/rfqTypes.js'
import { Errors } from '../front/errors.js'
import {
  isAddress,
  isPlainObject,
  parseU256,
  isTxHash,
  boundedNumber,
  MAX_USD,
  hasControlChars,
} from '../../workers/values/index.js'

const REQUIRED = ['txHash', 'taker', 'maker', 'tokenIn', 'tokenOut', 'amountIn', 'amountOut', 'amountInUsd'] as const

export function parseFillBody(body: unknown): FillInput {
  if (!isPlainObject(body)) throw Errors.invalidJson()
  const b = body
  const missing = REQUIRED.filter(k => b[k] === undefined || b[k] === null || b[k] === '')
  if (missing.length) throw Errors.badRequest(`Missing required fields: ${missing.join(', ')}`)
  if (!isAddress(b.taker) || !isAddress(b.maker)) throw Errors.badRequest('Invalid taker or maker address format')
  const amountIn = parseU256(b.amountIn),
    amountOut = parseU256(b.amountOut)
  if (amountIn === null || amountOut === null)
    throw Errors.badRequest('amountIn and amountOut must be valid BigInt strings')
  if (!isTxHash(b.txHash)) throw Errors.badRequest('Missing or invalid txHash (expected 0x + 64 hex chars)')
  if (!isAddress(b.tokenIn) || !isAddress(b.tokenOut))
    throw Errors.badRequest('Invalid tokenIn or tokenOut address format')
  const amountInUsd = boundedNumber(b.amountInUsd, 0, Infinity)
  if (amountInUsd === null) throw Errors.badRequest('amountInUsd must be a non-negative number')
  if (amountInUsd > MAX_USD) throw Errors.badRequest(`amountInUsd must be at most ${MAX_USD} (USD)`)
  const visibility = b.visibility ?? 'public'
  if (visibility !== 'public' && visibility !== 'private')
    throw Errors.badRequest('visibility must be public or private')
  const rfqId = b.rfqId ?? null
  if (
    rfqId !== null &&
    (typeof rfqId !== 'string' || rfqId.length === 0 || rfqId.length > 128 || hasControlChars(rfqId))
  )
    throw Errors.badRequest('rfqId must be a string (max 128 chars)')
  return {
    txHash: b.txHash.toLowerCase() as Hex,
    taker: lower(b.taker),
    maker: lower(b.maker),
    tokenIn: lower(b.tokenIn),
    tokenOut: lower(b.tokenOut),
    amountIn,
    amountOut,
    amountInUsd,
    visibility,
    rfqId,
  }
}

const lower = (s: string) => s.toLowerCase() as Address
