// The route finder (SOR) surface: protocol registry, pool scan, pool-state refresh, quotes. Returns
// the RouteFinder other modules use (a server-side baseline at RFQ creation).
import type { EngineContext } from '../context.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { createSorService, type RouteFinder } from './service.js'
import { sorRoutes } from './routes.js'

export type { RouteFinder }
export type { SorQuote } from './quote.js'
export type { QuoteParams } from './quoteParams.js'

export async function sorModule(ctx: EngineContext, { tokens }: { tokens: Pick<TokenRegistry, 'resolve'> }): Promise<{ routeFinder: RouteFinder }> {
  const sor = await createSorService({ config: ctx.config, sql: ctx.sql, routePool: ctx.routePool, log: ctx.log.child({ module: 'sor' }) })
  sorRoutes(ctx, sor, tokens)
  ctx.onShutdown(() => sor.stop())
  ctx.metrics.gauge('sor_follow_blocks_total', 'blocks the route finder followed (logs read, touched pools re-read)', () => sor.follow?.blocks ?? 0)
  ctx.metrics.gauge('sor_follow_pools_reread_total', 'pools re-read because they logged in a followed block', () => sor.follow?.rereads ?? 0)
  ctx.metrics.gauge('sor_follow_rpc_calls_total', 'RPC calls made following the chain (multicall batches count once)', () => sor.follow?.rpcCalls ?? 0)
  for (const reason of ['start', 'reorg', 'gap', 'failure'] as const) {
    ctx.metrics.gauge(`sor_follow_reloads_${reason}_total`, `full reloads of pools and state (${reason})`, () => sor.follow?.reloads[reason] ?? 0)
  }
  return { routeFinder: sor.routeFinder }
}
