// The route graph: tokens are nodes, each pool an edge between every pair of its coins.
// Every 1-hop and 2-hop path tokenIn -> tokenOut is enumerated (no top-N by TVL): the optimiser
// decides what is worth using, not the graph.
import type { Address, PoolState } from './types.js'
import { poolTokens } from './pool.js'

/** One swap through one pool. */
export interface Hop {
  pool: PoolState
  tokenIn: Address
  tokenOut: Address
}

/** A route: tokens[0] = tokenIn, tokens[hops.length] = tokenOut; no pool twice. */
export interface Path {
  tokens: Address[]
  hops: Hop[]
  /** pool addresses joined by '>', unique per path */
  key: string
}

/** token -> neighbour token -> pools trading that pair (each pool once, first copy wins). */
export type Adjacency = Map<Address, Map<Address, PoolState[]>>

export function buildAdjacency(pools: readonly PoolState[]): Adjacency {
  const adjacency: Adjacency = new Map()
  const seen = new Set<Address>()
  for (const pool of pools) {
    if (seen.has(pool.address)) continue
    seen.add(pool.address)
    const tokens = [...new Set(poolTokens(pool))]
    for (const a of tokens)
      for (const b of tokens) {
        if (a === b) continue
        let row = adjacency.get(a)
        if (!row) adjacency.set(a, (row = new Map()))
        let edge = row.get(b)
        if (!edge) row.set(b, (edge = []))
        edge.push(pool)
      }
  }
  return adjacency
}

/** Every path of 1..maxHops pools from tokenIn to tokenOut; total over any pool set (unknown tokens give []). */
export function enumeratePaths(
  pools: readonly PoolState[],
  tokenIn: Address,
  tokenOut: Address,
  maxHops: 1 | 2,
): Path[] {
  const paths: Path[] = []
  if (tokenIn === tokenOut) return paths
  const adjacency = buildAdjacency(pools)
  const fromIn = adjacency.get(tokenIn)
  if (!fromIn) return paths
  for (const pool of fromIn.get(tokenOut) ?? [])
    paths.push({ tokens: [tokenIn, tokenOut], hops: [{ pool, tokenIn, tokenOut }], key: pool.address })
  if (maxHops < 2) return paths
  for (const [mid, firstPools] of fromIn) {
    if (mid === tokenOut) continue
    const secondPools = adjacency.get(mid)?.get(tokenOut)
    if (!secondPools) continue
    for (const first of firstPools)
      for (const second of secondPools) {
        if (first.address === second.address) continue // one pool twice would price against itself
        paths.push({
          tokens: [tokenIn, mid, tokenOut],
          hops: [
            { pool: first, tokenIn, tokenOut: mid },
            { pool: second, tokenIn: mid, tokenOut },
          ],
          key: `${first.address}>${second.address}`,
        })
      }
  }
  return paths
}

/** Pool addresses of a path, for the pool-disjointness rule of a split. */
export function pathPools(path: Path): Address[] {
  return path.hops.map(h => h.pool.address)
}
