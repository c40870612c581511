// One query's view of the route graph: the direct pools from tokenIn to tokenOut, and every middle token m
// with its two pairs (tokenIn -> m, m -> tokenOut), within the query's protocol filter. Built once per search;
// the pruned source (graphSource.ts) ranks paths over it, and it counts what an exhaustive search would see.
import type { Address } from './types.js'
import { combine, type Aggregate, type Pair, type RouteGraph, type Side } from './routeGraph.js'

export interface RouteQuery {
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  maxHops: 1 | 2
  /** protocol slugs to keep; absent or empty keeps every pool */
  slugs?: readonly string[]
}

export interface Mid {
  token: Address
  /** its place among tokenIn's neighbours: the order paths are enumerated in */
  rank: number
  pairA: Pair
  pairB: Pair
  /** the sides of each pair within the filter */
  a: readonly Side[]
  b: readonly Side[]
  /** the best of the first hops' and the second hops' bounds (within the filter) */
  aggA: Aggregate
  aggB: Aggregate
  /** per protocol ('' for all): the trading second hops by zero-size rate, highest first; the pairs' aggregates */
  seconds?: Map<string, readonly Side[]>
  aggs?: Map<string, [Aggregate, Aggregate]>
}

export const NONE: Aggregate = { rate: 0, reserve: 0, cap: 0, noise: 0, live: 0 }
export const isLive = (s: Side) => s.bound.rate > 0

/** Views kept per graph: enough for a venue's pairs in use, small beside the graph. */
const VIEWS_KEPT = 512

export class RouteView {
  /**
   * The view of a query, kept between queries of the same pair (a busy pair is quoted many times between two
   * blocks): good while no pool trading tokenIn or tokenOut changed, since every pair it holds trades one of them.
   */
  static of(graph: RouteGraph, q: RouteQuery): RouteView {
    if (!(q.amountIn > 0n)) return new RouteView(graph, q)
    const key = `${q.tokenIn}>${q.tokenOut}:${q.maxHops}:${q.slugs?.join(',') ?? ''}`
    const versions: [number, number] = [graph.tokenVersion(q.tokenIn), graph.tokenVersion(q.tokenOut)]
    const kept = graph.views.get(key)
    if (kept && kept.versions[0] === versions[0] && kept.versions[1] === versions[1]) return kept.view as RouteView
    const view = new RouteView(graph, q)
    graph.views.delete(key)
    graph.views.set(key, { view, versions })
    if (graph.views.size > VIEWS_KEPT) graph.views.delete(graph.views.keys().next().value!)
    return view
  }

  readonly direct: readonly Side[] = []
  readonly mids: Mid[] = []
  private readonly allow: ReadonlySet<string> | null
  private readonly combined = new Map<Pair, Aggregate>()
  private index: { byProtocol: Map<string, Mid[]>; used: Set<string> } | undefined
  private counted: { paths: number; live: number } | undefined
  private readonly rateBounds = new Map<string, number[]>()

  constructor(
    readonly graph: RouteGraph,
    q: RouteQuery,
  ) {
    this.allow = q.slugs?.length ? new Set(q.slugs) : null
    const keep = (sides: readonly Side[]) => (this.allow ? sides.filter(s => this.allow!.has(s.protocol)) : sides)
    const fromIn = q.tokenIn === q.tokenOut || !(q.amountIn > 0n) ? undefined : graph.neighbours(q.tokenIn)
    if (!fromIn) return
    const direct = fromIn.get(q.tokenOut)
    if (direct) this.direct = keep(direct.sides)
    if (q.maxHops < 2) return
    let rank = 0
    for (const [token, pairA] of fromIn) {
      rank++
      if (token === q.tokenOut) continue
      const pairB = graph.pair(token, q.tokenOut)
      if (!pairB) continue
      const a = keep(pairA.sides),
        b = keep(pairB.sides)
      if (!a.length || !b.length) continue
      const aggA = this.aggregateOf(pairA, null),
        aggB = this.aggregateOf(pairB, null)
      this.mids.push({ token, rank, pairA, pairB, a, b, aggA, aggB })
    }
  }

  allowed(protocol: string): boolean {
    return !this.allow || this.allow.has(protocol)
  }

