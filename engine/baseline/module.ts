// The AMM-baseline surface: storing the baseline shown at RFQ creation, the performance reports
// against it, and the aggregator price proxy. (Named "baseline", not "benchmark": bench/ is load benches.)
import type { EngineContext } from '../context.js'
import { benchmarkRoutes } from './routes.js'
import { aggRoutes } from './aggRoutes.js'
import { zeroExV2Adapter } from './aggregator/zeroExV2.js'

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
