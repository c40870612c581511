// The read-side shapes the spec leaves to us: pool records, pool-state records, health and coverage.
// Written down in engine/sor/README.fragment.md; amounts are bigint (decimal strings on the wire).
import type { Address, PoolState } from '../../workers/sor/types.js'
import type { Token } from '../store/tokens.js'
import type { TrackedPool } from '../store/sor.js'
import { feePips, type PoolGraph } from './poolGraph.js'
import { stateToJson } from './stateCodec.js'

export interface TokenRef {
  address: Address
  symbol: string | null
  decimals: number | null
}

const tokenRef = (tokens: ReadonlyMap<string, Token>, a: Address): TokenRef => ({
  address: a,
  symbol: tokens.get(a)?.symbol ?? null,
  decimals: tokens.get(a)?.decimals ?? null,
})

export function poolView(p: TrackedPool, graph: PoolGraph, tokens: ReadonlyMap<string, Token>) {
  return {
    address: p.address,
    protocol: p.protocol,
    poolType: p.poolType,
    tokens: p.tokens.map(t => tokenRef(tokens, t)),
    fee: feePips(p),
    tickSpacing: p.tickSpacing,
    createdBlock: p.createdBlock,
    hasState: graph.states.has(p.address),
  }
}

export function stateView(p: TrackedPool, state: PoolState | undefined) {
  return { address: p.address, protocol: p.protocol, poolType: p.poolType, state: state ? stateToJson(state) : null }
}

export interface FollowView {
  intervalMs: number
  headBlock: bigint | null
  currentAt: number | null
  blocks: number
  rereads: number
  rpcCalls: number
  reloads: Record<string, number>
}

export function healthView(
  graph: PoolGraph,
  o: {
    rpcConfigured: boolean
    protocols: number
    staleAfterSecs: number
    lastScan: unknown
    follow?: FollowView | null
  },
) {
  const ageSeconds = graph.refreshedAt === null ? null : Math.round((Date.now() - graph.refreshedAt) / 100) / 10
  const stale = ageSeconds === null || ageSeconds > o.staleAfterSecs
  const status = !o.rpcConfigured
    ? 'no-rpc'
    : graph.states.size === 0
      ? 'empty'
      : stale || graph.lastRefreshError
        ? 'degraded'
        : 'ok'
  const last = graph.lastRefresh
  return {
    status,
    rpcConfigured: o.rpcConfigured,
    protocols: o.protocols,
    poolsTracked: graph.pools.size,
    poolsWithState: graph.states.size,
    tokens: graph.tokens().length,
    asOfBlock: graph.asOfBlock === null ? null : String(graph.asOfBlock),
    refreshedAt: graph.refreshedAt === null ? null : new Date(graph.refreshedAt).toISOString(),
    ageSeconds,
    stale,
    lastRefresh: last
      ? {
          asOfBlock: String(last.asOfBlock),
          durationMs: last.durationMs,
          loaded: last.loaded,
          failed: last.failed.length,
        }
      : null,
    lastRefreshError: graph.lastRefreshError,
    lastScan: o.lastScan,
    // following the chain: how far the graph is behind the head we last saw, in blocks and seconds
    follow: o.follow
      ? {
          intervalMs: o.follow.intervalMs,
          headBlock: o.follow.headBlock === null ? null : String(o.follow.headBlock),
          lagBlocks:
            o.follow.headBlock === null || graph.asOfBlock === null
              ? null
              : Number(o.follow.headBlock - graph.asOfBlock),
          lagSeconds: o.follow.currentAt === null ? null : Math.round((Date.now() - o.follow.currentAt) / 100) / 10,
          blocksFollowed: o.follow.blocks,
          poolsReread: o.follow.rereads,
          rpcCalls: o.follow.rpcCalls,
          reloads: o.follow.reloads,
        }
      : null,
  }
}

export interface PairCoverage {
  tokenA: TokenRef
  tokenB: TokenRef
  pools: number
  protocols: string[]
  poolTypes: string[]
  /** sum over the pair's pools, raw units: reserves (v2), balances (stable), virtual reserves at the current price (v3) */
  liquidity: { tokenA: bigint; tokenB: bigint }
}

/** Every token pair some pool with state trades directly (tokenA < tokenB), with its estimated liquidity. */
export function coverage(graph: PoolGraph, tokens: ReadonlyMap<string, Token>): PairCoverage[] {
  const pairs = new Map<
    string,
    { a: Address; b: Address; pools: number; protocols: Set<string>; types: Set<string>; la: bigint; lb: bigint }
  >()
  for (const [address, state] of graph.states) {
    const tracked = graph.pools.get(address)
    if (!tracked) continue
    const held = holdings(state)
    const coins = [...held.keys()]
    for (let i = 0; i < coins.length; i++)
      for (let j = i + 1; j < coins.length; j++) {
        const [a, b] = coins[i]! < coins[j]! ? [coins[i]!, coins[j]!] : [coins[j]!, coins[i]!]
        const key = `${a}/${b}`
        let e = pairs.get(key)
        if (!e) pairs.set(key, (e = { a, b, pools: 0, protocols: new Set(), types: new Set(), la: 0n, lb: 0n }))
        e.pools++
        e.protocols.add(tracked.protocol)
        e.types.add(tracked.poolType)
        e.la += held.get(a)!
        e.lb += held.get(b)!
      }
  }
  return [...pairs.values()]
    .sort((x, y) => y.pools - x.pools || (x.a + x.b).localeCompare(y.a + y.b))
    .map(e => ({
      tokenA: tokenRef(tokens, e.a),
      tokenB: tokenRef(tokens, e.b),
      pools: e.pools,
      protocols: [...e.protocols].sort(),
      poolTypes: [...e.types].sort(),
      liquidity: { tokenA: e.la, tokenB: e.lb },
    }))
}

const Q96 = 1n << 96n

/** What a pool holds that a swap can reach, per coin, raw units. */
function holdings(s: PoolState): Map<Address, bigint> {
  switch (s.kind) {
    case 'v2':
      return new Map([
        [s.token0, s.reserve0],
        [s.token1, s.reserve1],
      ])
    case 'stable':
      return new Map(s.coins.map((c, i) => [c, s.balances[i]!]))
    case 'v3':
      // x = L / sqrtP, y = L * sqrtP: the reserves a constant-product pool with the same depth at this price would hold
      if (s.sqrtPriceX96 === 0n)
        return new Map([
          [s.token0, 0n],
          [s.token1, 0n],
        ])
      return new Map([
        [s.token0, (s.liquidity * Q96) / s.sqrtPriceX96],
        [s.token1, (s.liquidity * s.sqrtPriceX96) / Q96],
      ])
  }
}
