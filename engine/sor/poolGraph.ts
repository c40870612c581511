// The cached route graph: every tracked pool, the state of each loaded at one block, and an index from token
// to pools. The route threads keep a copy of the states (graphFeed.ts sends every change), so a quote ships
// its query, not its pools.
import type { Address, PoolState } from '../../workers/sor/types.js'
import type { PoolMeta } from '../../workers/sor/types.js'
import type { TrackedPool } from '../store/sor.js'

export interface RefreshOutcome {
  asOfBlock: bigint
  at: number
  durationMs: number
  loaded: number
  failed: { address: Address; error: string }[]
}

/** A change of states: all of them replaced (one refresh), or some re-read or extended. */
export type GraphChange = { all: true } | { all: false; states: readonly PoolState[] }

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
  /** told of every change of states (the feed to the route threads) */
  onChange: ((change: GraphChange) => void) | null = null

  track(pool: TrackedPool): void {
    this.pools.set(pool.address, pool)
    for (const t of pool.tokens) {
      let set = this.byToken.get(t)
      if (!set) this.byToken.set(t, (set = new Set()))
      set.add(pool.address)
    }
  }

  /** Replaces every state with one refresh's (one block): a pool whose read failed has no state until the next. */
  setStates(states: readonly PoolState[], asOfBlock: bigint, at: number): void {
    this.states.clear()
    for (const s of states) this.states.set(s.address, s)
    this.asOfBlock = asOfBlock
    this.refreshedAt = at
    this.onChange?.({ all: true })
  }

  /** Merges the states of some pools re-read at `asOfBlock` (the rest did not change since): following the chain. */
  updateStates(states: readonly PoolState[], asOfBlock: bigint, at: number): void {
    for (const s of states) this.states.set(s.address, s)
    this.advance(asOfBlock, at)
    if (states.length) this.onChange?.({ all: false, states })
  }

  /** One pool's state read again at the graph's block with more of it (a V3 pool's further words). */
  replaceState(state: PoolState): void {
    this.states.set(state.address, state)
    this.onChange?.({ all: false, states: [state] })
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

  /** A pool's metadata for the route search: protocol slug, kind and fee in pips. */
  metaOf(address: Address): PoolMeta | undefined {
    const p = this.pools.get(address)
    return p && { protocol: p.protocol, poolType: p.poolType, fee: feePips(p) }
  }
}

/** A pool's fee in pips (hundredths of a bip: 3000 = 0.30%) whatever its kind; the stable pool counts in 1e10 units. */
export function feePips(p: Pick<TrackedPool, 'poolType' | 'fee'>): number {
  return p.poolType === 'stable' ? p.fee / 1e4 : p.fee
}
