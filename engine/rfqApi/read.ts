// Reading RFQs: the public list (storage, keyset-paged), the detail (live first, then storage),
// and the agent listing (live, db or both).
import type { RfqDirectory } from '../../actors/rfqTypes.js'
import type { AgentAuth } from '../front/agentAuth.js'
import { canSee, type Viewer } from '../../actors/visibility.js'
import type { RfqService } from '../rfq/service.js'
import { viewerOf } from '../front/viewer.js'
import type { Sql } from '../store/db.js'
import type { Handler, Req } from '../front/request.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { ok, intParam } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { rfqPage, seqOfVisible } from '../store/rfqQueries.js'
import { encodeCursor, decodeCursor, type ListCursor } from './cursor.js'
import { liveDetail, liveItem, persistedDetail, rowItem, tokensOf } from './views.js'
import { OpenPageCache } from './openPageCache.js'
import { toJson } from '../front/json.js'

export const PAGE = { default: 50, max: 100 } as const

interface Deps {
  sql: Sql
  book: RfqDirectory
  tokens: TokenRegistry
  auth: Pick<AgentAuth, 'optionalAgent'>
  rfqs: RfqService
}

export function listHandler(deps: Deps & { openPages?: OpenPageCache }): Handler {
  return async req => {
    const viewer = await viewerOf(req, deps.auth)
    const cache = deps.openPages
    if (cache && req.query.get('status') === 'open' && OpenPageCache.cacheable(viewer)) {
      const p = paging(req) // a bad parameter is refused before the cache
      const key = `${p.limit}|${req.query.get('cursor') ?? ''}`
      return {
        status: 200,
        rawJson: await cache.get(
          key,
          async () => {
            const { page, rows } = await dbPageOf(deps, p, viewer)
            return { body: page, expiries: rows.map(r => r.expiry) }
          },
          toJson,
        ),
      }
    }
    return ok(await dbPage(deps, req, viewer))
  }
}

/** A private RFQ the viewer may not see answers exactly as an unknown id does. */
export function detailHandler(deps: Deps): Handler {
  return async req => {
    const found = await deps.rfqs.find(req.params.id!, await viewerOf(req, deps.auth))
    if (!found) throw Errors.notFound('Not found')
    return ok(
      found.live
        ? liveDetail(found.live, await tokensOf([found.live.rfq], deps.tokens))
        : persistedDetail(found.row!, await tokensOf([found.row!], deps.tokens)),
    )
  }
}

/** GET /api/v1/agent/rfqs: `{source, items, nextCursor}` for live or db; `{source: 'both', live: {items}, db: {items, nextCursor}}`. */
export function agentListHandler(deps: Deps): Handler {
  return async req => {
    const source = req.query.get('source') ?? 'live'
    if (source !== 'live' && source !== 'db' && source !== 'both')
      throw Errors.badRequest('source must be live, db or both')
    const viewer = await viewerOf(req, deps.auth)
    const db = source === 'live' ? null : await dbPage(deps, req, viewer)
    if (source === 'live') paging(req) // reject bad paging parameters even when unused
    const live = source === 'db' ? null : await liveItems(deps, viewer)
    if (source === 'live') return ok({ source, items: live, nextCursor: null })
    if (source === 'db') return ok({ source, ...db })
    return ok({ source, live: { items: live }, db })
  }
}

function paging(req: Req): { open: boolean; limit: number; cursor: ListCursor | null } {
  const q = req.query
  const status = q.get('status') ?? 'all'
  if (status !== 'open' && status !== 'all') throw Errors.badRequest('status must be open or all')
  const limit = intParam(q, 'limit', PAGE.default, 1, PAGE.max)
  if (limit === null) throw Errors.badRequest(`limit must be an integer from 1 to ${PAGE.max}`)
  const cursor = q.get('cursor')
  let decoded: ListCursor | null = null
  if (cursor !== null && cursor !== '') {
    decoded = decodeCursor(cursor)
    if (decoded === null) throw Errors.badRequest('Invalid cursor')
  }
  return { open: status === 'open', limit, cursor: decoded }
}

async function dbPage(deps: Deps, req: Req, viewer: Viewer) {
  return (await dbPageOf(deps, paging(req), viewer)).page
}

async function dbPageOf(deps: Deps, p: ReturnType<typeof paging>, viewer: Viewer) {
  let beforeSeq: number | null = null
  if (p.cursor) {
    // an id the viewer may not see reads as a made-up cursor: paging never tells where a private RFQ sits
    const seq = 'beforeSeq' in p.cursor ? p.cursor.beforeSeq : await seqOfVisible(deps.sql, p.cursor.afterId, viewer)
    if (seq === undefined) throw Errors.badRequest('Invalid cursor')
    beforeSeq = seq
  }
  const rows = await rfqPage(deps.sql, { open: p.open, limit: p.limit, beforeSeq, viewer })
  const page = rows.slice(0, p.limit)
  const tokens = await tokensOf(page, deps.tokens)
  return {
    rows,
    page: {
      items: page.map(r => rowItem(r, tokens)),
      nextCursor: rows.length > p.limit ? encodeCursor(page[page.length - 1]!.id) : null,
    },
  }
}

/** Every live RFQ, newest first (status, limit and cursor apply to source=db only, as the spec says). */
async function liveItems(deps: Deps, viewer: Viewer) {
  const views = (await deps.book.listLive()).filter(v =>
    canSee({ ...v.rfq, shareTokenHash: deps.book.peek(v.rfq.id)?.shareTokenHash ?? null }, viewer),
  )
  const tokens = await tokensOf(
    views.map(v => v.rfq),
    deps.tokens,
  )
  return views.map(v => liveItem(v, tokens))
}
