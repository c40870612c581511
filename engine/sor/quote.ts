// One quote: resolve both tokens, pick the pools that can be on a path, run the route search on the
// worker pool, and shape the spec's "Route finder quote" object around its result.
import type { Config } from '../config.js'
import type { Sql } from '../store/db.js'
import type { WorkerPool } from '../pool/workerPool.js'
import type { Protocol } from '../store/sor.js'
import { tokensByAddresses, type Token } from '../store/tokens.js'
import type { Address, PoolState } from '../../workers/sor/types.js'
import type { Alternative, FindRouteInput, FoundRoute, RouteExplain, RouteResult } from '../../workers/sor/findRoute.js'
import { simulateExactIn } from '../../workers/sor/pool.js'
import { swap as v3Swap } from '../../workers/sor/v3/swap.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../workers/sor/v3/tickMath.js'
import type { PoolGraph } from './poolGraph.js'
import type { QuoteParams } from './quoteParams.js'
import { fail } from './errors.js'

export const REFRESH_ADVICE = 'refresh pool state first via POST /api/v1/sor/pool-state/refresh'
export const HIGH_IMPACT_BPS = 100

export interface FeeItem {
  pool: Address
  protocol: string
  poolType: string
  /** the pool's fee in bps (pips / 100) */
  feeBps: number
  /** the token the LP fee is charged in: the hop's input (v2, v3) or output (stable) */
  token: Address
  /** LP fee paid on this hop, estimated from the quoted amounts (raw units of `token`) */
  amount: bigint
}

export interface SorQuote {
  meta: { timestamp: string; asOfBlock: string; computeTimeMs: number; candidatesConsidered: number; viableRoutes: number; isSplit: boolean }
  summary: { tokenIn: Address; tokenInSymbol: string | null; tokenOut: Address; tokenOutSymbol: string | null; amountIn: bigint; amountOut: bigint; effectivePrice: number; priceImpactBps: number }
  routes: FoundRoute[]
  alternatives: Alternative[]
  warnings: string[]
  fees: FeeItem[]
  explain?: RouteExplain
}

export interface QuoteDeps {
  graph: PoolGraph; sql: Sql; pool: WorkerPool; config: Config; protocols: () => Protocol[]
  /** loads more words of a V3 pool on the side a swap walked off; false when there is nothing more (service.ts) */
  extendV3?: (address: Address, zeroForOne: boolean) => Promise<boolean>
}

/** rounds of loading more V3 words: the width doubles each time, so 12 reach the tick range's end at any spacing */
const MAX_EXTEND_ROUNDS = 12

