// The pruned candidate source. It answers the split optimiser's questions (candidates.ts) with the same
// candidates, in the same order, as looking at every path would, but evaluates only what could be among them.
//
// Paths from tokenIn to tokenOut are the direct pools, and for every middle token m the pairs (a, b) of a pool
// a: tokenIn -> m and a pool b: m -> tokenOut. A question is "the n best by some measure" (output at the whole
// input or at a quarter of it, zero-size rate), with a floor and pools to avoid. The answer keeps a threshold,
// the n-th best value found so far, and skips:
//   - a middle token whose pairs' combined bounds (routeGraph.ts) cannot reach the threshold;
//   - a pool b whose bound, fed the best its first hops can pay, cannot reach it;
//   - for one b, the first hops after the first that falls short: they are taken best first, and a path's
//     value falls with what its first hop pays (the output of b rises with its input; the rate is a product).
// Bounds are widened by SLACK (and by the curve's float noise) so a rounding error never prunes a path that
// belongs. Middle tokens are taken best bound first, so the threshold rises fast.
import type { Address } from './types.js'
import type { Path } from './graph.js'
import { boundOut, chain } from './path.js'
import type { RouteGraph, Side } from './routeGraph.js'
import { isLive, RouteView, type Mid, type RouteQuery } from './routeView.js'
import type { Candidate, CandidateSource, Measure } from './candidates.js'
import { LazyOrder, MinHeap } from './lazyOrder.js'
import { deadlineCheck, type RouteSource } from './routeSource.js'

export type { RouteQuery }

/** Relative widening of every bound before it prunes: far above float error, far below any real difference. */
const SLACK = 1e-9
const POS_SPAN = 2 ** 17         // pools per pair in a path's enumeration order
const RANK_SPAN = POS_SPAN * POS_SPAN

interface FirstHops { sides: readonly Side[]; order: LazyOrder }

/** A path looked at: its values are computed once each. */
interface PathRef {
  order: number; a: Side; b: Side | null; mid: Address | null
  final?: number; quarter?: number; index?: number
}

export function graphSource(graph: RouteGraph, q: RouteQuery, deadline = Infinity): RouteSource {
  return new GraphSource(graph, q, deadline)
}

class GraphSource implements RouteSource {
  readonly list: Candidate[] = []
  readonly total: number
  private readonly refs: PathRef[] = []
  private readonly paths = new Map<number, Map<number, PathRef>>()   // first hop's side id -> second's id + 1 (0: none)
  private readonly yAt = { final: new Map<number, number>(), quarter: new Map<number, number>() }
  private readonly view: RouteView
  private readonly orders = new Map<string, { mids: readonly Mid[]; order: LazyOrder }>()
  private readonly rankings = new Map<string, { list: PathRef[]; complete: boolean }>()
  private readonly firsts = new Map<Mid, Map<string, FirstHops>>()
  private readonly tick: () => void

  constructor(private readonly graph: RouteGraph, private readonly q: RouteQuery, deadline: number) {
    this.total = Number(q.amountIn)
    this.tick = deadlineCheck(deadline)
    this.view = RouteView.of(graph, q)
  }

  get work() {
    let considered = 0, viable = 0
    for (const row of this.paths.values()) {
      for (const p of row.values()) { considered++; if (p.final !== undefined && p.final > 0) viable++ }
    }
    return { considered, viable }
  }

  top(measure: Measure, n: number): number[] { return this.best(measure, null, n) }
  value(measure: Measure, i: number): number { return this.valueOf(measure, this.refs[i]!) }
  options(minRate: number, used: ReadonlySet<Address>, n: number): number[] {
    return this.growth(null, minRate, used, n)
  }

  /** The same questions over the paths that use `protocol` alone (the per-protocol alternatives). */
  forProtocol(protocol: string): CandidateSource {
    const self = this
    return {
      list: this.list, total: this.total,
      top: (measure, n) => this.best(measure, protocol, n),
      value: (measure, i) => this.value(measure, i),
      options: (minRate, used, n) => this.growth(protocol, minRate, used, n),
      get work() { return self.work },
    }
  }

  /** Protocols some path uses alone, by name; and the one every trading path uses, when there is one. */
  counts(): { paths: number; live: number } { return this.view.counts() }

  protocols(): { alone: string[]; only: string | null } {
    const alone = new Set<string>(), any = new Set<string>()
    for (const a of this.view.direct) {
      if (!isLive(a)) continue
      any.add(a.protocol)
      if (this.final(this.ref(a, null, null)) > 0) alone.add(a.protocol)
    }
    const { byProtocol, used } = this.view.protocolIndex()
    for (const p of byProtocol.keys()) alone.add(p)
    for (const p of used) any.add(p)
    return { alone: [...alone].sort(), only: any.size === 1 ? [...any][0]! : null }
  }

