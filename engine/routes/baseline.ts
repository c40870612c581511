// The AMM-baseline surface (spec "Benchmark"; named "baseline", not "benchmark": bench/ is load benches): the
// baseline upsert, the performance reports against it, and (baselineModule) the aggregator price proxy.
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { Errors, HttpError } from '../front/errors.js'
import { isAddress } from '../../workers/values/index.js'
import { aggRoutes } from './aggPrice.js'
import { zeroExV2Adapter } from '../baseline/aggregator/zeroExV2.js'
import { parseBaselineBody } from './baselineBody.js'
import { storeBaseline } from '../baseline/storeBaseline.js'
import { rfqPerformance, performanceSummary, performanceMissing } from '../store/fills.js'
import { baselineMiss } from '../store/baselines.js'
import { improvementBps } from '../../workers/fills/improvement.js'
import { roundTo } from '../../workers/fills/round.js'

export const WINDOWS = { '24h': 24 * 3600_000, '7d': 7 * 24 * 3600_000, '30d': 30 * 24 * 3600_000 } as const

export function benchmarkRoutes({ surfaces, sql }: EngineContext, o: { clientSourceId: string }): void {
  surfaces.api.post('/api/v1/rfq/baseline', async req => {
    const baseline = parseBaselineBody(req.body)
    const id = await storeBaseline(sql, baseline)
    return ok({ success: true, id })
  })

  surfaces.api.get('/api/v1/rfq/performance', async req => {
    const rfqId = req.query.get('rfqId')
    if (!rfqId) throw Errors.badRequest('Missing rfqId')
    const p = await rfqPerformance(sql, rfqId)
    // the spec's text, which of the two is missing (`missing: ["baseline" | "fill", ...]`), and why the server-side
    // baseline is (`baselineMissing: {code, reason}`, when the route finder recorded one)
    if (!p) {
      const missing = await performanceMissing(sql, rfqId)
      const why = missing.includes('baseline') ? await baselineMiss(sql, rfqId) : undefined
      const body = { missing, ...(why ? { baselineMissing: why } : {}) }
      throw new HttpError(404, 'No baseline or fill found for this RFQ', body)
    }
    // A fill recorded before its baseline arrived was not benchmarked then: report it against the baseline now.
    const bps = p.benchmarkAvailable
      ? p.improvementBps
      : improvementBps({
          kind: p.kind,
          rfqAmountIn: p.rfqAmountIn,
          rfqAmountOut: p.rfqAmountOut,
          baselineAmountIn: p.baselineAmountIn,
          baselineAmountOut: p.baselineAmountOut,
        })
    return ok({
      rfqId,
      improvementBps: bps,
      rfqAmountOut: p.rfqAmountOut.toString(),
      baselineAmountOut: p.baselineAmountOut.toString(),
      baselineSource: p.baselineSource === 'sor' ? 'sor' : o.clientSourceId,
      computedAt: (p.benchmarkAvailable ? p.filledAt : new Date()).toISOString(),
    })
  })

  surfaces.api.get('/api/v1/rfq/performance-summary', async req => {
    const window = req.query.get('window') ?? '7d'
    if (!Object.hasOwn(WINDOWS, window)) throw Errors.badRequest('Invalid window (24h, 7d or 30d)')
    const tokenIn = req.query.get('tokenIn') ?? undefined,
      tokenOut = req.query.get('tokenOut') ?? undefined
    if ((tokenIn !== undefined && !isAddress(tokenIn)) || (tokenOut !== undefined && !isAddress(tokenOut)))
      throw Errors.badRequest('Invalid token address format')
    const since = new Date(Date.now() - WINDOWS[window as keyof typeof WINDOWS])
    const s = await performanceSummary(sql, {
      window,
      since,
      tokenIn: tokenIn?.toLowerCase(),
      tokenOut: tokenOut?.toLowerCase(),
    })
    return ok({
      window,
      totalFills: s.totalFills,
      avgImprovementBps: round(s.avgImprovementBps),
      medianImprovementBps: round(s.medianImprovementBps),
      totalVolumeUsd: roundTo(s.totalVolumeUsd, 2),
      pctBetterThanBaseline: round(s.pctBetterThanBaseline),
    })
  })
}

/** No benchmarked fills in the window: the averages are 0, not null, so clients can plot them. */
const round = (x: number | null) => (x === null ? 0 : roundTo(x, 2))

export function baselineModule(ctx: EngineContext): void {
  const c = ctx.config
  const adapter = c.AGG_BASE_URL
    ? zeroExV2Adapter({
        id: c.AGG_ID,
        baseUrl: c.AGG_BASE_URL,
        apiKey: c.AGG_API_KEY,
        chainId: c.AGG_CHAIN_ID ?? c.CHAIN_ID,
        path: c.AGG_PRICE_PATH,
      })
    : null
  benchmarkRoutes(ctx, { clientSourceId: c.AGG_ID })
  aggRoutes(ctx, { adapter, id: c.AGG_ID, timeoutMs: c.AGG_TIMEOUT_MS })
}
