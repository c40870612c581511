// The route finder (SOR) surface: protocol registry, pool scan, pool-state refresh, quotes. Returns
// the RouteFinder other modules use (a server-side baseline at RFQ creation).
import type { EngineContext } from '../context.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { createSorService, type RouteFinder } from './service.js'
import { sorRoutes } from './routes.js'
import { sorMetrics } from './metrics.js'

export type { RouteFinder }
export type { SorQuote } from './quote.js'
export type { QuoteParams } from './quoteParams.js'

export async function sorModule(
  ctx: EngineContext,
  { tokens }: { tokens: Pick<TokenRegistry, 'resolve'> },
): Promise<{ routeFinder: RouteFinder }> {
  const log = ctx.log.child({ module: 'sor' })
  const sor = await createSorService({ config: ctx.config, sql: ctx.sql, routePool: ctx.routePool, log })
  sorRoutes(ctx, sor, tokens)
  ctx.onShutdown(() => sor.stop())
  sorMetrics(ctx.metrics, sor)
  return { routeFinder: sor.routeFinder }
}
