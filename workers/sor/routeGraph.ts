// The route graph the pruned search reads: tokens are nodes; each pool, traded one way, is a side on the
// pair (tokenIn -> tokenOut) it connects. Every side carries its curve's bound (path.ts), and every pair the
// best of its sides' bounds, whole and per protocol, so the search can tell what a pair, or a path through a
// middle token, can at most deliver without evaluating any of its pools. Pools come and go one at a time (the
// route threads keep a copy in step with the engine's), and only the touched pairs are recomputed.
// Curves are built on demand and a bounded number are kept (CURVE_CAPACITY): the memory stays within a budget
// at any graph size, and a pool's curve is rebuilt only when it is needed again.
import type { Address, PoolMeta, PoolState } from './types.js'
import { poolTokens } from './pool.js'
import { poolCurve, type Curve, type CurveBound } from './path.js'

/** One pool traded one way. Replaced, not changed, when the pool's state changes. */
export interface Side {
  readonly id: number
  readonly pool: PoolState
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly protocol: string
  /** the bound of this side's curve; bound.rate is the curve's rate(0) exactly */
  readonly bound: CurveBound
  /** the pool has more than two coins, so it may sit on both hops of a path through its third coin */
  readonly multi: boolean
  /** position among its pair's sides: the order paths are enumerated in */
  position: number
  curve: Curve | undefined
}

/** The best of each bound field over some sides, and how many of them trade at all. */
export interface Aggregate extends CurveBound {
  live: number
}

export interface Pair {
  readonly sides: Side[]
  /** over every side, and per protocol; recomputed when a side changes */
  all: Aggregate
  byProtocol: Map<string, Aggregate>
  /** some side is of a pool with more than two coins */
  multi: boolean
  dirty: boolean
}

/**
 * Curves kept at once: about 1.3 KB each (a V3 pool's segments), so 26 MB, for what hub-to-hub queries on a
 * 50,000-pool graph touch (a few thousand pools each); the index itself is about 0.65 KB per pool side.
 */
export const CURVE_CAPACITY = 20_000

export class RouteGraph {
  private readonly pairs = new Map<Address, Map<Address, Pair>>()
  private readonly sidesOf = new Map<Address, Side[]>()
  private readonly metas = new Map<Address, PoolMeta>()
  private readonly cached: Side[] = [] // sides holding a curve, oldest first
  private cachedHead = 0
  private nextId = 0
  /** bumped on every change: what a copy of the graph is in step with */
  version = 0
  /** per token, bumped when a pool trading it changes: a query's view stays good while its two tokens' stand */
  private readonly tokenVersions = new Map<Address, number>()
  /** views of recent queries (routeView.ts), kept while their tokens' versions stand */
  readonly views = new Map<string, { view: unknown; versions: [number, number] }>()

  constructor(readonly curveCapacity = CURVE_CAPACITY) {}

  /** A graph of these pools; a pool listed twice keeps its first copy (as path enumeration does). */
  static from(
    pools: readonly PoolState[],
    poolMeta: Readonly<Record<string, PoolMeta>> = {},
    curveCapacity?: number,
  ): RouteGraph {
    const graph = new RouteGraph(curveCapacity)
    for (const pool of pools) {
      if (!graph.sidesOf.has(pool.address)) graph.set(pool, poolMeta[pool.address] ?? defaultMeta(pool))
    }
    return graph
  }

  get poolCount(): number {
    return this.sidesOf.size
  }
  get curveCount(): number {
    return this.cached.length - this.cachedHead
  }

  /** Adds a pool, or replaces its state (and meta) in place, keeping its sides' positions. */
  set(pool: PoolState, meta: PoolMeta = defaultMeta(pool)): void {
    this.version++
    this.touch(pool)
    this.metas.set(pool.address, meta)
    const old = this.sidesOf.get(pool.address)
    const tokens = [...new Set(poolTokens(pool))]
    if (old && old.length !== tokens.length * (tokens.length - 1)) this.remove(pool.address)
    const sides: Side[] = []
    let k = 0
    for (const a of tokens)
      for (const b of tokens) {
        if (a === b) continue
        const previous = this.sidesOf.has(pool.address) ? old![k] : undefined
        const side = this.makeSide(pool, a, b, meta.protocol, tokens.length > 2, previous?.id)
        const pair = this.pairOf(a, b)
        if (previous) {
          side.position = previous.position
          pair.sides[previous.position] = side
          previous.curve = undefined
        } else {
          side.position = pair.sides.length
          pair.sides.push(side)
        }
        pair.dirty = true
        sides.push(side)
        k++
      }
    this.sidesOf.set(pool.address, sides)
  }

  remove(address: Address): void {
    const sides = this.sidesOf.get(address)
    if (!sides) return
    this.version++
    this.touch(sides[0]!.pool)
    this.sidesOf.delete(address)
    this.metas.delete(address)
    for (const side of sides) {
      side.curve = undefined
      const row = this.pairs.get(side.tokenIn)!,
        pair = row.get(side.tokenOut)!
      pair.sides.splice(side.position, 1)
      pair.sides.forEach((s, i) => {
        s.position = i
      })
      pair.dirty = true
      if (pair.sides.length === 0) row.delete(side.tokenOut)
      if (row.size === 0) this.pairs.delete(side.tokenIn)
    }
  }

