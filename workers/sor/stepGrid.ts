// The 5%-step split grid (Uniswap AlphaRouter's method): each route takes whole 5% steps of the input.
// Pure grid math over a table of per-step outputs; split.ts evaluates the chosen combination exactly.
import type { Address } from './types.js'

export const STEPS = 20 // 5% steps, as Uniswap's AlphaRouter splits

/** Input of `steps` 5% steps; the last step of a split takes the remainder so legs sum exactly. */
export function stepAmount(amountIn: bigint, steps: number): bigint {
  return (amountIn * BigInt(steps)) / BigInt(STEPS)
}

export function stepOutputs(out: (x: number) => number, total: number): Float64Array {
  const row = new Float64Array(STEPS + 1)
  for (let s = 1; s <= STEPS; s++) row[s] = out((total * s) / STEPS)
  return row
}

/**
 * The best combination of up to k pool-disjoint routes taking whole 5% steps that sum to 100%,
 * over every candidate: depth-first with a bound from a table that ignores disjointness.
 */
export function bestStepCombination(
  table: readonly Float64Array[],
  pools: readonly Address[][],
  k: number,
): Array<{ index: number; steps: number }> {
  const R = table.length
  const order = table.map((_, i) => i).sort((a, b) => table[b]![STEPS]! - table[a]![STEPS]!)
  const S = STEPS + 1,
    K = k + 1
  // bound[i][kk][s]: best value from order[i..] with at most kk routes and exactly s steps
  const bound = new Float64Array((R + 1) * K * S).fill(-Infinity)
  const at = (i: number, kk: number, s: number) => (i * K + kk) * S + s
  for (let kk = 0; kk < K; kk++) bound[at(R, kk, 0)] = 0
  for (let i = R - 1; i >= 0; i--) {
    const row = table[order[i]!]!
    for (let kk = 0; kk < K; kk++)
      for (let s = 0; s < S; s++) {
        let v = bound[at(i + 1, kk, s)]!
        if (kk > 0)
          for (let t = 1; t <= s; t++) {
            const w = row[t]! + bound[at(i + 1, kk - 1, s - t)]!
            if (w > v) v = w
          }
        bound[at(i, kk, s)] = v
      }
  }
  let best = 0
  let bestPicks: Array<{ index: number; steps: number }> = []
  const picks: Array<{ index: number; steps: number }> = []
  const used = new Set<Address>()
  const search = (i: number, kk: number, s: number, value: number) => {
    if (s === 0) {
      if (value > best) {
        best = value
        bestPicks = [...picks]
      }
      return
    }
    if (kk === 0 || value + bound[at(i, kk, s)]! <= best) return
    for (let r = i; r < R; r++) {
      if (value + bound[at(r, kk, s)]! <= best) return // the bound only falls as r grows
      const index = order[r]!
      const routePools = pools[index]!
      if (routePools.some(p => used.has(p))) continue
      const row = table[index]!
      for (const p of routePools) used.add(p)
      for (let t = s; t >= 1; t--) {
        if (value + row[t]! + bound[at(r + 1, kk - 1, s - t)]! <= best) continue
        picks.push({ index, steps: t })
        search(r + 1, kk - 1, s - t, value + row[t]!)
        picks.pop()
      }
      for (const p of routePools) used.delete(p)
    }
  }
  search(0, k, STEPS, 0)
  return bestPicks
}

/** The input of each leg of a step split; the last leg takes the remainder, so legs sum exactly to amountIn. */
export function stepLegs(amountIn: bigint, steps: number[]): bigint[] {
  const legs = steps.map(s => stepAmount(amountIn, s))
  if (legs.length > 0) legs[legs.length - 1] = amountIn - legs.slice(0, -1).reduce((a, b) => a + b, 0n)
  return legs
}
