// The fine-grained optimum, by brute force: what the bench and the tests measure the split
// optimiser (split.ts) against. Never on the quote path.
import type { Address } from './types.js'
import type { Path } from './graph.js'
import { pathPools } from './graph.js'
import { simulatePath } from './path.js'
import type { Split } from './split.js'

const EMPTY: Split = { routes: [], amountOut: 0n }

/**
 * A brute-force optimum to measure the optimiser against: every pool-disjoint set of up to
 * maxSplit routes among the `top` routes best at amountIn/maxSplit and at amountIn, each filled
 * greedily in 1/chunks slices by exact marginal gain (optimal on that grid for concave outputs),
 * then refined by exact pairwise transfers down to 1/(chunks*2^10) of the input.
 */
export function fineOptimum(
  paths: readonly Path[],
  amountIn: bigint,
  maxSplit: number,
  { top = 8, chunks = 400, keep = 3 } = {},
): Split {
  if (paths.length === 0 || amountIn <= 0n) return EMPTY
  const k = Math.max(1, maxSplit)
  const part = amountIn / BigInt(k) > 0n ? amountIn / BigInt(k) : amountIn
  const byPart = paths.map((p, i) => ({ i, a: simulatePath(p, part), b: simulatePath(p, amountIn) }))
  const shortlist = [
    ...new Set([
      ...[...byPart]
        .sort((x, y) => (y.a > x.a ? 1 : y.a < x.a ? -1 : 0))
        .slice(0, top)
        .map(x => x.i),
      ...[...byPart]
        .sort((x, y) => (y.b > x.b ? 1 : y.b < x.b ? -1 : 0))
        .slice(0, top)
        .map(x => x.i),
    ]),
  ]
  const sets: number[][] = []
  const walk = (from: number, set: number[], used: Set<Address>) => {
    if (set.length > 0) sets.push([...set])
    if (set.length === k) return
    for (let r = from; r < shortlist.length; r++) {
      const pools = pathPools(paths[shortlist[r]!]!)
      if (pools.some(p => used.has(p))) continue
      walk(r + 1, [...set, shortlist[r]!], new Set([...used, ...pools]))
    }
  }
  walk(0, [], new Set())
  // coarse exact water-filling on every set, then the best few refined
  const coarse = sets.map(set =>
    waterFill(
      set.map(i => paths[i]!),
      amountIn,
      Math.min(chunks, 40),
    ),
  )
  const leaders = coarse
    .map((s, i) => ({ s, i }))
    .sort((x, y) => (y.s.amountOut > x.s.amountOut ? 1 : -1))
    .slice(0, keep)
  let best = EMPTY
  for (const { i } of leaders) {
    const filled = waterFill(
      sets[i]!.map(j => paths[j]!),
      amountIn,
      chunks,
    )
    if (filled.amountOut > best.amountOut) best = filled
  }
  return best
}

function waterFill(paths: readonly Path[], amountIn: bigint, chunks: number): Split {
  const slice = amountIn / BigInt(chunks)
  const a = paths.map(() => 0n),
    outs = paths.map(() => 0n)
  a[0] = amountIn - slice * BigInt(chunks) // the indivisible rest starts on the first leg
  outs[0] = a[0] > 0n ? simulatePath(paths[0]!, a[0]) : 0n
  if (slice > 0n) {
    const gain = paths.map((p, j) => simulatePath(p, a[j]! + slice) - outs[j]!)
    for (let c = 0; c < chunks; c++) {
      let j = 0
      for (let m = 1; m < paths.length; m++) if (gain[m]! > gain[j]!) j = m
      a[j] = a[j]! + slice
      outs[j] = outs[j]! + gain[j]!
      gain[j] = simulatePath(paths[j]!, a[j]! + slice) - outs[j]!
    }
  }
  // exact pairwise refinement below the grid
  for (let d = slice / 2n; d > 0n && d >= slice >> 10n; d /= 2n) {
    for (let improved = true, guard = 0; improved && guard < 16; guard++) {
      improved = false
      for (let i = 0; i < paths.length; i++)
        for (let j = 0; j < paths.length; j++) {
          if (i === j || a[i]! < d) continue
          const oi = simulatePath(paths[i]!, a[i]! - d),
            oj = simulatePath(paths[j]!, a[j]! + d)
          if (oi + oj > outs[i]! + outs[j]!) {
            a[i] = a[i]! - d
            a[j] = a[j]! + d
            outs[i] = oi
            outs[j] = oj
            improved = true
          }
        }
    }
  }
  const routes = paths.map((path, j) => ({ path, amountIn: a[j]!, amountOut: outs[j]! })).filter(r => r.amountIn > 0n)
  return { routes, amountOut: outs.reduce((s, o) => s + o, 0n) }
}
