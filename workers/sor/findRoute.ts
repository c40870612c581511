// The whole route search for one quote: the paths of 1 and 2 hops, the best split over up to maxSplit
// pool-disjoint routes, price impact, the best outcome per protocol, and why the answer won. Pure: pool state
// in, exact bigint amounts out. The candidates come from a source that looks only at what can be among the
// best (graphSource.ts); the exhaustive one (exhaustive.ts) gives the same answer and is the tests' reference.
//
// maxRoutes, as read here: the most routes the answer may name, so a split uses at most
// min(maxSplit, maxRoutes) routes. It never shortens the search.
import type { Address, PoolMeta, PoolState, PoolType } from './types.js'
import { pathPools, type Path } from './graph.js'
import type { Curve } from './path.js'
import { optimiseSplit, type Split, type SplitReport } from './split.js'
import { RouteGraph, defaultMeta } from './routeGraph.js'
import { graphSource, type RouteQuery } from './graphSource.js'
import { exhaustiveSource } from './exhaustive.js'
import type { RouteSource } from './routeSource.js'

export type { PoolMeta, PoolType, RouteQuery }

export interface FindRouteInput {
  pools: PoolState[]
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  maxHops: 1 | 2
  maxRoutes: number
  maxSplit: number
  /** protocol slugs to keep; absent or empty keeps every pool */
  slugs?: readonly string[]
  poolMeta: Record<string, PoolMeta>
}

/** One search on a graph the caller keeps (the route threads keep theirs between quotes). */
export interface RouteSearch extends RouteQuery {
  maxRoutes: number
  maxSplit: number
}

export interface RoutePool {
  address: Address
  protocol: string
  poolType: PoolType
  fee: number
}
export interface FoundRoute {
  path: Address[]
  pools: RoutePool[]
  hops: number
  amountIn: bigint
  amountOut: bigint
  fractionPct: number
}
export interface Alternative {
  protocol: string
  amountOut: bigint
  diffBps: number
}

export interface RouteExplain {
  text: string
  /** 'marginal': the equal-marginal-rate split won; 'single' or 'step': that floor was already best */
  winner: SplitReport['winner']
  marginalRate: number
  bestSingle: { path: Address[]; pools: Address[]; amountOut: bigint } | null
  stepSplit: { amountOut: bigint; fractionsPct: number[] }
  gainBpsVsSingle: number
  gainBpsVsStepSplit: number
  routeSetsTried: number
  polishMoves: number
  /** every path of up to maxHops the graph holds: what a search looking at all of them would evaluate */
  candidatePaths: number
}

export interface RouteResult {
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
  routes: FoundRoute[]
  /** paths whose output the search computed: the work it really did (explain.candidatePaths is all of them) */
  candidatesConsidered: number
  /** paths within maxHops whose pools all trade (a positive zero-size rate), counted without evaluating them */
  viableRoutes: number
  isSplit: boolean
  priceImpactBps: number
  alternatives: Alternative[]
  explain: RouteExplain
  warnings: string[]
}

export const NO_ROUTE_WARNING =
  'No route found between tokenIn and tokenOut within maxHops. A common cause is missing pool state: refresh pool state (POST /api/v1/sor/pool-state/refresh) and retry.'
export const NO_FILL_WARNING =
  'No route found: the connecting pools cannot fill any of amountIn. Their state may be stale or empty: refresh pool state (POST /api/v1/sor/pool-state/refresh) and retry.'

/** The route search over a list of pools: the graph is built for this one search. */
export function findRoute(input: FindRouteInput, deadline = Infinity): RouteResult {
  return searchRoute(RouteGraph.from(input.pools, input.poolMeta), searchOf(input), deadline)
}

/** The search on a graph kept between searches; past `deadline` (epoch ms) it throws SearchDeadline. */
export function searchRoute(graph: RouteGraph, s: RouteSearch, deadline = Infinity): RouteResult {
  const meta = (pool: PoolState): PoolMeta => graph.meta(pool.address) ?? defaultMeta(pool)
  return routeResult(graphSource(graph, s, deadline), s, meta)
}

/** The same search looking at every path: the reference the pruned one is held to. */
export function findRouteExhaustive(input: FindRouteInput): RouteResult {
  const graph = RouteGraph.from(input.pools, input.poolMeta)
  const meta = (pool: PoolState): PoolMeta => graph.meta(pool.address)!
  return routeResult(exhaustiveSource(input.pools, searchOf(input), meta), searchOf(input), meta)
}

function searchOf(input: FindRouteInput): RouteSearch {
  const { tokenIn, tokenOut, amountIn, maxRoutes, maxSplit, slugs } = input
  const maxHops = input.maxHops === 1 ? 1 : 2
  return { tokenIn, tokenOut, amountIn, maxHops, maxRoutes, maxSplit, ...(slugs?.length ? { slugs } : {}) }
}

