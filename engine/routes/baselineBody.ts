// POST /api/v1/rfq/baseline body -> Baseline (source 'client'). Every field is checked.
import { Errors } from '../front/errors.js'
import {
  isAddress,
  isPlainObject,
  parseU256,
  boundedNumber,
  parseIsoDate,
  MAX_PRICE,
  MAX_ABS_BPS,
  hasControlChars,
} from '../../workers/values/index.js'
import type { Baseline, RouteSummaryItem } from '../store/baselines.js'

const REQUIRED = [
  'rfqId',
  'tokenIn',
  'tokenOut',
  'amountIn',
  'baselineAmountOut',
  'baselineEffectivePrice',
  'baselinePriceImpactBps',
  'baselineBlockNumber',
  'baselineTimestamp',
] as const
const MAX_ROUTE_ITEMS = 32

export function parseBaselineBody(body: unknown): Baseline {
  if (!isPlainObject(body)) throw Errors.invalidJson()
  const b = body
  const missing = REQUIRED.filter(k => b[k] === undefined || b[k] === null || b[k] === '')
  if (missing.length) throw Errors.badRequest(`Missing required fields: ${missing.join(', ')}`)
  if (typeof b.rfqId !== 'string' || b.rfqId.length > 128 || hasControlChars(b.rfqId))
    throw Errors.badRequest('rfqId must be a string (max 128 chars)')
  if (!isAddress(b.tokenIn) || !isAddress(b.tokenOut))
    throw Errors.badRequest('Invalid tokenIn or tokenOut address format')
  const amountIn = parseU256(b.amountIn),
    baselineAmountOut = parseU256(b.baselineAmountOut)
  if (amountIn === null || baselineAmountOut === null)
    throw Errors.badRequest('amountIn and baselineAmountOut must be valid BigInt strings')
  if (baselineAmountOut === 0n) throw Errors.badRequest('baselineAmountOut must be greater than 0')
  const baselineEffectivePrice = boundedNumber(b.baselineEffectivePrice, 0, Infinity)
  if (baselineEffectivePrice === null) throw Errors.badRequest('baselineEffectivePrice must be a non-negative number')
  if (baselineEffectivePrice > MAX_PRICE) throw Errors.badRequest(`baselineEffectivePrice must be at most ${MAX_PRICE}`)
  const baselinePriceImpactBps = boundedNumber(b.baselinePriceImpactBps, -Infinity, Infinity)
  if (baselinePriceImpactBps === null) throw Errors.badRequest('baselinePriceImpactBps must be a number')
  if (Math.abs(baselinePriceImpactBps) > MAX_ABS_BPS)
    throw Errors.badRequest(`baselinePriceImpactBps must be within ±${MAX_ABS_BPS}`)
  if (typeof b.baselineBlockNumber !== 'string' || !/^\d{1,20}$/.test(b.baselineBlockNumber))
    throw Errors.badRequest('baselineBlockNumber must be a block number string')
  const ts = parseIsoDate(b.baselineTimestamp)
  if (!ts) throw Errors.badRequest('baselineTimestamp must be an ISO 8601 timestamp') // years 1970 to 9999 only
  return {
    rfqId: b.rfqId,
    tokenIn: b.tokenIn.toLowerCase(),
    tokenOut: b.tokenOut.toLowerCase(),
    amountIn,
    baselineAmountOut,
    baselineEffectivePrice,
    baselinePriceImpactBps,
    baselineBlockNumber: b.baselineBlockNumber,
    baselineTimestamp: ts,
    baselineRouteSummary: routeSummary(b.baselineRouteSummary),
    source: 'client',
  }
}

function finite(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x)
}

function routeSummary(x: unknown): RouteSummaryItem[] {
  if (x === undefined || x === null) return []
  const bad = () => Errors.badRequest('baselineRouteSummary must be an array of {protocol, poolType, fractionPct}')
  if (!Array.isArray(x) || x.length > MAX_ROUTE_ITEMS) throw bad()
  return x.map(item => {
    if (!isPlainObject(item)) throw bad()
    const i = item
    if (
      typeof i.protocol !== 'string' ||
      typeof i.poolType !== 'string' ||
      !i.protocol ||
      i.protocol.length > 64 ||
      i.poolType.length > 32 ||
      !finite(i.fractionPct) ||
      i.fractionPct < 0 ||
      i.fractionPct > 100
    )
      throw bad()
    return { protocol: i.protocol, poolType: i.poolType, fractionPct: i.fractionPct }
  })
}
