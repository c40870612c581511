// The exhaustive candidate source: every path within maxHops enumerated and every measure computed for every
// one, as the route finder searched before it pruned. Never on the quote path: the reference the pruned source
// (graphSource.ts) is held to in the tests, and what the bench compares its cost with.
import type { PoolMeta, PoolState } from './types.js'
import { enumeratePaths, pathPools } from './graph.js'
import { pathCurve, type CurveCache } from './path.js'
import { arraySource, type Candidate } from './candidates.js'
import type { RouteSource } from './routeSource.js'
import type { RouteQuery } from './graphSource.js'

export function exhaustiveSource(
  pools: readonly PoolState[],
  q: RouteQuery,
  meta: (pool: PoolState) => PoolMeta,
): RouteSource {
  // paths in the order of the whole graph, then those of the allowed protocols: equal values rank alike in both sources
  const slugs = q.slugs?.length ? new Set(q.slugs) : null
  const all = q.amountIn > 0n ? enumeratePaths(pools, q.tokenIn, q.tokenOut, q.maxHops) : []
  const paths = slugs ? all.filter(p => p.hops.every(h => slugs.has(meta(h.pool).protocol))) : all
  const cache: CurveCache = new Map()
  const total = Number(q.amountIn)
  const candidates: Candidate[] = [],
    finals: number[] = []
  let live = 0
  for (const path of paths) {
    const curve = pathCurve(path, cache),
      out = curve.out(total)
    if (path.hops.every(h => pathCurve({ ...path, hops: [h] }, cache).bound.rate > 0)) live++
    if (out > 0) {
      candidates.push({ path, curve, pools: pathPools(path) })
      finals.push(out)
    }
  }
  const protocolOf = (c: Candidate): string | null => {
    const protocols = new Set(c.path.hops.map(h => meta(h.pool).protocol))
    return protocols.size === 1 ? [...protocols][0]! : null
  }
  const source = arraySource(candidates, total, finals)
  return {
    ...source,
    work: { considered: paths.length, viable: candidates.length },
    counts: () => ({ paths: paths.length, live }),
    protocols() {
      const alone = new Set<string>(),
        any = new Set<string>()
      for (const c of candidates) {
        const p = protocolOf(c)
        if (p !== null) alone.add(p)
        for (const h of c.path.hops) any.add(meta(h.pool).protocol)
      }
      return { alone: [...alone].sort(), only: any.size === 1 ? [...any][0]! : null }
    },
    forProtocol(protocol) {
      const kept: number[] = []
      candidates.forEach((c, i) => {
        if (protocolOf(c) === protocol) kept.push(i)
      })
      return arraySource(
        kept.map(i => candidates[i]!),
        total,
        kept.map(i => finals[i]!),
      )
    },
  }
}
