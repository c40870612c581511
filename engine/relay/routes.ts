// The relay's REST polling, on the same port as its WebSocket (no /api/v1 prefix, per the spec).
//   GET /health   {status, chainId, contractAddress, activeRfqs, totalQuotes, connectedClients, uptime (s),
//                  domain: {name, version, chainId, verifyingContract}}: makers sign under `domain`
//   GET /rfqs     {rfqs: [{id, taker, tokenIn, tokenOut, kind, amountIn, amountOut, expiry, visibility,
//                  status, quoteCount, createdAt}], count}: live, unexpired RFQs, newest first.
//                  Private RFQs are listed only with ?shareToken= matching theirs.
//   GET /quotes?rfqId=  {rfqId, status, quotes: [{quote, signature, receivedAt}], count}: a live RFQ's
//                  quotes, else the stored ones of an RFQ that has left the relay. 400 without rfqId,
//                  404 for an unknown one (or a private one without its ?shareToken=).
import type { EngineContext } from '../context.js'
import type { RfqBook } from '../../actors/book.js'
import { hashShareToken } from '../../actors/book.js'
import type { AcceptedQuote, Rfq, RfqView } from '../../actors/rfqTypes.js'
import type { Domain } from '../../workers/sig/types.js'
import { ok } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { quotesOfRfqs, rfqAccess } from '../store/rfqs.js'

export interface RelayRouteDeps {
  book: RfqBook
  domain: Domain & { chainId: number }
  connectedClients: () => number
}

export function relayRoutes(ctx: EngineContext, deps: RelayRouteDeps): void {
  const { book, domain } = deps
  const r = ctx.surfaces.relay

  r.get('/health', () => ok({
    status: 'ok', chainId: domain.chainId, contractAddress: domain.verifyingContract,
    activeRfqs: book.activeRfqs, totalQuotes: book.totalQuotes, connectedClients: deps.connectedClients(),
    uptime: Math.floor((Date.now() - ctx.startedAt) / 1000),
    domain: { name: domain.name, version: domain.version, chainId: domain.chainId, verifyingContract: domain.verifyingContract },
  }))

  r.get('/rfqs', async req => {
    const token = req.query.get('shareToken')
    const hash = token ? hashShareToken(token) : null
    const nowSec = Date.now() / 1000
    const views = (await book.listLive()).filter(v => v.rfq.expiry > nowSec && canSee(v.rfq, book, hash))
    return ok({ rfqs: views.map(listItem), count: views.length })
  })

  r.get('/quotes', async req => {
    const rfqId = req.query.get('rfqId')
    if (!rfqId) throw Errors.badRequest('Missing rfqId')
    const token = req.query.get('shareToken')
    const hash = token ? hashShareToken(token) : null
    const live = book.peek(rfqId)
    if (live) {
      const view = live.rfq.visibility === 'public' || live.shareTokenHash === hash ? await book.describe(rfqId) : undefined
      if (view) return ok({ rfqId, status: view.status, quotes: view.quotes.map(quoteItem), count: view.quoteCount })
    }
    const stored = await rfqAccess(ctx.sql, rfqId)
    if (!stored || (stored.visibility === 'private' && stored.shareTokenHash !== hash)) throw Errors.notFound('RFQ not found')
    const quotes = (await quotesOfRfqs(ctx.sql, [rfqId])).get(rfqId) ?? []
    return ok({ rfqId, status: stored.status, quotes: quotes.map(quoteItem), count: quotes.length })
  })
}

function canSee(rfq: Rfq, book: RfqBook, hash: string | null): boolean {
  return rfq.visibility === 'public' || (hash !== null && book.peek(rfq.id)?.shareTokenHash === hash)
}

function listItem(v: RfqView) {
  const q = v.rfq
  return {
    id: q.id, taker: q.taker, tokenIn: q.tokenIn, tokenOut: q.tokenOut, kind: q.kind,
    amountIn: q.amountIn === null ? null : q.amountIn.toString(), amountOut: q.amountOut === null ? null : q.amountOut.toString(),
    expiry: q.expiry, visibility: q.visibility, status: v.status, quoteCount: v.quoteCount, createdAt: q.createdAt.toISOString(),
  }
}

function quoteItem(q: AcceptedQuote) {
  return { quote: q.quote, signature: q.signature, receivedAt: q.receivedAt.toISOString() }
}