  has(address: Address): boolean {
    return this.sidesOf.has(address)
  }
  tokenVersion(token: Address): number {
    return this.tokenVersions.get(token) ?? 0
  }

  private touch(pool: PoolState): void {
    for (const t of poolTokens(pool)) this.tokenVersions.set(t, (this.tokenVersions.get(t) ?? 0) + 1)
  }
  state(address: Address): PoolState | undefined {
    return this.sidesOf.get(address)?.[0]?.pool
  }
  meta(address: Address): PoolMeta | undefined {
    return this.metas.get(address)
  }

  /** The pairs leaving `token`, in the order their first pool arrived (the order paths are enumerated in). */
  neighbours(token: Address): ReadonlyMap<Address, Pair> | undefined {
    return this.pairs.get(token)
  }

  pair(tokenIn: Address, tokenOut: Address): Pair | undefined {
    return this.pairs.get(tokenIn)?.get(tokenOut)
  }

  /** A pair's aggregates, recomputed if a side changed since. */
  aggregates(pair: Pair): Pair {
    if (pair.dirty) {
      pair.all = aggregate(pair.sides)
      const groups = new Map<string, Side[]>()
      for (const s of pair.sides) {
        const g = groups.get(s.protocol)
        if (g) g.push(s)
        else groups.set(s.protocol, [s])
      }
      pair.byProtocol = new Map([...groups].map(([p, sides]) => [p, aggregate(sides)]))
      pair.multi = pair.sides.some(s => s.multi)
      pair.dirty = false
    }
    return pair
  }

  /** The side's curve: kept if it was built lately, built (and kept, evicting the oldest) if not. */
  curve(side: Side): Curve {
    if (side.curve) return side.curve
    const curve = (side.curve = poolCurve(side.pool, side.tokenIn, side.tokenOut))
    this.keep(side)
    return curve
  }

  private keep(side: Side): void {
    this.cached.push(side)
    while (this.cached.length - this.cachedHead > this.curveCapacity) this.cached[this.cachedHead++]!.curve = undefined
    if (this.cachedHead > 4096 && this.cachedHead * 2 > this.cached.length) {
      this.cached.splice(0, this.cachedHead)
      this.cachedHead = 0
    }
  }

  private makeSide(
    pool: PoolState,
    tokenIn: Address,
    tokenOut: Address,
    protocol: string,
    multi: boolean,
    id?: number,
  ): Side {
    const curve = poolCurve(pool, tokenIn, tokenOut)
    const side: Side = {
      id: id ?? this.nextId++,
      pool,
      tokenIn,
      tokenOut,
      protocol,
      bound: curve.bound,
      multi,
      position: 0,
      curve,
    }
    this.keep(side)
    return side
  }

  private pairOf(a: Address, b: Address): Pair {
    let row = this.pairs.get(a)
    if (!row) this.pairs.set(a, (row = new Map()))
    let pair = row.get(b)
    if (!pair) row.set(b, (pair = { sides: [], all: aggregate([]), byProtocol: new Map(), multi: false, dirty: true }))
    return pair
  }
}

export function aggregate(sides: readonly Side[]): Aggregate {
  const agg: Aggregate = { rate: 0, reserve: 0, cap: 0, noise: 0, live: 0 }
  for (const { bound: b } of sides) {
    if (b.rate > agg.rate) agg.rate = b.rate
    if (b.reserve > agg.reserve) agg.reserve = b.reserve
    if (b.cap > agg.cap) agg.cap = b.cap
    if (b.noise > agg.noise) agg.noise = b.noise
    if (b.rate > 0) agg.live++
  }
  return agg
}

/** Several aggregates as one: the best of each field (a slug filter's protocols together). */
export function combine(aggs: Iterable<Aggregate>): Aggregate {
  const agg: Aggregate = { rate: 0, reserve: 0, cap: 0, noise: 0, live: 0 }
  for (const a of aggs) {
    agg.rate = Math.max(agg.rate, a.rate)
    agg.reserve = Math.max(agg.reserve, a.reserve)
    agg.cap = Math.max(agg.cap, a.cap)
    agg.noise = Math.max(agg.noise, a.noise)
    agg.live += a.live
  }
  return agg
}

/** A pool's meta when the engine sent none: the Uniswap protocol of its kind. */
export function defaultMeta(pool: PoolState): PoolMeta {
  switch (pool.kind) {
    case 'v2':
      return { protocol: 'uniswap-v2', poolType: 'v2', fee: pool.feePpm }
    case 'v3':
      return { protocol: 'uniswap-v3', poolType: 'v3', fee: pool.fee }
    case 'stable':
      return { protocol: 'stableswap', poolType: 'stable', fee: Number(pool.fee) / 1e4 } // 1e10 units to pips
  }
}
