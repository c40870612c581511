// Route finder quotes: resolve both tokens, search on the route lane (routeSearch.ts), make the chosen V3 hops
// whole (loading the words they walked off), fit the quote to what the pools can take, and shape the spec's
// "Route finder quote" around it (quoteShape.ts). Each step is a named unit below; a quote of one pair at
// several amounts (server-side baselines of one pair, coalesced) shares its first search.
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { Sql } from '../store/db.js'
import type { WorkerPool } from '../pool/workerPool.js'
import type { Protocol } from '../store/sor.js'
import { tokensByAddresses, type Token } from '../store/tokens.js'
import type { Address } from '../../workers/sor/types.js'
import type { RouteResult } from '../../workers/sor/findRoute.js'
import type { PoolGraph } from './poolGraph.js'
import type { GraphFeed } from './graphFeed.js'
import type { QuoteParams } from './quoteParams.js'
import { fail, outcomeOf, SorFailure, type SorOutcome } from './errors.js'
import { legsOf, wordEdges, type Leg } from '../../workers/sor/legs.js'
import { searchRoutes, type SearchQuery } from './routeSearch.js'
import { shapeQuote, type Routed, type SorQuote } from './quoteShape.js'
import { HIGH_IMPACT_BPS, legWarnings, QuoteWarnings } from './warnings.js'
import type { Found } from './graphMessages.js'

export type { SorQuote }
export { effectivePrice } from './quoteShape.js'

export interface QuoteDeps {
  graph: PoolGraph
  feed: GraphFeed
  sql: Sql
  routePool: WorkerPool
  config: Config
  log: Logger
  searched?(seconds: number): void
  protocols: () => Protocol[]
  /** loads more words of a V3 pool on the side a swap walked off; false when there is nothing more (service.ts) */
  extendV3?: (address: Address, zeroForOne: boolean) => Promise<boolean>
}

/** rounds of loading more V3 words: the width doubles each time, so 12 reach the tick range's end at any spacing */
const MAX_EXTEND_ROUNDS = 12

export async function quote(d: QuoteDeps, p: QuoteParams): Promise<SorQuote> {
  const [only] = await quoteAmounts(d, p, [p.amountIn])
  if (!only!.ok) throw new SorFailure(only!)
  return only!.value
}

/**
 * Quotes of one pair at several amounts: the tokens resolved once (an unknown one refuses them all), one
 * search task for every amount, then each amount finished on its own (its outcome alone if that fails).
 */
export async function quoteAmounts(
  d: QuoteDeps,
  p: Omit<QuoteParams, 'amountIn'>,
  amounts: bigint[],
): Promise<SorOutcome<SorQuote>[]> {
  const started = performance.now()
  const q = searchQuery(p)
  const warnings: string[] = []
  const [infoIn, infoOut] = await tokenInfos(d, q, p.given ?? p, warnings)
  warnings.push(...slugWarnings(d.protocols(), q.slugs))
  const empty = graphWarning(d.graph)
  const firsts = empty ? null : await outcomeOf(() => searchRoutes(d, q, amounts))
  if (firsts && !firsts.ok) return amounts.map(() => firsts)
  return Promise.all(
    amounts.map((amountIn, i) =>
      outcomeOf(async () => {
        const routed = firsts ? await finish(d, q, amountIn, firsts.value[i]!) : nothingRouted(amountIn, empty!)
        const all = [...warnings, ...routed.warnings, ...staleWarning(d.graph, d.config)]
        return shapeQuote({
          graph: d.graph,
          q,
          infoIn,
          infoOut,
          routed,
          warnings: all,
          explain: p.explain ?? true,
          started,
        })
      }),
    ),
  )
}

function searchQuery(p: Omit<QuoteParams, 'amountIn'>): SearchQuery {
  return {
    tokenIn: p.tokenIn.toLowerCase() as Address,
    tokenOut: p.tokenOut.toLowerCase() as Address,
    maxHops: p.maxHops ?? 2,
    maxRoutes: p.maxRoutes ?? 5,
    maxSplit: p.maxSplit ?? 4,
    slugs: p.slugs?.length ? [...new Set(p.slugs)] : null,
  }
}

/** Both tokens from the registry; one only in a tracked pool is quoted with a warning, one in neither refused. */
async function tokenInfos(
  d: QuoteDeps,
  q: SearchQuery,
  given: { tokenIn: string; tokenOut: string },
  warnings: string[],
): Promise<[Token | null, Token | null]> {
  const rows = await tokensByAddresses(d.sql, d.config.CHAIN_ID, [q.tokenIn, q.tokenOut])
  const known = new Map(rows.map(t => [t.address, t]))
  const info = (address: Address, as: string): Token | null => {
    const t = known.get(address)
    if (t) return t
    if (!d.graph.hasToken(address)) throw fail({ code: 'TOKEN_NOT_FOUND', given: as })
    warnings.push(QuoteWarnings.notInRegistry(address))
    return null
  }
  return [info(q.tokenIn, given.tokenIn), info(q.tokenOut, given.tokenOut)]
}

export function slugWarnings(protocols: readonly Protocol[], slugs: readonly string[] | null): string[] {
  if (!slugs) return []
  const registered = new Set(protocols.map(x => x.slug))
  const unknown = slugs.filter(s => !registered.has(s))
  return unknown.length ? [QuoteWarnings.unknownSlugs(unknown)] : []
}

