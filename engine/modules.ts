// The surface modules, mounted in dependency order. Each returns what later ones need.
import type { EngineContext } from './context.js'
import { healthRoutes } from './routes/health.js'
import { metricsRoutes } from './routes/metrics.js'
import { fillRoutes } from './routes/fills.js'
import { baselineModule } from './routes/baseline.js'
import { leagueRoutes } from './league/routes.js'
import { rfqApiModule } from './rfqApi/module.js'
import { relayModule } from './relay/module.js'
import { sorModule } from './routes/sor.js'
import { optionsModule } from './options/module.js'
import { storeServerBaselines } from './sor/baselineQueue.js'
import { baselineMetrics } from './sor/metrics.js'
import { createFillVerifier } from './chain/verifyFill.js'
import { createChainClient } from './chain/client.js'
import type { TokenList } from './tokens/tokenList.js'

export async function mountModules(ctx: EngineContext, { tokenList }: { tokenList: TokenList }) {
  const { RPC_URL, SPOT_RFQ_ADDRESS, FILL_VERIFY } = ctx.config
  const verifyFill =
    FILL_VERIFY === 'chain' && RPC_URL && SPOT_RFQ_ADDRESS
      ? createFillVerifier(createChainClient(RPC_URL), SPOT_RFQ_ADDRESS)
      : undefined
  if (verifyFill) ctx.log.info({ spotRfq: SPOT_RFQ_ADDRESS }, 'fills are verified on chain')
  const { book, index, rfqs } = await relayModule(ctx, { verifyFill })
  healthRoutes(ctx)
  metricsRoutes(ctx)
  optionsModule(ctx)
  fillRoutes(ctx, { events: book.events, verifyFill })
  baselineModule(ctx)
  leagueRoutes(ctx)
  const { tokens } = await rfqApiModule(ctx, { book, index, rfqs, tokenList })
  const { routeFinder } = await sorModule(ctx, { tokens })
  const { SOR_BASELINE_RATE, SOR_BASELINE_QUEUE, SOR_BASELINE_COALESCE_MS, SOR_BASELINE_MAX_WAIT_MS } = ctx.config
  const baselines = storeServerBaselines({
    events: book.events,
    routeFinder,
    sql: ctx.sql,
    log: ctx.log,
    policy: {
      ratePerSec: SOR_BASELINE_RATE,
      queue: SOR_BASELINE_QUEUE,
      coalesceMs: SOR_BASELINE_COALESCE_MS,
      maxWaitMs: SOR_BASELINE_MAX_WAIT_MS,
      inFlight: ctx.routePool.threads,
    },
  })
  baselineMetrics(ctx.metrics, baselines)
  ctx.onShutdown(async () => {
    baselines.stop()
    await baselines.settled()
  })
  return { book, routeFinder, baselines }
}
