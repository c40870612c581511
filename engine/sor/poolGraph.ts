// The cached route graph: every tracked pool, the state of each loaded at one block, and an index
// from token to pools so a quote ships only the pools that can be on one of its paths to the worker.
import type { Address, PoolState } from '../../workers/sor/types.js'
import type { PoolMeta } from '../../workers/sor/findRoute.js'
import type { TrackedPool } from '../store/sor.js'

export interface RefreshOutcome {
  asOfBlock: bigint
  at: number
  durationMs: number
  loaded: number
  failed: { address: Address; error: string }[]
}

export class PoolGraph {
  readonly pools = new Map<Address, TrackedPool>()
  readonly states = new Map<Address, PoolState>()
  private readonly byToken = new Map<Address, Set<Address>>()
  asOfBlock: bigint | null = null
  refreshedAt: number | null = null
  lastRefresh: RefreshOutcome | null = null
  lastRefreshError: string | null = null
  /** V3 word ranges a quote needed beyond SOR_V3_WORDS: kept through every later read of the pool */
  readonly wordRanges = new Map<Address, [number, number]>()

  track(pool: TrackedPool): void {
    this.pools.set(pool.address, pool)
    for (const t of pool.tokens) {
      let set = this.byToken.get(t)
      if (!set) this.byToken.set(t, set = new Set())
      set.add(pool.address)
    }
  }

  /** Replaces every state with one refresh's (one block): a pool whose read failed has no state until the next. */
  setStates(states: readonly PoolState[], asOfBlock: bigint, at: number): void {
    this.states.clear()
    for (const s of states) this.states.set(s.address, s)
    this.asOfBlock = asOfBlock
    this.refreshedAt = at
  }

  /** Merges the states of some pools re-read at `asOfBlock` (the rest did not change since): following the chain. */
  updateStates(states: readonly PoolState[], asOfBlock: bigint, at: number): void {
    for (const s of states) this.states.set(s.address, s)
    this.advance(asOfBlock, at)
  }

  /** Nothing changed up to `asOfBlock`: every state is as of it. */
  advance(asOfBlock: bigint, at: number): void {
    this.asOfBlock = asOfBlock
    this.refreshedAt = at
  }

  hasToken(token: Address): boolean {
    return this.byToken.has(token)
  }

  tokens(): Address[] {
    return [...this.byToken.keys()]
  }

  /** The pools, with state, that can sit on a path of at most maxHops from tokenIn to tokenOut. */
  relevant(tokenIn: Address, tokenOut: Address, maxHops: 1 | 2, slugs: ReadonlySet<string> | null): PoolState[] {
    const usable = (a: Address) => {
      const p = this.pools.get(a)
      return !!p && this.states.has(a) && (!slugs || slugs.has(p.protocol))
    }
    const touching = (token: Address) => [...(this.byToken.get(token) ?? [])].filter(usable)
    const fromIn = touching(tokenIn), toOut = touching(tokenOut)
    const keep = new Set<Address>()
    const tokensOf = (a: Address) => this.pools.get(a)!.tokens
    for (const a of fromIn) if (tokensOf(a).includes(tokenOut)) keep.add(a)
    if (maxHops === 2) {
      // a first hop must reach a token some last hop leaves from, and the other way round
      const outNeighbours = new Set(toOut.flatMap(a => tokensOf(a)).filter(t => t !== tokenOut && t !== tokenIn))
      const inNeighbours = new Set(fromIn.flatMap(a => tokensOf(a)).filter(t => t !== tokenIn && t !== tokenOut))
      for (const a of fromIn) if (tokensOf(a).some(t => outNeighbours.has(t))) keep.add(a)
      for (const a of toOut) if (tokensOf(a).some(t => inNeighbours.has(t))) keep.add(a)
    }
    return [...keep].map(a => this.states.get(a)!)
  }

  /** findRoute's per-pool metadata: protocol slug, kind and fee in pips. */
  meta(addresses: Iterable<Address>): Record<string, PoolMeta> {
    const out: Record<string, PoolMeta> = {}
    for (const a of addresses) {
      const p = this.pools.get(a)
      if (p) out[a] = { protocol: p.protocol, poolType: p.poolType, fee: feePips(p) }
    }
    return out
  }
}

/** A pool's fee in pips (hundredths of a bip: 3000 = 0.30%) whatever its kind; the stable pool counts in 1e10 units. */
export function feePips(p: Pick<TrackedPool, 'poolType' | 'fee'>): number {
  return p.poolType === 'stable' ? p.fee / 1e4 : p.fee
}