export async function quote(d: QuoteDeps, p: QuoteParams): Promise<SorQuote> {
  const started = performance.now()
  const { graph, config } = d
  const tokenIn = p.tokenIn.toLowerCase() as Address, tokenOut = p.tokenOut.toLowerCase() as Address
  const maxHops = p.maxHops ?? 2, maxRoutes = p.maxRoutes ?? 5, maxSplit = p.maxSplit ?? 4
  const warnings: string[] = []

  const known = new Map((await tokensByAddresses(d.sql, config.CHAIN_ID, [tokenIn, tokenOut])).map(t => [t.address, t]))
  const tokenInfo = (address: Address, given: string): Token | null => {
    const t = known.get(address)
    if (t) return t
    if (!graph.hasToken(address)) throw fail({ code: 'TOKEN_NOT_FOUND', given })
    warnings.push(`Token ${address} is in a tracked pool but not in the token registry: its symbol is unknown and 18 decimals are assumed for effectivePrice.`)
    return null
  }
  const infoIn = tokenInfo(tokenIn, p.given?.tokenIn ?? p.tokenIn)
  const infoOut = tokenInfo(tokenOut, p.given?.tokenOut ?? p.tokenOut)

  const slugSet = p.slugs?.length ? new Set(p.slugs) : null
  if (slugSet) {
    const registered = new Set(d.protocols().map(x => x.slug))
    const unknown = [...slugSet].filter(s => !registered.has(s))
    if (unknown.length) warnings.push(`Unknown protocol slug(s): ${unknown.join(', ')}. GET /api/v1/sor/protocols lists them.`)
  }

  const pools = graph.relevant(tokenIn, tokenOut, maxHops, slugSet)
  let result: RouteResult | null = null
  let amountRouted = p.amountIn
  let finalLegs: Leg[] = []
  if (graph.states.size === 0) {
    warnings.push(graph.pools.size === 0
      ? `No pools are tracked yet: scan for pools first via POST /api/v1/sor/pools/scan, then ${REFRESH_ADVICE}.`
      : `No pool state loaded yet: ${REFRESH_ADVICE}.`)
  } else if (pools.length === 0) {
    warnings.push(`No pool connects ${tokenIn} and ${tokenOut} within ${maxHops} hop${maxHops === 1 ? '' : 's'}${slugSet ? ` using protocols ${[...slugSet].join(', ')}` : ''}.`
      + ` If pools were added on chain since the last scan, scan (POST /api/v1/sor/pools/scan) and ${REFRESH_ADVICE}.`)
  } else {
    const search = (from: PoolState[], amountIn = p.amountIn) => {
      const input: FindRouteInput = { pools: from, tokenIn, tokenOut, amountIn, maxHops, maxRoutes, maxSplit, poolMeta: graph.meta(from.map(x => x.address)) }
      if (slugSet) input.slugs = [...slugSet]
      return withTimeout(d.pool.run<FindRouteInput, RouteResult>('sor/route', input), config.SOR_QUOTE_TIMEOUT_MS)
    }
    result = await search(pools)
    // A chosen V3 hop that walked off its loaded words would treat the unloaded ticks as no liquidity: load
    // them (on demand, at the graph's block) and search again, until no chosen hop is cut short by an edge.
    // The chosen routes' hops are simulated once per result and the legs shared by every check below.
    let legs = [...hops(result, graph.states)]
    for (let round = 0; d.extendV3 && round < MAX_EXTEND_ROUNDS; round++) {
      const edges = wordEdges(legs)
      if (!edges.length || !(await Promise.all(edges.map(e => d.extendV3!(e.address, e.zeroForOne)))).some(Boolean)) break
      result = await search(graph.relevant(tokenIn, tokenOut, maxHops, slugSet))
      legs = [...hops(result, graph.states)]
    }
    // Honest partial fills: when the pools cannot take the whole input, the quote is for what they can take
    // (searched again for that amount), and says so; it never reports output for input no liquidity took.
    // Only a leg that takes less than it is offered needs the search for what the routes can take.
    let routed = legs.some(h => h.taken < h.offered) ? routableOf(result, graph.states) : { amountIn: p.amountIn, amountOut: result.amountOut, routes: result.routes }
    if (routed.amountIn < p.amountIn && routed.amountIn > 0n) {
      // the best split for what can be routed may differ from the best split of the whole: search that amount
      const again = await search(graph.relevant(tokenIn, tokenOut, maxHops, slugSet), routed.amountIn).catch(() => null)
      const r2 = again && routableOf(again, graph.states)
      if (again && r2 && r2.amountIn === routed.amountIn && r2.amountOut > routed.amountOut) { result = again; routed = r2 }
    }
    if (routed.amountIn < p.amountIn) {
      warnings.push(`Insufficient liquidity: ${p.amountIn} ${tokenIn} requested, ${routed.amountIn} routable through the tracked pools; this quote is for the routable amount.`)
      result = { ...result, routes: routed.routes, amountOut: routed.amountOut }
      amountRouted = routed.amountIn
      legs = [...hops(result, graph.states)]
    }
    finalLegs = legs
    warnings.push(...result.warnings)
    warnings.push(...legWarnings(finalLegs))
    if (result.priceImpactBps > HIGH_IMPACT_BPS) warnings.push(`High price impact: ${result.priceImpactBps} bps against the zero-size rate of the chosen routes.`)
  }
  if (graph.refreshedAt !== null) {
    const age = Math.round((Date.now() - graph.refreshedAt) / 1000)
    if (age > config.SOR_STALE_AFTER_SECS) warnings.push(`Pool state is ${age} s old (block ${graph.asOfBlock}): ${REFRESH_ADVICE} for a current quote.`)
  }

  const amountOut = result?.amountOut ?? 0n
  const decIn = infoIn?.decimals ?? 18, decOut = infoOut?.decimals ?? 18
  const out: SorQuote = {
    meta: {
      timestamp: new Date().toISOString(),
      asOfBlock: String(graph.asOfBlock ?? 0n),
      computeTimeMs: 0,
      candidatesConsidered: result?.candidatesConsidered ?? 0,
      viableRoutes: result?.viableRoutes ?? 0,
      isSplit: result?.isSplit ?? false,
    },
    summary: {
      tokenIn, tokenInSymbol: infoIn?.symbol ?? null, tokenOut, tokenOutSymbol: infoOut?.symbol ?? null,
      amountIn: amountRouted, amountOut,
      effectivePrice: amountRouted > 0n ? effectivePrice(amountRouted, amountOut, decIn, decOut) : 0,
      priceImpactBps: result?.priceImpactBps ?? 0,
    },
    routes: result?.routes ?? [],
    alternatives: result?.alternatives ?? [],
    warnings,
    fees: feesOf(finalLegs),
  }
  if (p.explain ?? true) out.explain = result?.explain ?? emptyExplain(warnings)
  out.meta.computeTimeMs = Math.round((performance.now() - started) * 100) / 100
  return out
}

/** output per input in whole tokens: (amountOut / 10^decOut) / (amountIn / 10^decIn), to a double's precision at any size */
export function effectivePrice(amountIn: bigint, amountOut: bigint, decIn: number, decOut: number): number {
  if (amountIn <= 0n || amountOut <= 0n) return 0
  const num = amountOut * 10n ** BigInt(Math.max(0, decIn - decOut)), den = amountIn * 10n ** BigInt(Math.max(0, decOut - decIn))
  // a 64-bit quotient first (the integers may be far beyond a double), then the binary shift back
  const shift = 64 - (num.toString(2).length - den.toString(2).length)
  const q = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift))
  return Number(q) * 2 ** -shift
}