  private best(measure: Measure, protocol: string | null, n: number): number[] {
    return this.ranking(measure, protocol, n).list.slice(0, n).map(p => this.materialise(p))
  }

  /**
   * Growth's options: the n best viable paths by rate above minRate using no pool of `used`. Read off the
   * ranking by rate, extended until n are found, the rates fall to minRate, or no path is left: one
   * ranking serves every round of growth.
   */
  private growth(protocol: string | null, minRate: number, used: ReadonlySet<Address>, n: number): number[] {
    for (let need = 4 * n; ; need *= 4) {
      const { list, complete } = this.ranking('rate0', protocol, need)
      const found: number[] = []
      for (const p of list) {
        if (!(this.valueOf('rate0', p) > minRate)) return found
        if (used.has(p.a.pool.address) || (p.b && used.has(p.b.pool.address))) continue
        found.push(this.materialise(p))
        if (found.length === n) return found
      }
      if (complete) return found
    }
  }

  /** The best viable paths by `measure` (of `protocol` alone, or all), at least `need` of them unless fewer exist. */
  private ranking(measure: Measure, protocol: string | null, need: number): { list: PathRef[]; complete: boolean } {
    const id = protocol === null ? measure : `${measure}:${protocol}`
    const known = this.rankings.get(id)
    if (known && (known.complete || known.list.length >= need)) return known
    const n = Math.max(need, 2 * (known?.list.length ?? 0), 24)
    const list = this.collect(measure, n, protocol)
    const ranked = { list, complete: list.length < n }
    this.rankings.set(id, ranked)
    return ranked
  }

  /**
   * The n best viable paths by `measure` with a positive value, of `protocol` alone (or any): best first, equal
   * values in enumeration order. Ranking by quarter or rate, a path's viability (output at amountIn) is checked
   * only for the n it returns (`strict` false): almost always they are all viable, and then no viable path
   * was missed, since every other path taken was at least as good; if one is not, it runs again strictly.
   */
  private collect(measure: Measure, n: number, protocol: string | null, strict = measure === 'final'): PathRef[] {
    const picked: PathRef[] = [], best = new MinHeap()
    const ok = (s: Side) => protocol === null || s.protocol === protocol
    // a value (or a bound, widened) below this cannot be among the n best
    const short = (v: number) => { const w = v * (1 + SLACK); return !(w > 0) || (best.size >= n && w < best.min) }
    const consider = (p: PathRef) => {
      const v = this.valueOf(measure, p)
      if (!(v > 0) || (best.size >= n && v < best.min) || (strict && !(this.final(p) > 0))) return
      picked.push(p)
      best.push(v)
      if (best.size > n) best.pop()
    }
    if (n <= 0) return []
    for (const a of this.view.direct) if (ok(a)) consider(this.ref(a, null, null))
    const { mids, order } = this.midOrder(measure, protocol)
    for (let k = 0; k < order.length; k++) {
      const i = order.at(k)
      if (short(order.value(i))) break
      this.expand(mids[i]!, measure, protocol, short, consider)
    }
    picked.sort((x, y) => this.valueOf(measure, y) - this.valueOf(measure, x) || x.order - y.order)
    const found = picked.slice(0, n)
    return strict || found.every(p => this.final(p) > 0) ? found : this.collect(measure, n, protocol, true)
  }

  /** The paths through one middle token that can still be among the best, each b's first hops best first. */
  private expand(m: Mid, measure: Measure, protocol: string | null, short: (v: number) => boolean,
    consider: (p: PathRef) => void): void {
    const { sides, order } = this.firstHops(m, measure, protocol)
    if (order.length === 0) return
    const topKey = order.value(order.at(0))
    // second hops by zero-size rate, highest first: once even rate * (best first-hop key) + the pair's noise is
    // short, every later one is too (a curve's output never beats its rate times its input, plus noise)
    const noiseB = measure === 'rate0' ? 0 : this.view.aggregates(m, protocol)[1].noise
    for (const b of this.view.seconds(m, protocol)) {
      if (short(b.bound.rate * topKey + noiseB)) break
      if (measure !== 'rate0' && short(boundOut(b.bound, topKey))) continue
      const noise = measure === 'rate0' ? 0 : 2 * b.bound.noise
      for (let k = 0; k < order.length; k++) {
        const a = sides[order.at(k)]!
        if (a.pool === b.pool) continue
        const p = this.ref(a, b, m)
        if (short(this.valueOf(measure, p) + noise)) break
        consider(p)
      }
    }
  }