function routeResult(source: RouteSource, s: RouteSearch, meta: (pool: PoolState) => PoolMeta): RouteResult {
  const { tokenIn, tokenOut, amountIn } = s
  const maxSplit = Math.max(1, Math.min(Math.floor(s.maxSplit) || 1, Math.floor(s.maxRoutes) || 1))
  const report = optimiseSplit(source, amountIn, maxSplit)
  const best = report.best
  const counts = source.counts()
  const warnings: string[] = []
  if (counts.paths === 0) warnings.push(NO_ROUTE_WARNING)
  else if (best.amountOut === 0n) warnings.push(NO_FILL_WARNING)

  const routes = best.routes.map(r => describe(r.path, r.amountIn, r.amountOut, amountIn, meta))
  const curves = new Map(source.list.map(c => [c.path, c.curve]))
  const found = best.amountOut > 0n ? alternatives(source, amountIn, maxSplit, best.amountOut) : []
  return {
    tokenIn,
    tokenOut,
    amountIn,
    amountOut: best.amountOut,
    routes,
    candidatesConsidered: source.work.considered,
    viableRoutes: counts.live,
    isSplit: routes.length > 1,
    priceImpactBps: priceImpact(best, curves),
    alternatives: found,
    explain: { ...explain(report, amountIn), candidatePaths: counts.paths },
    warnings,
  }
}

function describe(
  path: Path,
  legIn: bigint,
  legOut: bigint,
  amountIn: bigint,
  meta: (p: PoolState) => PoolMeta,
): FoundRoute {
  return {
    path: path.tokens,
    pools: path.hops.map(h => {
      const m = meta(h.pool)
      return { address: h.pool.address, protocol: m.protocol, poolType: m.poolType, fee: m.fee }
    }),
    hops: path.hops.length,
    amountIn: legIn,
    amountOut: legOut,
    fractionPct: Number((legIn * 10_000n) / amountIn) / 100,
  }
}

// Against the zero-size marginal rate of the chosen routes: what each leg would get if its
// whole input traded at its route's spot rate (fees included), versus what it gets.
function priceImpact(best: Split, curves: ReadonlyMap<Path, Curve>): number {
  if (best.amountOut === 0n) return 0
  let spot = 0
  for (const r of best.routes) spot += Number(r.amountIn) * curves.get(r.path)!.rate(0)
  if (!(spot > 0)) return 0
  return Math.max(0, round2((1 - Number(best.amountOut) / spot) * 10_000))
}

// The best outcome using one protocol's pools only (splits allowed), one entry per protocol some route uses
// alone; equal gaps in protocol order.
function alternatives(source: RouteSource, amountIn: bigint, maxSplit: number, bestOut: bigint): Alternative[] {
  const { alone, only } = source.protocols()
  const found: Alternative[] = []
  for (const protocol of alone) {
    let out = bestOut
    if (protocol !== only) {
      const sub = source.forProtocol(protocol)
      if (sub.top('final', 1).length === 0) continue
      out = optimiseSplit(sub, amountIn, maxSplit, { light: true }).best.amountOut
    }
    found.push({ protocol, amountOut: out, diffBps: diffBps(out, bestOut) })
  }
  return found.sort((a, b) => b.diffBps - a.diffBps)
}

/** (a / b - 1) in bps, computed on the integers so large amounts keep their precision. */
export function diffBps(a: bigint, b: bigint): number {
  if (b === 0n) return 0
  return Number(((a - b) * 100_000_000n) / b) / 10_000
}

function explain(report: SplitReport, amountIn: bigint): Omit<RouteExplain, 'candidatePaths'> {
  const { best, bestSingle, stepSplit } = report
  const single = bestSingle.routes[0]
  const vsSingle = diffBps(best.amountOut, bestSingle.amountOut)
  const vsStep = diffBps(best.amountOut, stepSplit.amountOut)
  const shares = best.routes.map(r => `${(Number((r.amountIn * 10_000n) / (amountIn || 1n)) / 100).toFixed(2)}%`)
  let text: string
  if (best.amountOut === 0n) text = 'No route can fill the input.'
  else if (best.routes.length === 1 && report.winner !== 'marginal')
    text = `A single route is best: splitting does not pay here (no pool-disjoint route has a better zero-size rate than the best route's rate at full size, net of price impact). It beats the 5%-step split by ${vsStep} bps.`
  else if (best.routes.length === 1)
    text = `A single route is best: the marginal-rate search found no second pool-disjoint route worth any share of the input; ${vsStep} bps over the 5%-step split.`
  else
    text =
      `Split ${shares.join(' / ')} over ${best.routes.length} pool-disjoint routes, chosen so every route trades at the same marginal rate (${report.lambda.toPrecision(6)} out per unit in): moving any input between routes would lose output. ` +
      `${vsSingle} bps over the best single route and ${vsStep} bps over the best 5%-step split` +
      (report.winner === 'step' ? ' (the 5%-step split itself was already the best exact outcome).' : '.')
  return {
    text,
    winner: report.winner,
    marginalRate: report.lambda,
    bestSingle: single
      ? { path: single.path.tokens, pools: pathPools(single.path), amountOut: single.amountOut }
      : null,
    stepSplit: {
      amountOut: stepSplit.amountOut,
      fractionsPct: stepSplit.routes.map(r => Number((r.amountIn * 10_000n) / (amountIn || 1n)) / 100),
    },
    gainBpsVsSingle: vsSingle,
    gainBpsVsStepSplit: vsStep,
    routeSetsTried: report.setsTried,
    polishMoves: report.polishMoves,
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100
