// The route finder's REST surface under /api/v1/sor: thin handlers over the service. sorModule builds the
// service (protocol registry, pool scan, pool-state refresh, quotes), mounts the routes and its metrics, and
// returns the RouteFinder other modules use (a server-side baseline at RFQ creation).
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { tokensByAddresses, type Token } from '../store/tokens.js'
import type { Address } from '../../workers/sor/types.js'
import { createSorService, type RouteFinder, type SorService } from '../sor/service.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { parseQuoteQuery, SorErrors } from './sorQuery.js'
import { coverage, healthView, poolView, stateView } from '../sor/views.js'
import { sorMetrics } from '../sor/metrics.js'
import type { SorOutcome } from '../sor/errors.js'
import { apiReply, tokenReply } from '../replies/api.js'
import { isAddress } from '../../workers/values/index.js'

export function sorRoutes(
  { surfaces, sql, config }: EngineContext,
  sor: SorService,
  tokens: Pick<TokenRegistry, 'resolve'>,
): void {
  const api = surfaces.api
  const tokenMap = async (addresses: Address[]): Promise<Map<string, Token>> =>
    new Map((await tokensByAddresses(sql, config.CHAIN_ID, addresses)).map(t => [t.address, t]))
  const optionalAddress = (q: URLSearchParams, name: string): Address | null => {
    const raw = q.get(name)?.trim()
    if (!raw) return null
    if (!isAddress(raw)) throw SorErrors.invalidAddressParam()
    return raw.toLowerCase() as Address
  }

  // a symbol resolves through the one resolver the RFQ API uses (engine/tokens/registry.ts); an address the
  // registry does not know goes on to the pool graph (a tracked pool's token may be quoted with a warning)
  const resolve = async (given: string, side: 'tokenIn' | 'tokenOut'): Promise<Address> => {
    const r = await tokens.resolve(given)
    if (r.ok) return r.token.address
    if (isAddress(given) && (r.code === 'TOKEN_UNKNOWN' || r.code === 'CHAIN_UNAVAILABLE'))
      return given.toLowerCase() as Address
    if (r.code === 'TOKEN_UNKNOWN') throw apiReply({ ok: false, code: 'TOKEN_NOT_FOUND', given })
    throw tokenReply(r, side, config.CHAIN_ID)
  }
  api.get('/api/v1/sor/quote', async req => {
    const p = parseQuoteQuery(req.query)
    const [tokenIn, tokenOut] = [await resolve(p.tokenIn, 'tokenIn'), await resolve(p.tokenOut, 'tokenOut')]
    if (tokenIn === tokenOut) throw SorErrors.sameToken()
    return ok(
      value(
        await sor.routeFinder.quote({ ...p, tokenIn, tokenOut, given: { tokenIn: p.tokenIn, tokenOut: p.tokenOut } }),
      ),
    )
  })

  api.get('/api/v1/sor/protocols', () => ok({ protocols: sor.protocols }))

  api.post('/api/v1/sor/protocols/sync', async () => {
    const r = value(await sor.sync())
    return ok({ success: true, file: r.file, fromFile: r.fromFile, protocols: sor.protocols })
  })

  api.post('/api/v1/sor/pools/scan', async () => {
    const r = value(await sor.scan())
    return ok({ success: true, ...r, poolsTracked: sor.graph.pools.size })
  })

  api.get('/api/v1/sor/pools', async req => {
    const protocol = req.query.get('protocol')?.trim() || null
    const token = optionalAddress(req.query, 'token')
    const pools = [...sor.graph.pools.values()].filter(
      p => (!protocol || p.protocol === protocol) && (!token || p.tokens.includes(token)),
    )
    const tokens = await tokenMap([...new Set(pools.flatMap(p => p.tokens))])
    return ok({ total: pools.length, pools: pools.map(p => poolView(p, sor.graph, tokens)) })
  })

  api.post('/api/v1/sor/pool-state/refresh', async () => ok({ success: true, ...value(await sor.refresh()) }))

  api.get('/api/v1/sor/pool-state', req => {
    const g = sor.graph
    const head = {
      asOfBlock: g.asOfBlock === null ? null : String(g.asOfBlock),
      refreshedAt: g.refreshedAt === null ? null : new Date(g.refreshedAt).toISOString(),
    }
    const address = optionalAddress(req.query, 'address')
    if (address) {
      const p = g.pools.get(address)
      if (!p) throw SorErrors.poolNotTracked(address)
      return ok({ ...head, ...stateView(p, g.states.get(address)) })
    }
    const states = [...g.pools.values()]
      .filter(p => g.states.has(p.address))
      .map(p => stateView(p, g.states.get(p.address)))
    return ok({ ...head, count: states.length, states })
  })

  api.get('/api/v1/sor/health', () =>
    ok(
      healthView(sor.graph, {
        rpcConfigured: !!sor.client,
        protocols: sor.protocols.length,
        staleAfterSecs: config.SOR_STALE_AFTER_SECS,
        lastScan: sor.lastScan,
        follow: sor.follow,
      }),
    ),
  )

  api.get('/api/v1/sor/coverage', async () => {
    const g = sor.graph
    const tokens = await tokenMap(g.tokens())
    const pairs = coverage(g, tokens)
    return ok({
      asOfBlock: g.asOfBlock === null ? null : String(g.asOfBlock),
      tokens: new Set(pairs.flatMap(p => [p.tokenA.address, p.tokenB.address])).size,
      pairCount: pairs.length,
      pairs,
    })
  })
}

/** The value of an outcome, or its reply (the API surface's one table). */
function value<T>(o: SorOutcome<T>): T {
  if (!o.ok) throw apiReply(o)
  return o.value
}

export async function sorModule(
  ctx: EngineContext,
  { tokens }: { tokens: Pick<TokenRegistry, 'resolve'> },
): Promise<{ routeFinder: RouteFinder }> {
  const log = ctx.log.child({ module: 'sor' })
  const sor = await createSorService({
    config: ctx.config,
    sql: ctx.sql,
    routePool: ctx.routePool,
    log,
    searched: s => ctx.metrics.flow.routeSearch(s),
  })
  sorRoutes(ctx, sor, tokens)
  ctx.onShutdown(() => sor.stop())
  sorMetrics(ctx.metrics, sor)
  return { routeFinder: sor.routeFinder }
}
