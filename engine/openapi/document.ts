// The OpenAPI 3.1 document of every REST endpoint of the service, on its three ports. Each path
// item carries `x-surfaces` (api, terminal, relay) and `servers`: the ports it is served on. The test in
// test/api/openapi.test.ts calls every documented route on that port and checks the reverse too
// (every mounted route is documented), which is what keeps this file true.
import { schemas, s } from './schemas.js'
import { VERSION } from '../version.js'
import type { Config } from '../config.js'
import { publicUrls } from '../console/publicUrls.js'

type Surface = 'api' | 'terminal' | 'relay'
interface Param { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: object; description?: string; example?: unknown }
interface Op {
  surface: Surface
  method: 'get' | 'post'
  path: string
  summary: string
  tag: string
  auth?: 'agent' | 'terminalKey'
  params?: Param[]
  body?: object
  ok?: { status?: number; schema?: object; description?: string; contentType?: string }
  errors?: number[]
}

const addressParam = (name: string, description: string): Param => ({ name, in: 'path', required: true, schema: s.address, description, example: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' })
const q = (name: string, schema: object, description?: string, required = false, example?: unknown): Param => ({ name, in: 'query', required, schema, description, ...(example !== undefined ? { example } : {}) })
const idParam: Param = { name: 'id', in: 'path', required: true, schema: s.str, description: 'RFQ id', example: 'rfq_00000000000000000000000000000000' }
const paging = [q('status', { enum: ['open', 'all'], default: 'all' }, '`open` = OPEN and QUOTED, unexpired'),
  q('limit', { type: 'integer', minimum: 1, maximum: 100, default: 50 }), q('cursor', s.str, 'the previous page\'s nextCursor (opaque)')]
const any = { type: 'object', additionalProperties: true }
const underlying = q('underlying', s.str, 'asset symbol', true, 'BTC')
const expiry = q('expiry', { type: 'string', pattern: '^\\d{8}$' }, 'YYYYMMDD', true, '20300101')

export const operations: Op[] = [
  // ---- RFQ REST API (api) ----
  { surface: 'api', method: 'get', path: '/health', summary: 'Liveness and database check', tag: 'ops', ok: { schema: any } },
  { surface: 'api', method: 'get', path: '/api/v1/health', summary: 'Liveness and database check', tag: 'ops', ok: { schema: any } },
  { surface: 'api', method: 'get', path: '/metrics', summary: 'Prometheus metrics', tag: 'ops', ok: { contentType: 'text/plain', schema: s.str } },
  { surface: 'api', method: 'get', path: '/api/v1/openapi.json', summary: 'This document', tag: 'ops', ok: { schema: any } },
  { surface: 'api', method: 'get', path: '/api/v1/tokens', summary: 'The token registry of the configured chain: its list, then tokens read on chain (docs/tokens.md)', tag: 'tokens',
    ok: { schema: s.obj({ chainId: s.int, list: s.obj({ name: s.str, version: s.str }), tokens: { type: 'array', items: s.ref('RegistryToken') } }) } },
  { surface: 'api', method: 'get', path: '/api/v1/rfqs', summary: 'RFQs, newest first, cursor-paged (no item skipped or repeated while new RFQs arrive)', tag: 'rfqs',
    params: paging, ok: { schema: s.ref('RfqPage') }, errors: [400, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/rfqs/{id}', summary: 'One RFQ: the live view (with quotes) first, else storage', tag: 'rfqs',
    params: [idParam], ok: { schema: s.ref('RfqDetail') }, errors: [404, 429] },
  { surface: 'api', method: 'post', path: '/api/v1/rfqs/{id}/cancel',
    summary: 'Cancel (only the taker): an agent key whose agentWallet is the taker, or body {signature, timestamp} with the taker\'s EIP-191 signature of "Cancel RFQ <id> at <timestamp>" (timestamp within 300 s)',
    tag: 'rfqs', params: [idParam], body: s.obj({ signature: s.str, timestamp: s.int }, []),
    ok: { schema: s.obj({ id: s.str, status: { const: 'CANCELLED' }, cancelledAt: s.iso }) }, errors: [400, 401, 403, 404, 409, 429] },
  { surface: 'api', method: 'post', path: '/api/v1/agent/register',
    summary: 'Register an agent. The owner signs (EIP-191) the six lines "RFQ agent registration", "name: <name>", "owner: <ownerWallet lowercase>", "agent: <agentWallet lowercase>", "roles: <role,role>", "timestamp: <unix seconds>" joined by \\n. A message is accepted once. Limited per IP (5/h, 15/day sliding).',
    tag: 'agents', body: s.ref('Register'), ok: { status: 201, schema: s.ref('Registered') }, errors: [400, 403, 409, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/agent/auth', summary: 'The calling agent and its rate limits', tag: 'agents', auth: 'agent', ok: { schema: s.ref('AgentAuth') }, errors: [401, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/agent/activity', summary: 'The calling agent\'s activity log, newest first', tag: 'agents', auth: 'agent',
    params: [q('limit', { type: 'integer', minimum: 1, maximum: 100, default: 50 })],
    ok: { schema: s.obj({ items: { type: 'array', items: s.obj({ action: s.str, rfqId: s.nullable(s.str), detail: any, at: s.iso }) } }) }, errors: [401, 429] },
  { surface: 'api', method: 'post', path: '/api/v1/agent/rfqs', summary: 'Create an RFQ (taker role); the taker is the agent\'s agentWallet', tag: 'agents', auth: 'agent',
    body: s.ref('CreateRfq'), ok: { status: 201, schema: s.ref('CreatedRfq') }, errors: [400, 401, 403, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/agent/rfqs',
    summary: 'RFQs for monitors (monitor role). source=live: {source, items, nextCursor: null}; db: {source, items, nextCursor}; both: {source, live: {items}, db: {items, nextCursor}}. status/limit/cursor apply to db.',
    tag: 'agents', auth: 'agent', params: [q('source', { enum: ['live', 'db', 'both'], default: 'live' }), ...paging], ok: { schema: any }, errors: [400, 401, 403, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/agent/rfqs/{id}', summary: 'One RFQ, as the public detail (any role)', tag: 'agents', auth: 'agent',
    params: [idParam], ok: { schema: s.ref('RfqDetail') }, errors: [401, 404, 429] },
  { surface: 'api', method: 'post', path: '/api/v1/agent/rfqs/{id}/fill', summary: 'Record the on-chain fill of the agent\'s own RFQ (taker role): marks it FILLED and records the fill with points',
    tag: 'agents', auth: 'agent', params: [idParam], body: s.ref('AgentFill'), ok: { schema: s.ref('AgentFillResult') }, errors: [400, 401, 403, 404, 409, 429] },
  { surface: 'api', method: 'post', path: '/api/v1/quotes', summary: 'Submit a signed quote over REST: the relay\'s QUOTE_SUBMIT path (same checks, broadcast on the relay). shareToken for private RFQs.',
    tag: 'rfqs', body: s.obj({ rfqId: s.str, quote: s.ref('Quote'), signature: s.str, shareToken: s.str }, ['rfqId', 'quote', 'signature']),
    ok: { schema: s.obj({ success: { const: true }, rfqId: s.str, quote: s.obj({ maker: s.address, amountIn: s.bigint, amountOut: s.bigint, signature: s.str }), receivedAt: s.iso }) },
    errors: [400, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/feed',
    summary: 'Server-sent events: rfq.created, rfq.quoted, rfq.cancelled, rfq.filled, rfq.expired, fill.recorded; each with an id (Last-Event-ID replays the last 512); heartbeat comments; one connection per client IP (a second gets 429)',
    tag: 'feed', ok: { contentType: 'text/event-stream', schema: s.str }, errors: [429] },
  { surface: 'api', method: 'get', path: '/api/v1/badges/{address}', summary: 'Badges earned from fills (cached 10 minutes)', tag: 'profile',
    params: [addressParam('address', 'wallet')], ok: { schema: s.obj({ address: s.address, badges: { type: 'array', items: s.ref('Badge') }, stats: s.ref('FillStats'), computedAt: s.iso, cachedUntil: s.iso }) }, errors: [400, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/profile/{address}', summary: 'A wallet\'s points, fills by role, badges, RFQ counts and agents', tag: 'profile',
    params: [addressParam('address', 'wallet')], ok: { schema: s.obj({ address: s.address, points: s.obj({ total: s.num, maker: s.num, taker: s.num }),
      asMaker: s.ref('RoleTotals'), asTaker: s.ref('RoleTotals'), stats: s.ref('FillStats'), badges: { type: 'array', items: s.ref('Badge') },
      rfqs: s.obj({ total: s.int, active: s.int, filled: s.int, cancelled: s.int, expired: s.int }), agents: { type: 'array', items: any } }) }, errors: [400, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/leaderboard', summary: 'Points leaderboard (all-time points from fills; the league\'s scores do not use points)', tag: 'profile',
    params: [q('role', { enum: ['all', 'maker', 'taker'], default: 'all' }), q('limit', { type: 'integer', minimum: 1, maximum: 100, default: 50 }), q('offset', { type: 'integer', minimum: 0, default: 0 })],
    ok: { schema: s.obj({ role: s.str, entries: { type: 'array', items: s.obj({ rank: s.int, address: s.address, points: s.num, fills: s.int, notionalUsd: s.num }) }, total: s.int, limit: s.int, offset: s.int, hasMore: s.bool }) }, errors: [400, 429] },
  // fills, benchmark, league
  { surface: 'api', method: 'post', path: '/api/v1/fills', summary: 'Record an on-chain fill (price improvement against the stored baseline, points v2)', tag: 'fills',
    body: s.ref('Fill'), ok: { schema: s.obj({ success: { const: true }, fill: s.ref('FillRecord') }) }, errors: [400, 409, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/bench/agg/price', summary: 'Informational price from an outside DEX aggregator (200 even when upstream fails)', tag: 'benchmark',
    params: [q('sellToken', s.address, undefined, true, '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'), q('buyToken', s.address, undefined, true, '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'), q('sellAmount', s.bigint, undefined, true, '1000000000000000000')],
    ok: { schema: any }, errors: [400, 429] },
  { surface: 'api', method: 'post', path: '/api/v1/rfq/baseline', summary: 'Store the AMM baseline shown at RFQ creation (upsert per rfqId)', tag: 'benchmark', body: any,
    ok: { schema: s.obj({ success: { const: true }, id: s.str }) }, errors: [400, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/rfq/performance', summary: 'Improvement of one RFQ\'s fill over its baseline', tag: 'benchmark',
    params: [q('rfqId', s.str, undefined, true, 'rfq_00000000000000000000000000000000')], ok: { schema: any }, errors: [400, 404, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/rfq/performance-summary', summary: 'Improvement summary over a window', tag: 'benchmark',
    params: [q('window', { enum: ['24h', '7d', '30d'], default: '7d' }), q('tokenIn', s.address), q('tokenOut', s.address)], ok: { schema: any }, errors: [400, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/league', summary: 'League standings by composite performance score', tag: 'league',
    params: [q('role', { enum: ['maker', 'taker'], default: 'maker' }), q('period', { enum: ['7d', '30d', 'all'], default: '7d' }), q('minUsd', s.num), q('search', s.str), q('limit', s.int), q('offset', s.int)],
    ok: { schema: s.obj({ role: s.str, period: s.str, minUsd: s.num, entries: { type: 'array', items: s.ref('LeagueEntry') }, totalParticipants: s.int, hasMore: s.bool, kpi: any }, ['role', 'period', 'entries']) }, errors: [400, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/league/activity', summary: 'Recent fills of one address in the league', tag: 'league',
    params: [q('address', s.address, 'lowercase', true, '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'), q('role', { enum: ['maker', 'taker'] }), q('period', { enum: ['7d', '30d', 'all'] }), q('limit', { type: 'integer', maximum: 50 })],
    ok: { schema: any }, errors: [400, 429] },
  // route finder
  { surface: 'api', method: 'get', path: '/api/v1/sor/quote', summary: 'Best swap route(s) across V2, V3 and stable-swap pools', tag: 'sor',
    params: [q('tokenIn', s.address, undefined, true, '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'), q('tokenOut', s.address, undefined, true, '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'),
      q('amountIn', s.bigint, undefined, true, '1000000000000000000'), q('maxHops', { enum: [1, 2] }), q('maxRoutes', s.int), q('maxSplit', s.int), q('slugs', s.str), q('explain', s.str)],
    ok: { schema: any }, errors: [400, 404, 429] },
  { surface: 'api', method: 'get', path: '/api/v1/sor/protocols', summary: 'Known protocols', tag: 'sor', ok: { schema: any } },
  { surface: 'api', method: 'get', path: '/api/v1/sor/pools', summary: 'Tracked pools', tag: 'sor', ok: { schema: any } },
  { surface: 'api', method: 'post', path: '/api/v1/sor/pools/scan', summary: 'Scan factories for new pools', tag: 'sor', ok: { schema: any } },
  { surface: 'api', method: 'get', path: '/api/v1/sor/pool-state', summary: 'Cached pool state', tag: 'sor', ok: { schema: any } },
  { surface: 'api', method: 'post', path: '/api/v1/sor/pool-state/refresh', summary: 'Refresh pool state from chain', tag: 'sor', ok: { schema: any } },
  { surface: 'api', method: 'post', path: '/api/v1/sor/protocols/sync', summary: 'Sync the protocol registry from the database', tag: 'sor', ok: { schema: any } },
  { surface: 'api', method: 'get', path: '/api/v1/sor/health', summary: 'Route finder health and pool state summary', tag: 'sor', ok: { schema: any } },
  { surface: 'api', method: 'get', path: '/api/v1/sor/coverage', summary: 'Token pair coverage and estimated liquidity', tag: 'sor', ok: { schema: any } },
  // ---- the web console (docs/console.md) ----
  { surface: 'api', method: 'get', path: '/', summary: 'The web console: live RFQs and quotes, league, options, route finder, health (503 CONSOLE_NOT_BUILT until `make build`)', tag: 'console',
    ok: { contentType: 'text/html', schema: s.str }, errors: [503] },
  { surface: 'api', method: 'get', path: '/assets/{file}', summary: 'The console\'s content-hashed script and stylesheet (immutable; brotli or gzip when accepted)', tag: 'console',
    params: [{ name: 'file', in: 'path', required: true, schema: s.str, example: 'main.js' }], ok: { contentType: 'text/javascript', schema: s.str }, errors: [404] },
  { surface: 'api', method: 'get', path: '/console/config.json', tag: 'console',
    summary: 'Where the console finds the other surfaces: {ports: {api, terminal, relay}, urls: {terminal, relay, relayWs} '
      + '(public URLs behind a proxy, else null), chainId, version, terminalKeyRequired}',
    ok: { schema: s.obj({ ports: any, urls: any, chainId: s.int, version: s.str, terminalKeyRequired: { type: 'boolean' } }) } },
  // ---- options market data (terminal) ----
  { surface: 'terminal', method: 'get', path: '/health', summary: 'Liveness: {status: "ok"}; no authentication', tag: 'options', ok: { schema: s.obj({ status: { const: 'ok' } }) } },
  { surface: 'terminal', method: 'get', path: '/options/tape', summary: 'Unified trade tape, ts descending', tag: 'options', auth: 'terminalKey',
    params: [q('underlying', s.str), q('limit', { type: 'integer', maximum: 500, default: 50 }), q('offset', s.int), q('liquidityGuess', { enum: ['all', 'rfq', 'clob', 'unknown'] }), q('venue', { enum: ['all', 'VENUE_A', 'VENUE_B'] })],
    ok: { schema: s.obj({ trades: { type: 'array', items: any }, count: s.int }) }, errors: [400, 401] },
  { surface: 'terminal', method: 'get', path: '/options/ladder', summary: 'Per-expiry strike ladder', tag: 'options', auth: 'terminalKey', params: [underlying, expiry], ok: { schema: any }, errors: [400, 401] },
  { surface: 'terminal', method: 'get', path: '/options/underlyings', summary: 'Each underlying with trades: {underlyings: [{underlying, tradeCount, lastTradeAt (ISO)}]}, by name', tag: 'options', auth: 'terminalKey',
    ok: { schema: s.obj({ underlyings: { type: 'array', items: s.obj({ underlying: s.str, tradeCount: s.int, lastTradeAt: s.nullable(s.iso) }) } }) }, errors: [401] },
  { surface: 'terminal', method: 'get', path: '/options/venues', summary: 'Per-expiry venue summaries', tag: 'options', auth: 'terminalKey', params: [underlying], ok: { schema: any }, errors: [400, 401] },
  { surface: 'terminal', method: 'get', path: '/options/strike-detail', summary: 'Per-strike pricing detail', tag: 'options', auth: 'terminalKey',
    params: [underlying, expiry, q('strike', s.num, 'display value', true, '100000'), q('isCall', { enum: ['true', 'false'] }, undefined, true, 'true')], ok: { schema: any }, errors: [400, 401] },
  // ---- relay REST (relay) ----
  { surface: 'relay', method: 'get', path: '/health', summary: 'Relay health: status, chainId, contractAddress, activeRfqs, totalQuotes, connectedClients, uptime', tag: 'relay', ok: { schema: any } },
  { surface: 'relay', method: 'get', path: '/asyncapi.json', summary: 'The relay WebSocket protocol as an AsyncAPI 3.0 document (docs/relay.md)', tag: 'relay', ok: { schema: any } },
  { surface: 'relay', method: 'get', path: '/rfqs', summary: 'Active, unexpired RFQs with quote counts', tag: 'relay', ok: { schema: any } },
  { surface: 'relay', method: 'get', path: '/quotes', summary: 'Quotes of one RFQ', tag: 'relay', params: [q('rfqId', s.str, undefined, true, 'rfq_00000000000000000000000000000000')], ok: { schema: any }, errors: [400, 404] },
]

type Servers = Record<Surface, { url: string; description: string; variables?: Record<string, { default: string; description: string }> }>

/**
 * The servers, from the running configuration: the API is this document's own origin (a relative URL);
 * the terminal and the relay are their public URLs behind a proxy (PUBLIC_TERMINAL_URL, PUBLIC_RELAY_URL),
 * else the same host at their configured ports (a variable a client sets).
 */
type ServerConfig = { API_PORT: number; TERMINAL_PORT: number; RELAY_PORT: number } & Partial<Pick<Config, 'PUBLIC_TERMINAL_URL' | 'PUBLIC_RELAY_URL'>>

export function serversFrom(c: ServerConfig): Servers {
  const host = { host: { default: 'localhost', description: 'the host this document was fetched from' } }
  const urls = publicUrls({ PUBLIC_TERMINAL_URL: c.PUBLIC_TERMINAL_URL, PUBLIC_RELAY_URL: c.PUBLIC_RELAY_URL })
  return {
    api: { url: '/', description: `RFQ, benchmark, route finder and league REST API (API_PORT ${c.API_PORT})` },
    terminal: urls.terminal
      ? { url: urls.terminal, description: 'options market data API (PUBLIC_TERMINAL_URL)' }
      : { url: `http://{host}:${c.TERMINAL_PORT}`, variables: host, description: 'options market data API (TERMINAL_PORT)' },
    relay: urls.relay
      ? { url: urls.relay, description: `relay REST; the WebSocket is ${urls.relayWs} (PUBLIC_RELAY_URL)` }
      : { url: `http://{host}:${c.RELAY_PORT}`, variables: host, description: 'relay REST; the same port serves the WebSocket (RELAY_PORT)' },
  }
}

export function openapiDocument(SERVERS: Servers = serversFrom({ API_PORT: 3000, TERMINAL_PORT: 3001, RELAY_PORT: 8080 })): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    // one path on several ports (/health): one path item listing every port's server
    const item = (paths[op.path] ??= { 'x-surfaces': [], servers: [] })
    const surfaces = item['x-surfaces'] as Surface[]
    if (!surfaces.includes(op.surface)) { surfaces.push(op.surface); (item.servers as unknown[]).push(SERVERS[op.surface]) }
    const previous = item[op.method] as { summary: string } | undefined
    const okStatus = String(op.ok?.status ?? 200)
    item[op.method] = {
      operationId: `${op.surface}_${op.method}_${op.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: previous ? `${previous.summary} | ${op.surface}: ${op.summary}` : surfaces.length > 1 || op.path === '/health' ? `${op.surface}: ${op.summary}` : op.summary,
      tags: [op.tag],
      ...(op.auth === 'agent' ? { security: [{ agentKey: [] }] } : op.auth === 'terminalKey' ? { security: [{ terminalKey: [] }, {}] } : {}),
      ...(op.params?.length ? { parameters: op.params } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
      responses: {
        [okStatus]: { description: op.ok?.description ?? 'OK', content: { [op.ok?.contentType ?? 'application/json']: { schema: op.ok?.schema ?? any } } },
        ...Object.fromEntries((op.errors ?? []).map(code => [String(code), { description: ERROR_TEXT[code] ?? 'Error', content: { 'application/json': { schema: s.ref('Error') } } }])),
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'RFQ engine', version: VERSION, description: 'RFQ REST API, fills, benchmark, route finder, league, options market data and relay REST. Errors are JSON {error, ...debug}; 429 carries Retry-After. Public endpoints of the API port: 100 requests/min per IP; agent endpoints: per-agent sliding limits.' },
    servers: Object.values(SERVERS),
    paths,
    components: {
      schemas,
      securitySchemes: {
        agentKey: { type: 'http', scheme: 'bearer', description: 'Agent API key (rfq_live_...), from POST /api/v1/agent/register' },
        terminalKey: { type: 'http', scheme: 'bearer', description: 'API_KEY of the options market data API, when the server sets one' },
      },
    },
  }
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input', 401: 'Missing or invalid API key', 403: 'Forbidden (role, signature or wallet)', 404: 'Not found',
  409: 'Conflict', 429: 'Rate limited (Retry-After)', 503: 'Unavailable',
}
