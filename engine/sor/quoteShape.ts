// The spec's "Route finder quote" object, shaped from a search's result (or none) and the legs replayed on
// the engine's states: meta, summary, routes, alternatives, warnings, fees and the explanation.
import type { Token } from '../store/tokens.js'
import type { Address } from '../../workers/sor/types.js'
import type { Alternative, FoundRoute, RouteExplain, RouteResult } from '../../workers/sor/findRoute.js'
import type { PoolGraph } from './poolGraph.js'
import type { SearchQuery } from './routeSearch.js'
import { feesOf, type FeeItem, type Leg } from '../../workers/sor/legs.js'

export type { FeeItem }

export interface SorQuote {
  meta: {
    timestamp: string
    asOfBlock: string
    computeTimeMs: number
    candidatesConsidered: number
    viableRoutes: number
    isSplit: boolean
  }
  summary: {
    tokenIn: Address
    tokenInSymbol: string | null
    tokenOut: Address
    tokenOutSymbol: string | null
    amountIn: bigint
    amountOut: bigint
    effectivePrice: number
    priceImpactBps: number
  }
  routes: FoundRoute[]
  alternatives: Alternative[]
  warnings: string[]
  fees: FeeItem[]
  explain?: RouteExplain
}

/** What a quote is shaped from: the search's result for the amount routed (null: nothing was searched), its legs, its own warnings. */
export interface Routed {
  result: RouteResult | null
  amountIn: bigint
  legs: Leg[]
  warnings: string[]
}

export interface ShapeInput {
  graph: Pick<PoolGraph, 'asOfBlock'>
  q: Pick<SearchQuery, 'tokenIn' | 'tokenOut'>
  infoIn: Token | null
  infoOut: Token | null
  routed: Routed
  /** every warning of the quote, in order */
  warnings: string[]
  explain: boolean
  /** performance.now() when the quote began */
  started: number
}

export function shapeQuote({ graph, q, infoIn, infoOut, routed, warnings, explain, started }: ShapeInput): SorQuote {
  const { result, amountIn } = routed
  const amountOut = result?.amountOut ?? 0n
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
      tokenIn: q.tokenIn,
      tokenInSymbol: infoIn?.symbol ?? null,
      tokenOut: q.tokenOut,
      tokenOutSymbol: infoOut?.symbol ?? null,
      amountIn,
      amountOut,
      effectivePrice:
        amountIn > 0n ? effectivePrice(amountIn, amountOut, infoIn?.decimals ?? 18, infoOut?.decimals ?? 18) : 0,
      priceImpactBps: result?.priceImpactBps ?? 0,
    },
    routes: result?.routes ?? [],
    alternatives: result?.alternatives ?? [],
    warnings,
    fees: feesOf(routed.legs),
  }
  if (explain) out.explain = result?.explain ?? emptyExplain(warnings)
  out.meta.computeTimeMs = Math.round((performance.now() - started) * 100) / 100
  return out
}

/** output per input in whole tokens: (amountOut / 10^decOut) / (amountIn / 10^decIn), to a double's precision at any size */
export function effectivePrice(amountIn: bigint, amountOut: bigint, decIn: number, decOut: number): number {
  if (amountIn <= 0n || amountOut <= 0n) return 0
  const num = amountOut * 10n ** BigInt(Math.max(0, decIn - decOut)),
    den = amountIn * 10n ** BigInt(Math.max(0, decOut - decIn))
  // a 64-bit quotient first (the integers may be far beyond a double), then the binary shift back
  const shift = 64 - (num.toString(2).length - den.toString(2).length)
  const q = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift))
  return Number(q) * 2 ** -shift
}

export function emptyExplain(warnings: readonly string[]): RouteExplain {
  return {
    text: warnings[0] ?? 'No route can fill the input.',
    winner: 'single',
    marginalRate: 0,
    bestSingle: null,
    stepSplit: { amountOut: 0n, fractionsPct: [] },
    gainBpsVsSingle: 0,
    gainBpsVsStepSplit: 0,
    routeSetsTried: 0,
    polishMoves: 0,
    candidatePaths: 0,
  }
}