  /**
   * A middle token's trading first hops (of `protocol`, or all), to be taken best first by what they pass on (their
   * output at the measure's input, or their zero-size rate): sorted only as far as the second hops ask (most
   * stop after the first), and an output evaluated only once its bound is at the top.
   */
  private firstHops(m: Mid, measure: Measure, protocol: string | null): FirstHops {
    const id = protocol === null ? measure : `${measure}:${protocol}`
    let byId = this.firsts.get(m)
    if (!byId) this.firsts.set(m, byId = new Map())
    let found = byId.get(id)
    if (!found) {
      const sides = m.a.filter(s => isLive(s) && (protocol === null || s.protocol === protocol))
      if (measure === 'rate0') found = { sides, order: new LazyOrder(sides.map(s => s.bound.rate)) }
      else {
        const x = measure === 'quarter' ? this.total / 4 : this.total
        const bounds = sides.map(s => boundOut(s.bound, x) * (1 + SLACK))
        found = { sides, order: new LazyOrder(bounds, i => this.y(sides[i]!, measure)) }
      }
      byId.set(id, found)
    }
    return found
  }

  /**
   * Middle tokens (of those some path of `protocol` alone crosses) by the bound of their best path: once per
   * measure and protocol.
   */
  private midOrder(measure: Measure, protocol: string | null): { mids: readonly Mid[]; order: LazyOrder } {
    const id = protocol === null ? measure : `${measure}:${protocol}`
    let found = this.orders.get(id)
    if (!found) {
      const x = measure === 'quarter' ? this.total / 4 : this.total
      if (measure === 'rate0') {
        const { mids, bounds } = this.view.rateOrder(protocol)
        found = { mids, order: new LazyOrder(bounds) }
      } else {
        const mids = protocol === null ? this.view.mids : this.view.midsOf(protocol)
        found = { mids, order: new LazyOrder(mids.map(m => {
          const [a, b] = this.view.aggregates(m, protocol)
          return a.live && b.live ? boundOut(b, boundOut(a, x)) : -1
        })) }
      }
      this.orders.set(id, found)
    }
    return found
  }

  private ref(a: Side, b: Side | null, mid: Mid | null): PathRef {
    let row = this.paths.get(a.id)
    if (!row) this.paths.set(a.id, row = new Map())
    const second = b ? b.id + 1 : 0
    let p = row.get(second)
    if (!p) {
      const order = (mid ? mid.rank : 0) * RANK_SPAN + a.position * POS_SPAN + (b ? b.position : 0)
      row.set(second, p = { a, b, mid: mid ? mid.token : null, order })
    }
    return p
  }

  private valueOf(measure: Measure, p: PathRef): number {
    switch (measure) {
      case 'final': return this.final(p)
      case 'quarter': return p.quarter ??= this.through(p, 'quarter')
      // the chain rule at zero: the second hop's rate at what the first pays for nothing (0), times the first's
      case 'rate0': return p.b ? p.b.bound.rate * p.a.bound.rate : p.a.bound.rate
    }
  }

  private final(p: PathRef): number { return p.final ??= this.through(p, 'final') }

  private through(p: PathRef, measure: 'final' | 'quarter'): number {
    const y = this.y(p.a, measure)
    if (!p.b) return y
    this.tick()
    return this.graph.curve(p.b).out(y)
  }

  /** What a first hop pays for the whole input, or for a quarter of it. */
  private y(a: Side, measure: 'final' | 'quarter'): number {
    const memo = this.yAt[measure]
    let y = memo.get(a.id)
    if (y === undefined) {
      this.tick()
      memo.set(a.id, y = this.graph.curve(a).out(measure === 'final' ? this.total : this.total / 4))
    }
    return y
  }

  private materialise(p: PathRef): number {
    if (p.index !== undefined) return p.index
    const { tokenIn, tokenOut } = this.q
    const hops = p.b
      ? [{ pool: p.a.pool, tokenIn, tokenOut: p.mid! }, { pool: p.b.pool, tokenIn: p.mid!, tokenOut }]
      : [{ pool: p.a.pool, tokenIn, tokenOut }]
    const tokens = p.b ? [tokenIn, p.mid!, tokenOut] : [tokenIn, tokenOut]
    const path: Path = { tokens, hops, key: hops.map(h => h.pool.address).join('>') }
    const curve = p.b ? chain(this.graph.curve(p.a), this.graph.curve(p.b)) : this.graph.curve(p.a)
    this.list.push({ path, curve, pools: hops.map(h => h.pool.address) })
    this.refs.push(p)
    return p.index = this.list.length - 1
  }
}

