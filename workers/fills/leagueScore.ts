// The league's composite score: performance only (no badges, no points). The same formula runs
// in SQL for ranking (league_raw_score, migration 070, with these constants); this is the reference
// the tests hold it equal to.
import { clamp, roundTo } from './round.js'

export const leagueParams = {
  /** score points per decade of USD notional: 10 * log10(1 + notional) */
  notionalWeight: 10,
  /** average improvement counts within [-50, +50] bps: x(1 + bps/100) -> 0.5x .. 1.5x */
  improvementClampBps: 50,
  improvementDivisor: 100,
  /** up to +10% for a wallet whose fills were all routed privately */
  privacyBonus: 0.1,
} as const

/** Makers' reliability factor, exactly as specified: clamp(1.1 - cancelRate * 1.5, 0.5, 1.1). */
export function reliabilityFactor(cancelRate: number): number {
  return clamp(1.1 - cancelRate * 1.5, 0.5, 1.1)
}

export interface ScoreInput {
  filledNotional: number
  avgImprovementBps: number
  privateShare: number
  /** makers only; null for takers (no reliability factor) */
  cancelRate: number | null
}

export interface Score {
  rawScore: number
  score: number
  reliability: number | null
}

export function leagueScore(x: ScoreInput, p = leagueParams): Score {
  const base = p.notionalWeight * Math.log10(1 + Math.max(0, x.filledNotional))
  const improvement =
    1 + clamp(x.avgImprovementBps, -p.improvementClampBps, p.improvementClampBps) / p.improvementDivisor
  const privacy = 1 + p.privacyBonus * clamp(x.privateShare, 0, 1)
  const reliability = x.cancelRate === null ? null : reliabilityFactor(x.cancelRate)
  const rawScore = base * improvement * privacy * (reliability ?? 1)
  return { rawScore, score: roundTo(rawScore, 2), reliability }
}
