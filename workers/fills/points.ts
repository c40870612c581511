// Points engine v2: how many points a fill earns its taker and its maker. Deterministic (plain
// arithmetic on the fill's own figures, rounded half away from zero to 2 decimals) and not
// farmable by trivial means: a fill with no notional, no amounts, or the same wallet on both
// sides earns nothing, and one fill's notional counts only up to a cap.
import { clamp, roundTo } from './round.js'

export const POINTS_VERSION = 'v2'

export const pointsV2Params = {
  /** points per USD of notional, before multipliers: 1 point per $100 */
  perUsd: 0.01,
  /** notional above this (USD) earns nothing more in one fill: wash volume is capped per tx */
  notionalCapUsd: 1_000_000,
  /** the maker earns the full base, the taker this share of it */
  takerShare: 0.5,
  /** improvement counts within [-50, +100] bps: x(1 + bps/200) -> 0.75x .. 1.5x */
  improvementFloorBps: -50,
  improvementCapBps: 100,
  improvementDivisor: 200,
  /** private RFQ routing multiplies both sides' points */
  privateMultiplier: 1.25,
} as const

export interface PointsInput {
  notionalUsd: number
  /** 0 when no baseline: no bonus, no penalty */
  improvementBps: number
  isPrivate: boolean
  taker: string
  maker: string
  amountIn: bigint
  amountOut: bigint
}

export interface Points {
  takerPoints: number
  makerPoints: number
}

export function pointsV2(x: PointsInput, p = pointsV2Params): Points {
  const eligible =
    Number.isFinite(x.notionalUsd) &&
    x.notionalUsd > 0 &&
    x.amountIn > 0n &&
    x.amountOut > 0n &&
    x.taker.toLowerCase() !== x.maker.toLowerCase()
  if (!eligible) return { takerPoints: 0, makerPoints: 0 }
  const base = Math.min(x.notionalUsd, p.notionalCapUsd) * p.perUsd
  const imp = Number.isFinite(x.improvementBps)
    ? clamp(x.improvementBps, p.improvementFloorBps, p.improvementCapBps)
    : 0
  const improvementFactor = 1 + imp / p.improvementDivisor
  const privacyFactor = x.isPrivate ? p.privateMultiplier : 1
  const maker = base * improvementFactor * privacyFactor
  // The taker's share rewards routing volume through RFQs; improvement is what the taker received,
  // so it raises the maker's points (who gave it) and the taker's alike.
  return { takerPoints: roundTo(maker * p.takerShare, 2), makerPoints: roundTo(maker, 2) }
}