  /** Every path within maxHops (what an exhaustive search would evaluate), and those whose pools all trade. */
  counts(): { paths: number; live: number } {
    if (this.counted) return this.counted
    let paths = this.direct.length,
      live = 0
    for (const a of this.direct) if (isLive(a)) live++
    for (const m of this.mids) {
      paths += m.a.length * m.b.length
      live += m.aggA.live * m.aggB.live
      // a pool of three coins or more may be on both hops: that is no path
      if (!m.pairA.multi || !m.pairB.multi) continue
      for (const b of m.b) {
        if (!b.multi) continue
        const a = m.a.find(x => x.pool === b.pool)
        if (a) {
          paths--
          if (isLive(a) && isLive(b)) live--
        }
      }
    }
    return (this.counted = { paths, live })
  }

  /** A middle token's trading second hops (of `protocol`, or all), highest zero-size rate first. */
  seconds(m: Mid, protocol: string | null): readonly Side[] {
    const id = protocol ?? ''
    let list = (m.seconds ??= new Map()).get(id)
    if (!list) {
      list = m.b
        .filter(s => isLive(s) && (protocol === null || s.protocol === protocol))
        .sort((x, y) => y.bound.rate - x.bound.rate)
      m.seconds.set(id, list)
    }
    return list
  }

  /** The best bounds of a middle token's first and second hops (of `protocol`, or all). */
  aggregates(m: Mid, protocol: string | null): [Aggregate, Aggregate] {
    if (protocol === null) return [m.aggA, m.aggB]
    let pair = (m.aggs ??= new Map()).get(protocol)
    if (!pair) {
      pair = [this.aggregateOf(m.pairA, protocol), this.aggregateOf(m.pairB, protocol)]
      m.aggs.set(protocol, pair)
    }
    return pair
  }

  /** The middle tokens (of `protocol`'s paths, or all) and the highest zero-size rate of a path through each. */
  rateOrder(protocol: string | null): { mids: readonly Mid[]; bounds: number[] } {
    const mids = protocol === null ? this.mids : this.midsOf(protocol)
    let bounds = this.rateBounds.get(protocol ?? '')
    if (!bounds) {
      bounds = mids.map(m => {
        const [a, b] = this.aggregates(m, protocol)
        return a.live && b.live ? a.rate * b.rate : -1
      })
      this.rateBounds.set(protocol ?? '', bounds)
    }
    return { mids, bounds }
  }

  /** The middle tokens with trading pools of `protocol` on both hops. */
  midsOf(protocol: string): readonly Mid[] {
    return this.protocolIndex().byProtocol.get(protocol) ?? []
  }

  /** Per protocol, the middle tokens it trades on both hops; and every protocol trading on a middle token's paths. */
  protocolIndex(): { byProtocol: Map<string, Mid[]>; used: Set<string> } {
    if (this.index) return this.index
    const byProtocol = new Map<string, Mid[]>(),
      used = new Set<string>()
    for (const m of this.mids) {
      if (!m.aggA.live || !m.aggB.live) continue
      const pb = this.graph.aggregates(m.pairB).byProtocol
      for (const [p, agg] of this.graph.aggregates(m.pairA).byProtocol) {
        if (!agg.live || !this.allowed(p)) continue
        used.add(p)
        if (!pb.get(p)?.live) continue
        const list = byProtocol.get(p)
        if (list) list.push(m)
        else byProtocol.set(p, [m])
      }
      for (const [p, agg] of pb) if (agg.live && this.allowed(p)) used.add(p)
    }
    return (this.index = { byProtocol, used })
  }

  /** The best bounds of a pair's sides of `protocol` (or of every allowed protocol). */
  aggregateOf(pair: Pair, protocol: string | null): Aggregate {
    const p = this.graph.aggregates(pair)
    if (protocol !== null) return this.allowed(protocol) ? (p.byProtocol.get(protocol) ?? NONE) : NONE
    if (!this.allow) return p.all
    let agg = this.combined.get(pair)
    if (!agg) {
      agg = combine([...p.byProtocol].filter(([s]) => this.allow!.has(s)).map(([, a]) => a))
      this.combined.set(pair, agg)
    }
    return agg
  }
}
