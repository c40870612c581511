// The relay's REST polling, on the same port as its WebSocket (no /api/v1 prefix, per the spec).
//   GET /health   {status, chainId, contractAddress, activeRfqs, totalQuotes, connectedClients, uptime (s),
//                  domain: {name, version, chainId, verifyingContract}, cluster?: {nodeId, nats, peers}}:
//                  makers sign under `domain`; `cluster` only on a cluster node. activeRfqs and totalQuotes
//                  count what everyone may see: the public RFQs and their quotes.
//   GET /rfqs     {rfqs: [{id, taker, tokenIn, tokenOut, kind, amountIn, amountOut, expiry, visibility,
//                  status, quoteCount, createdAt}], count, cursor}: live, unexpired RFQs, newest first.
//                  Private RFQs are listed only with ?shareToken= matching theirs.
//   GET /quotes?rfqId=  {rfqId, status, endedAt, endedBy, quotes: [{quote, signature, receivedAt}], count, cursor}:
//                  a live RFQ's quotes, else the stored ones of an RFQ that has left the relay; status as every
//                  reader shows it (an expiry not stored yet reads EXPIRED), endedAt/endedBy null while it is open.
//                  400 without rfqId; 404 `{error: "RFQ not found", code: "RFQ_NOT_FOUND"}` for an unknown id and,
//                  in the same bytes by the same path, for a private one without its ?shareToken=.
//   GET /asyncapi.json  the WebSocket protocol as an AsyncAPI 3.0 document (contract/asyncapi.ts), built once.
import type { EngineContext } from '../context.js'
import type { RfqBook } from '../../actors/book.js'
import { hashShareToken } from '../../actors/book.js'
import type { IndexedRfq, LiveIndex } from '../../actors/liveIndex.js'
import { accessOf } from '../../actors/liveIndex.js'
import type { Domain } from '../../workers/sig/types.js'
import { ok } from '../front/request.js'
import { cancelAuthMode } from './cancelAuth.js'
import { VERSION } from '../version.js'
import { canSee, type Viewer } from '../../actors/visibility.js'
import { tokenViewer } from '../front/viewer.js'
import { Errors, HttpError } from '../front/errors.js'
import { quotesOfRfqs, rfqAccess } from '../store/rfqs.js'
import { effectiveEnd } from '../store/rfqQueries.js'
import { asyncapiDocument } from './contract/asyncapi.js'
import { poll, pollParams, rfqItems, quoteItems, quoteListItem, encodeCursor, BodyCache } from './polling.js'

/** One answer for an RFQ the caller may not see and for one that does not exist: the same bytes, the same path. */
const rfqNotFound = () => new HttpError(404, 'RFQ not found', { code: 'RFQ_NOT_FOUND' })

export interface RelayRouteDeps {
  book: RfqBook
  domain: Domain & { chainId: number }
  connectedClients: () => number
  index: LiveIndex
  /** cluster mode: this node's id, its NATS link and the peers it hears */
  cluster?: () => object
}

