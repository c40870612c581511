// The whole route search for one quote: every 1- and 2-hop path over the given pools, the best
// split over up to maxSplit pool-disjoint routes, price impact, the best outcome per protocol, and
// why the answer won. Pure: pool state in, exact bigint amounts out.
//
// maxRoutes, as read here: the most routes the answer may name, so a split uses at most
// min(maxSplit, maxRoutes) routes. It never shortens the search: every path is a candidate.
import type { Address, PoolState } from './types.js'
import { enumeratePaths, pathPools, type Path } from './graph.js'
import { pathCurve, type CurveCache } from './path.js'
import { optimiseSplit, type Candidate, type Split, type SplitReport } from './split.js'

export type PoolType = 'v2' | 'v3' | 'stable'
export interface PoolMeta { protocol: string /* slug */; poolType: PoolType; fee: number }

export interface FindRouteInput {
  pools: PoolState[]
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  maxHops: 1 | 2
  maxRoutes: number
  maxSplit: number
  /** protocol slugs to keep; absent or empty keeps every pool */
  slugs?: string[]
  poolMeta: Record<string, PoolMeta>
}

export interface RoutePool { address: Address; protocol: string; poolType: PoolType; fee: number }
export interface FoundRoute { path: Address[]; pools: RoutePool[]; hops: number; amountIn: bigint; amountOut: bigint; fractionPct: number }
export interface Alternative { protocol: string; amountOut: bigint; diffBps: number }

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
}

export interface RouteResult {
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
  routes: FoundRoute[]
  candidatesConsidered: number
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

export function findRoute(input: FindRouteInput): RouteResult {
  const { tokenIn, tokenOut, amountIn, poolMeta } = input
  const maxHops: 1 | 2 = input.maxHops === 1 ? 1 : 2
  const maxSplit = Math.max(1, Math.min(Math.floor(input.maxSplit) || 1, Math.floor(input.maxRoutes) || 1))
  const meta = (pool: PoolState): PoolMeta => poolMeta[pool.address] ?? defaultMeta(pool)
  const slugs = input.slugs?.length ? new Set(input.slugs) : null
  const pools = slugs ? input.pools.filter(p => slugs.has(meta(p).protocol)) : input.pools

  const paths = enumeratePaths(pools, tokenIn, tokenOut, maxHops)
  const cache: CurveCache = new Map()
  const total = Number(amountIn)
  const candidates: Candidate[] = [], finals: number[] = []
  if (amountIn > 0n) for (const path of paths) {
    const curve = pathCurve(path, cache), out = curve.out(total)
    if (out > 0) { candidates.push({ path, curve, pools: pathPools(path) }); finals.push(out) }
  }
  const report = optimiseSplit(candidates, amountIn, maxSplit, { finals })
  const best = report.best
  const warnings: string[] = []
  if (paths.length === 0) warnings.push(NO_ROUTE_WARNING)
  else if (best.amountOut === 0n) warnings.push(NO_FILL_WARNING)

  const routes = best.routes.map(r => describe(r.path, r.amountIn, r.amountOut, amountIn, meta))
  return {
    tokenIn, tokenOut, amountIn, amountOut: best.amountOut, routes,
    candidatesConsidered: paths.length,
    viableRoutes: candidates.length,
    isSplit: routes.length > 1,
    priceImpactBps: priceImpact(best, cache),
    alternatives: best.amountOut > 0n ? alternatives(candidates, finals, amountIn, maxSplit, best.amountOut, meta) : [],
    explain: explain(report, amountIn),
    warnings,
  }
}

function defaultMeta(pool: PoolState): PoolMeta {
  switch (pool.kind) {
    case 'v2': return { protocol: 'uniswap-v2', poolType: 'v2', fee: pool.feePpm }
    case 'v3': return { protocol: 'uniswap-v3', poolType: 'v3', fee: pool.fee }
    case 'stable': return { protocol: 'stableswap', poolType: 'stable', fee: Number(pool.fee) / 1e4 } // 1e10 units to pips
  }
}

function describe(path: Path, legIn: bigint, legOut: bigint, amountIn: bigint, meta: (p: PoolState) => PoolMeta): FoundRoute {
  return {
    path: path.tokens,
    pools: path.hops.map(h => { const m = meta(h.pool); return { address: h.pool.address, protocol: m.protocol, poolType: m.poolType, fee: m.fee } }),
    hops: path.hops.length,
    amountIn: legIn,
    amountOut: legOut,
    fractionPct: Number((legIn * 10_000n) / amountIn) / 100,
  }
}

// Against the zero-size marginal rate of the chosen routes: what each leg would get if its
// whole input traded at its route's spot rate (fees included), versus what it gets.
function priceImpact(best: Split, cache: CurveCache): number {
  if (best.amountOut === 0n) return 0
  let spot = 0
  for (const r of best.routes) spot += Number(r.amountIn) * pathCurve(r.path, cache).rate(0)
  if (!(spot > 0)) return 0
  return Math.max(0, round2((1 - Number(best.amountOut) / spot) * 10_000))
}

// The best outcome using one protocol's pools only (splits allowed), one entry per protocol seen.
function alternatives(candidates: readonly Candidate[], finals: readonly number[], amountIn: bigint, maxSplit: number, bestOut: bigint,
  meta: (p: PoolState) => PoolMeta): Alternative[] {
  const byProtocol = new Map<string, number[]>()
  candidates.forEach((c, i) => {
    const protocols = new Set(c.path.hops.map(h => meta(h.pool).protocol))
    if (protocols.size !== 1) return
    const [protocol] = protocols as unknown as [string]
    let list = byProtocol.get(protocol)
    if (!list) byProtocol.set(protocol, list = [])
    list.push(i)
  })
  const found: Alternative[] = []
  for (const [protocol, list] of byProtocol) {
    const out = list.length === candidates.length ? bestOut : optimiseSplit(list.map(i => candidates[i]!), amountIn, maxSplit, { finals: list.map(i => finals[i]!), light: true }).best.amountOut
    found.push({ protocol, amountOut: out, diffBps: diffBps(out, bestOut) })
  }
  return found.sort((a, b) => b.diffBps - a.diffBps)
}

/** (a / b - 1) in bps, computed on the integers so large amounts keep their precision. */
export function diffBps(a: bigint, b: bigint): number {
  if (b === 0n) return 0
  return Number(((a - b) * 100_000_000n) / b) / 10_000
}

function explain(report: SplitReport, amountIn: bigint): RouteExplain {
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
    text = `Split ${shares.join(' / ')} over ${best.routes.length} pool-disjoint routes, chosen so every route trades at the same marginal rate (${report.lambda.toPrecision(6)} out per unit in): moving any input between routes would lose output. `
      + `${vsSingle} bps over the best single route and ${vsStep} bps over the best 5%-step split`
      + (report.winner === 'step' ? ' (the 5%-step split itself was already the best exact outcome).' : '.')
  return {
    text,
    winner: report.winner,
    marginalRate: report.lambda,
    bestSingle: single ? { path: single.path.tokens, pools: pathPools(single.path), amountOut: single.amountOut } : null,
    stepSplit: { amountOut: stepSplit.amountOut, fractionsPct: stepSplit.routes.map(r => Number((r.amountIn * 10_000n) / (amountIn || 1n)) / 100) },
    gainBpsVsSingle: vsSingle,
    gainBpsVsStepSplit: vsStep,
    routeSetsTried: report.setsTried,
    polishMoves: report.polishMoves,
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100
