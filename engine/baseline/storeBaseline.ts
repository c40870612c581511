// Stores an RFQ's AMM baseline. The RFQ-creation path calls this with source 'sor' when the route
// finder can quote the pair, so agent RFQs are benchmarked without a client baseline; a client's
// baseline (source 'client') replaces a 'sor' one, never the other way round.
import type { Baseline } from '../store/baselines.js'
import type { Tx } from '../store/db.js'
import { upsertBaseline } from '../store/baselines.js'

export interface SorQuoteLike {
  meta: { timestamp: string; asOfBlock: string }
  summary: {
    tokenIn: string
    tokenOut: string
    amountIn: string | bigint
    amountOut: string | bigint
    effectivePrice: number
    priceImpactBps: number
  }
  routes: { pools: { protocol: string; poolType: string }[]; fractionPct: number }[]
}

export function storeBaseline(sql: Tx, b: Baseline): Promise<string | null> {
  return upsertBaseline(sql, b)
}

/** The server-side baseline of an RFQ from a route finder quote (spec: "Route finder quote"). */
export function baselineFromSorQuote(rfqId: string, q: SorQuoteLike): Baseline {
  return {
    rfqId,
    tokenIn: q.summary.tokenIn.toLowerCase(),
    tokenOut: q.summary.tokenOut.toLowerCase(),
    amountIn: BigInt(q.summary.amountIn),
    baselineAmountOut: BigInt(q.summary.amountOut),
    baselineEffectivePrice: q.summary.effectivePrice,
    baselinePriceImpactBps: q.summary.priceImpactBps,
    baselineBlockNumber: q.meta.asOfBlock,
    baselineTimestamp: new Date(q.meta.timestamp),
    baselineRouteSummary: q.routes.map(r => ({
      protocol: r.pools.map(p => p.protocol).join('>'),
      poolType: r.pools.map(p => p.poolType).join('>'),
      fractionPct: r.fractionPct,
    })),
    source: 'sor',
  }
}