export function relayRoutes(ctx: EngineContext, deps: RelayRouteDeps): void {
  const { book, domain } = deps
  const r = ctx.surfaces.relay
  const cancelAuth = cancelAuthMode(ctx.config)

  // degraded (503) while PostgreSQL does not answer: quotes cannot be made durable, so none are accepted
  r.get('/health', () => {
    const up = ctx.databaseUp()
    return {
      status: up ? 200 : 503,
      body: {
        status: up ? 'ok' : 'degraded',
        chainId: domain.chainId,
        contractAddress: domain.verifyingContract,
        activeRfqs: book.publicCounts.rfqs,
        totalQuotes: book.publicCounts.quotes,
        connectedClients: deps.connectedClients(),
        uptime: Math.floor((Date.now() - ctx.startedAt) / 1000),
        cancelAuth, // 'open' (anyone may cancel) or 'signature' (the taker signs)
        version: VERSION,
        domain: {
          name: domain.name,
          version: domain.version,
          chainId: domain.chainId,
          verifyingContract: domain.verifyingContract,
        },
        ...(up ? {} : { database: 'down' }),
        ...(deps.cluster ? { cluster: deps.cluster() } : {}),
      },
    }
  })

  const asyncapi = asyncapiDocument({ domain, version: VERSION })
  r.get('/asyncapi.json', () => ok(asyncapi))

  // Polling is served from the LiveIndex (memory); see polling.ts for ETag, cursor, since and wait.
  const { index } = deps
  const rfqBodies = new BodyCache(),
    quoteBodies = new BodyCache()
  r.get('/rfqs', async req => {
    const p = pollParams(req)
    if ('code' in p) throw Errors.badRequest(p.message, { code: p.code })
    const hash = shareHash(req)
    const token = req.query.get('shareToken')
    // a cluster node the RFQ's word has not reached yet reads it from the store: the token's first poll is complete
    if (token && !book.rfqForShareToken(token)) await book.adoptShared(token)
    const viewer = tokenViewer(token)
    const view = {
      position: () => index.positionFor(viewer),
      items: rfqItems(index, r => visible(r, viewer)),
      scope: { viewer },
    }
    const reply = await poll(
      index,
      p,
      hash ?? '-',
      req,
      view,
      (rfqs, cursor) => ({ rfqs, count: rfqs.length, cursor }),
      rfqBodies,
    )
    if (!reply) throw new Error('a list view is never invisible')
    return reply
  })

  r.get('/quotes', async req => {
    const rfqId = req.query.get('rfqId')
    if (!rfqId) throw Errors.badRequest('Missing rfqId')
    const p = pollParams(req)
    if ('code' in p) throw Errors.badRequest(p.message, { code: p.code })
    const hash = shareHash(req)
    const viewer = tokenViewer(req.query.get('shareToken'))
    const indexed = index.get(rfqId)
    // the visibility rule first, before any ETag is compared: a 304 is only ever an answer about what the caller may see
    if (indexed && visible(indexed, viewer)) {
      const view = {
        position: () => index.get(rfqId)?.lastSeq ?? indexed.lastSeq,
        items: quoteItems(index, rfqId, r => visible(r, viewer)),
        scope: { rfqId },
      }
      const reply = await poll(
        index,
        p,
        `${hash ?? '-'}.${rfqId}`,
        req,
        view,
        (items, cursor) => ({
          rfqId,
          ...endOf(index.get(rfqId) ?? indexed),
          quotes: items.map(i => quoteListItem(i.quote)),
          count: items.length,
          cursor,
        }),
        quoteBodies,
      )
      if (reply) return reply
    }
    // not in memory (left the relay long ago, or before this process started), or not the caller's to see: storage,
    // the one path on which an unknown id and a private one the caller may not see are both refused
    const stored = await rfqAccess(ctx.sql, rfqId)
    // the one rule: a stored private row with no token hash is seen by nobody here (null never equals null)
    if (!stored || !canSee({ ...stored, agentId: null }, viewer)) throw rfqNotFound()
    const quotes = (await quotesOfRfqs(ctx.sql, [rfqId])).get(rfqId) ?? []
    return ok({
      rfqId,
      ...endOf(stored),
      quotes: quotes.map(quoteListItem),
      count: quotes.length,
      cursor: encodeCursor(index.positionFor(viewer)),
    })
  })
}

function shareHash(req: { query: URLSearchParams }): string | null {
  const token = req.query.get('shareToken')
  return token ? hashShareToken(token) : null
}

/** How it ended, as every reader shows it (engine/store/rfqQueries.ts effectiveEnd). */
function endOf(r: Parameters<typeof effectiveEnd>[0] | IndexedRfq) {
  const e = effectiveEnd('rfq' in r ? { ...r, expiry: r.rfq.expiry } : r)
  return { status: e.status, endedAt: e.endedAt?.toISOString() ?? null, endedBy: e.endedBy }
}

/** The visibility rule (actors/visibility.ts) for an indexed RFQ. */
function visible(r: IndexedRfq, viewer: Viewer): boolean {
  return canSee(accessOf(r), viewer)
}
