// The RFQ REST surface on API_PORT: agents (registration, auth, activity), tokens, RFQs (create,
// list, detail, cancel, agent list/detail/fill), REST quotes, the SSE feed, badges, profiles,
// the points leaderboard and the OpenAPI document. Live RFQs are reached only through the book.
import type { RfqDirectory } from '../../actors/rfqTypes.js'
import type { LiveIndex } from '../../actors/liveIndex.js'
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { createAgentAuth, guarded } from '../front/agentAuth.js'
import { agentRoutes } from '../routes/agents.js'
import { createTokenRegistry, type TokenRegistry } from '../tokens/registry.js'
import { createChainResolver } from '../tokens/chainResolver.js'
import type { TokenList } from '../tokens/tokenList.js'
import { createChainClient } from '../chain/client.js'
import { feedRoutes } from '../feed/sse.js'
import { profileRoutes } from '../profile/routes.js'
import { openapiRoutes } from '../openapi/routes.js'
import { createRfqHandler } from './create.js'
import { agentListHandler, detailHandler, listHandler } from './read.js'
import { OpenPageCache } from './openPageCache.js'
import { cancelHandler } from './cancel.js'
import { fillHandler } from './fill.js'
import type { RfqService } from '../rfq/service.js'
import { submitQuoteHandler } from './quotes.js'

export async function rfqApiModule(
  ctx: EngineContext,
  { book, index, rfqs, tokenList }: { book: RfqDirectory; index: LiveIndex; rfqs: RfqService; tokenList: TokenList },
): Promise<{ tokens: TokenRegistry }> {
  const {
    surfaces: { api },
    sql,
    config,
  } = ctx
  const chain =
    config.TOKENS_POLICY === 'chain' && config.RPC_URL
      ? createChainResolver({
          sql,
          client: createChainClient(config.RPC_URL),
          chainId: config.CHAIN_ID,
          multicallAddress: config.MULTICALL_ADDRESS,
        })
      : undefined
  const tokens = await createTokenRegistry(sql, tokenList, { chain })
  const auth = createAgentAuth(
    sql,
    {
      perMinute: config.AGENT_RATE_PER_MIN,
      perHour: config.AGENT_RATE_PER_HOUR,
      failuresPerMinute: config.AUTH_FAILURES_PER_MIN,
    },
    ctx.limits,
    ctx.databaseUp,
  )
  const registrations = agentRoutes(ctx, auth)
  const deps = { sql, book, tokens, auth, rfqs }

  const list = { name: tokenList.name, version: tokenList.version }
  api.get('/api/v1/tokens', async () => ok({ chainId: tokens.chainId, list, tokens: await tokens.list() }))

  api.get('/api/v1/rfqs', listHandler({ ...deps, openPages: new OpenPageCache(() => index.publicSeq) }))
  api.get('/api/v1/rfqs/:id', detailHandler(deps))
  api.post('/api/v1/rfqs/:id/cancel', cancelHandler(deps))
  api.post('/api/v1/agent/rfqs', guarded(auth.requireAgent('taker'), createRfqHandler(deps)))
  api.get('/api/v1/agent/rfqs', guarded(auth.requireAgent('monitor'), agentListHandler(deps)))
  api.get('/api/v1/agent/rfqs/:id', guarded(auth.requireAgent(), detailHandler(deps)))
  api.post('/api/v1/agent/rfqs/:id/fill', guarded(auth.requireAgent('taker'), fillHandler(deps)))
  api.post('/api/v1/quotes', submitQuoteHandler(rfqs))

  const feed = feedRoutes(ctx, book, tokens, index, auth)
  profileRoutes(ctx, auth)
  openapiRoutes(ctx)

  const sweeper = setInterval(() => {
    auth.sweep()
    registrations.sweep()
  }, 60_000)
  sweeper.unref()
  ctx.onShutdown(() => {
    clearInterval(sweeper)
    feed.close()
  })
  return { tokens }
}