/** Nothing to search yet: no pools tracked, or none with state. */
export function graphWarning(graph: Pick<PoolGraph, 'pools' | 'states'>): string | null {
  if (graph.states.size > 0) return null
  return graph.pools.size === 0 ? QuoteWarnings.noPools() : QuoteWarnings.noState()
}

export function staleWarning(
  graph: Pick<PoolGraph, 'refreshedAt' | 'asOfBlock'>,
  config: Pick<Config, 'SOR_STALE_AFTER_SECS'>,
  now = Date.now(),
): string[] {
  if (graph.refreshedAt === null) return []
  const age = Math.round((now - graph.refreshedAt) / 1000)
  return age > config.SOR_STALE_AFTER_SECS ? [QuoteWarnings.stale(age, graph.asOfBlock)] : []
}

/** One amount's first search, made whole and fitted to the pools: what the quote is shaped from. */
async function finish(d: QuoteDeps, q: SearchQuery, amountIn: bigint, first: Found): Promise<Routed> {
  if (first.result.explain.candidatePaths === 0) {
    return nothingRouted(amountIn, QuoteWarnings.noConnection(q.tokenIn, q.tokenOut, q.maxHops, q.slugs))
  }
  const whole = await extendWords(d, q, amountIn, first)
  const fitted = await fitToLiquidity(d, q, amountIn, whole)
  const warnings = [...fitted.warnings, ...fitted.result.warnings, ...legWarnings(fitted.legs)]
  const impact = fitted.result.priceImpactBps
  if (impact > HIGH_IMPACT_BPS) warnings.push(QuoteWarnings.highImpact(impact))
  return { result: fitted.result, amountIn: fitted.amountIn, legs: fitted.legs, warnings }
}

/** No search ran, or it found no path: the quote is empty and says why. */
function nothingRouted(amountIn: bigint, why: string): Routed {
  return { result: null, amountIn, legs: [], warnings: [why] }
}

/**
 * A chosen V3 hop that walked off its loaded words would treat the unloaded ticks as no liquidity: load them
 * (on demand, at the graph's block) and search again, until no chosen hop is cut short by an edge.
 */
export async function extendWords(
  d: QuoteDeps,
  q: SearchQuery,
  amountIn: bigint,
  first: Found,
): Promise<{ found: Found; legs: Leg[] }> {
  let found = first,
    legs = legsOf(found.result, d.graph.states)
  for (let round = 0; d.extendV3 && round < MAX_EXTEND_ROUNDS; round++) {
    const edges = wordEdges(legs)
    if (!edges.length || !(await Promise.all(edges.map(e => d.extendV3!(e.address, e.zeroForOne)))).some(Boolean)) break
    found = (await searchRoutes(d, q, [amountIn]))[0]!
    legs = legsOf(found.result, d.graph.states)
  }
  return { found, legs }
}

/**
 * Honest partial fills: when the pools cannot take the whole input, the quote is for what they can take
 * (searched again for that amount: its best split may differ), and says so; it never reports output for input
 * no liquidity took. What the routes take whole came with the search, fitted on the route thread. A second
 * search that times out or finds the queue full leaves the first fit standing.
 */
export async function fitToLiquidity(
  d: QuoteDeps,
  q: SearchQuery,
  amountIn: bigint,
  { found, legs }: { found: Found; legs: Leg[] },
): Promise<Routed & { result: RouteResult }> {
  let result = found.result
  if (!found.routable) return { result, amountIn, legs, warnings: [] }
  let routed = found.routable
  if (routed.amountIn < amountIn && routed.amountIn > 0n) {
    const again = await secondSearch(d, q, routed.amountIn)
    // the routes of the second search taken whole: its fit, or all of them
    const r2 =
      again &&
      (again.routable ?? { amountIn: routed.amountIn, amountOut: again.result.amountOut, routes: again.result.routes })
    if (again && r2 && r2.amountIn === routed.amountIn && r2.amountOut > routed.amountOut) {
      result = again.result
      routed = r2
    }
  }
  if (routed.amountIn >= amountIn) return { result, amountIn, legs, warnings: [] }
  result = { ...result, routes: routed.routes, amountOut: routed.amountOut }
  const warnings = [QuoteWarnings.insufficient(amountIn, q.tokenIn, routed.amountIn)]
  return { result, amountIn: routed.amountIn, legs: legsOf(result, d.graph.states), warnings }
}

/**
 * The search for the routable amount: a refusal (timeout, busy) is expected and leaves the first answer;
 * anything else is a bug, logged with its query and thrown.
 */
async function secondSearch(d: QuoteDeps, q: SearchQuery, amountIn: bigint): Promise<Found | null> {
  const query = { tokenIn: q.tokenIn, tokenOut: q.tokenOut, amountIn: String(amountIn) }
  try {
    return (await searchRoutes(d, q, [amountIn]))[0]!
  } catch (e) {
    if (e instanceof SorFailure) {
      d.log.debug({ code: e.refusal.code, ...query }, 'sor: second search refused; the first fit stands')
      return null
    }
    d.log.error({ err: e, ...query }, 'sor: second search for the routable amount failed')
    throw e
  }
}