// Each hop of each chosen route, replayed exactly: the amount entering it, and whether the pool takes all of it.
type Leg = ReturnType<typeof hops> extends Generator<infer L> ? L : never

function* hops(result: RouteResult, states: ReadonlyMap<Address, PoolState>) {
  for (const r of result.routes) {
    let amount = r.amountIn
    for (let i = 0; i < r.pools.length; i++) {
      const state = states.get(r.pools[i]!.address)
      if (!state) break
      const tokenIn = r.path[i]!, tokenOut = r.path[i + 1]!
      const sim = simulateExactIn(state, tokenIn, tokenOut, amount)
      yield { route: r, pool: r.pools[i]!, state, tokenIn, tokenOut, offered: amount, taken: sim.amountIn, paid: sim.amountOut }
      amount = sim.amountOut
    }
  }
}

/**
 * What each chosen route can really take: the largest input, up to its allocation, that every hop takes whole
 * (more input never makes a hop take all of it, so a binary search finds it), with the output it then pays.
 */
function routableOf(result: RouteResult, states: ReadonlyMap<Address, PoolState>): { amountIn: bigint; amountOut: bigint; routes: FoundRoute[] } {
  const routes: FoundRoute[] = []
  let amountIn = 0n, amountOut = 0n
  for (const r of result.routes) {
    const run = (x: bigint): bigint | null => {
      let a = x
      for (let i = 0; i < r.pools.length; i++) {
        const state = states.get(r.pools[i]!.address)
        if (!state) return null
        const sim = simulateExactIn(state, r.path[i]!, r.path[i + 1]!, a)
        if (sim.amountIn < a) return null
        a = sim.amountOut
      }
      return a
    }
    let x = r.amountIn, out = run(x)
    if (out === null) {
      let lo = 0n, hi = r.amountIn
      while (hi - lo > 1n) { const mid = (lo + hi) / 2n; if (run(mid) !== null) lo = mid; else hi = mid }
      x = lo; out = run(lo) ?? 0n
    }
    if (x > 0n) routes.push({ ...r, amountIn: x, amountOut: out })
    amountIn += x; amountOut += out
  }
  for (const r of routes) r.fractionPct = amountIn > 0n ? Number((r.amountIn * 10_000n) / amountIn) / 100 : 0
  return { amountIn, amountOut, routes }
}

/** The V3 hops of the chosen routes cut short by the edge of their loaded words, with the side they walked off. */
function wordEdges(legs: readonly Leg[]): { address: Address; zeroForOne: boolean }[] {
  const out = new Map<Address, boolean>()
  for (const h of legs) {
    if (h.state.kind !== 'v3' || h.taken >= h.offered) continue
    const zeroForOne = h.tokenIn === h.state.token0
    try {
      if (v3Swap(h.state, zeroForOne, h.offered, zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n).reachedWordRangeEnd) out.set(h.state.address, zeroForOne)
    } catch { /* the pool reverts: no words would change that */ }
  }
  return [...out].map(([address, zeroForOne]) => ({ address, zeroForOne }))
}

function legWarnings(legs: readonly Leg[]): string[] {
  const out: string[] = []
  for (const h of legs) {
    if (h.taken < h.offered)
      out.push(`Pool ${h.pool.address} (${h.pool.protocol}) can take only ${h.taken} of the ${h.offered} ${h.tokenIn} offered: its liquidity${h.state.kind === 'v3' ? ' (or the loaded tick range)' : ''} runs out, and the rest would stay unswapped. Reduce amountIn.`)
  }
  return out
}

function feesOf(legs: readonly Leg[]): FeeItem[] {
  const out: FeeItem[] = []
  for (const h of legs) {
    const feeBps = h.pool.fee / 100
    let token = h.tokenIn, amount: bigint
    switch (h.state.kind) {
      case 'v2': amount = (h.taken * BigInt(h.state.feePpm)) / 1_000_000n; break
      case 'v3': amount = ceilDiv(h.taken * BigInt(h.state.fee), 1_000_000n); break
      case 'stable': {
        // the stable pool keeps fee / 1e10 of the gross output: paid = gross - fee part
        token = h.tokenOut
        const f = h.state.fee, D = 10_000_000_000n
        amount = f >= D ? 0n : (h.paid * f) / (D - f)
        break
      }
    }
    out.push({ pool: h.pool.address, protocol: h.pool.protocol, poolType: h.pool.poolType, feeBps, token, amount })
  }
  return out
}

function emptyExplain(warnings: string[]): RouteExplain {
  return {
    text: warnings[0] ?? 'No route can fill the input.', winner: 'single', marginalRate: 0, bestSingle: null,
    stepSplit: { amountOut: 0n, fractionsPct: [] }, gainBpsVsSingle: 0, gainBpsVsStepSplit: 0, routeSetsTried: 0, polishMoves: 0, candidatePaths: 0,
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(fail({ code: 'SEARCH_TIMEOUT', ms })), ms); timer.unref() })
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer))
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b
