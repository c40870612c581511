// The REST shapes of an RFQ. Tokens are {address, symbol, decimals} objects here (plain
// addresses on the relay); amounts are bigint and serialise as decimal strings.
import type { RfqView } from '../../actors/rfqTypes.js'
import type { RfqRow } from '../store/rfqQueries.js'
import { effectiveEnd } from '../store/rfqQueries.js'
import type { TokenRegistry, TokenView } from '../tokens/registry.js'

export type Tokens = Map<string, TokenView>

/** A list item (public list and the agent db listing). */
export function rowItem(r: RfqRow, tokens: Tokens, nowMs?: number) {
  return {
    ...terms(r, tokens),
    ...end(effectiveEnd(r, nowMs)),
    quoteCount: r.quoteCount,
    createdAt: r.createdAt.toISOString(),
  }
}

/** A live RFQ as a list item (the agent live listing). */
export function liveItem(v: RfqView, tokens: Tokens, nowMs?: number) {
  const r = v.rfq
  return {
    ...terms(r, tokens),
    ...end(liveEnd(v, nowMs)),
    quoteCount: v.quoteCount,
    createdAt: r.createdAt.toISOString(),
  }
}

/** GET /api/v1/rfqs/:id for a live RFQ (amountOut added beside the spec's fields: EXACT_OUT needs it). */
export function liveDetail(v: RfqView, tokens: Tokens, nowMs?: number) {
  const r = v.rfq
  return {
    rfq: {
      ...terms(r, tokens),
    },
    quotes: v.quotes.map(q => ({ maker: q.quote.maker, amountOut: q.quote.amountOut, signature: q.signature })),
    ...end(liveEnd(v, nowMs)),
    quoteCount: v.quoteCount,
  }
}

/** GET /api/v1/rfqs/:id from storage. */
export function persistedDetail(r: RfqRow, tokens: Tokens, nowMs?: number) {
  return {
    rfq: {
      ...terms(r, tokens),
      createdAt: r.createdAt.toISOString(),
    },
    ...end(effectiveEnd(r, nowMs)),
    quoteCount: r.quoteCount,
    fillTxHash: r.fillTxHash,
  }
}

/** The RFQ's terms, first in every REST shape of it: who asks, which tokens (as objects), how much, until when, to whom. */
function terms(r: RfqRow | RfqView['rfq'], tokens: Tokens) {
  return {
    id: r.id,
    taker: r.taker,
    tokenIn: token(tokens, r.tokenIn),
    tokenOut: token(tokens, r.tokenOut),
    kind: r.kind,
    amountIn: r.amountIn,
    amountOut: r.amountOut,
    expiry: r.expiry,
    visibility: r.visibility,
  }
}

/** A live view's end: one the actor reached, or its expiry once passed (a due timer may not have fired yet). */
export function liveEnd(v: RfqView, nowMs?: number) {
  return effectiveEnd({ status: v.status, expiry: v.rfq.expiry, endedAt: v.endedAt, endedBy: v.endedBy }, nowMs)
}

/** status, then when and by whom it ended (null while open): every REST shape of an RFQ carries the three. */
function end(e: ReturnType<typeof effectiveEnd>) {
  return { status: e.status, endedAt: e.endedAt?.toISOString() ?? null, endedBy: e.endedBy }
}

export function tokensOf(rows: { tokenIn: string; tokenOut: string }[], registry: TokenRegistry): Promise<Tokens> {
  return registry.views(rows.flatMap(r => [r.tokenIn, r.tokenOut]))
}

function token(tokens: Tokens, address: string): TokenView {
  return tokens.get(address.toLowerCase()) ?? { address: address.toLowerCase(), symbol: null, decimals: null }
}
