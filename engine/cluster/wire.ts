// What travels between cluster nodes: the RFQ events a node originates, as msgpack. Amounts travel as
// decimal strings and times as epoch ms, so a bigint is exact and a Date survives; a private RFQ travels
// with its share token's hash only (the token itself never leaves the node that created the RFQ).
import { Packr } from 'msgpackr'
import type { AcceptedQuote, Address, Rfq, RfqEvent } from '../../actors/rfqTypes.js'

const packr = new Packr({ useRecords: false })

type WireRfq = Omit<Rfq, 'amountIn' | 'amountOut' | 'createdAt' | 'shareToken'> & { amountIn: string | null; amountOut: string | null; createdAt: number }
/**
 * A quote as a tuple: a node decodes one per quote of the venue, so the fewer objects and keys the better
 * (rfqId, maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline, signature, receivedAt ms).
 */
type WireQuote = [string, string, string, string, string, string, string, number, string, number, string, number]

/** One event as it travels (inside a batch). */
export type WireEvent = (
  | { t: 'created'; rfq: WireRfq; h: string | null }
  | { t: 'quoted'; q: WireQuote }
  | { t: 'cancelled'; id: string; at: number }
  | { t: 'filled'; id: string; tx: string }
  | { t: 'fill'; fill: Extract<RfqEvent, { type: 'fill.recorded' }>['fill']; v: 'public' | 'private' })

/**
 * One message: `n` the origin node, `s` its per-node sequence (a gap means a lost message), `e` the events of
 * one turn of its event loop. A group commit acknowledges hundreds of quotes in one turn; one message for
 * all of them saves every node a NATS message, a callback and an unpack per quote.
 */
export interface WireBatch { n: string; s: number; e: WireEvent[] }

/** A local event as it travels, or null for events every node makes for itself (expiry: each node's own timer). */
export function toWire(e: RfqEvent): WireEvent | null {
  switch (e.type) {
    case 'rfq.created': {
      const { shareToken: _token, ...rfq } = e.rfq
      return { t: 'created', h: e.shareTokenHash, rfq: { ...rfq, amountIn: str(rfq.amountIn), amountOut: str(rfq.amountOut), createdAt: rfq.createdAt.getTime() } }
    }
    case 'rfq.quoted': {
      const { rfqId, quote: q, signature, receivedAt } = e.quote
      return { t: 'quoted', q: [rfqId, q.maker, q.taker, q.tokenIn, q.tokenOut, q.amountIn, q.amountOut, q.expiry, q.nonce, q.deadline, signature, receivedAt.getTime()] }
    }
    case 'rfq.cancelled': return { t: 'cancelled', id: e.rfqId, at: e.cancelledAt.getTime() }
    case 'rfq.filled': return { t: 'filled', id: e.rfqId, tx: e.txHash }
    case 'fill.recorded': return { t: 'fill', fill: e.fill, v: e.visibility }
    default: return null
  }
}

export function packBatch(n: string, s: number, e: WireEvent[]): Uint8Array {
  return packr.pack({ n, s, e } satisfies WireBatch)
}

/** A batch's origin, sequence and events; throws on a message that is not one (the caller counts and drops it). */
export function unpackBatch(bytes: Uint8Array): { origin: string; seq: number; events: WireEvent[] } {
  const b = packr.unpack(bytes) as WireBatch
  if (typeof b !== 'object' || b === null || typeof b.n !== 'string' || typeof b.s !== 'number' || !Array.isArray(b.e)) throw new Error('not a cluster message')
  return { origin: b.n, seq: b.s, events: b.e }
}

/** The event a node applies; throws on one it does not know, or whose shape is not an event's. */
export function fromWire(w: WireEvent): RfqEvent {
  if (typeof w !== 'object' || w === null) throw new Error('not a cluster event')
  switch (w.t) {
    case 'created': {
      const r = w.rfq
      if (typeof r !== 'object' || r === null || typeof r.id !== 'string' || !r.id || typeof r.expiry !== 'number' || typeof r.createdAt !== 'number'
        || (r.visibility !== 'public' && r.visibility !== 'private') || !Array.isArray(r.allowedMakers)) throw new Error('not an RFQ')
      const rfq: Rfq = { ...r, amountIn: big(r.amountIn), amountOut: big(r.amountOut), createdAt: new Date(r.createdAt), shareToken: null }
      return { type: 'rfq.created', rfq, shareTokenHash: w.h, remote: true }
    }
    case 'quoted': {
      if (!Array.isArray(w.q) || w.q.length !== 12 || typeof w.q[0] !== 'string' || typeof w.q[1] !== 'string') throw new Error('not a quote')
      const [rfqId, maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline, signature, receivedAt] = w.q
      const quote: AcceptedQuote = { rfqId, signature: signature as AcceptedQuote['signature'], receivedAt: new Date(receivedAt),
        quote: { maker: maker as Address, taker: taker as Address, tokenIn: tokenIn as Address, tokenOut: tokenOut as Address, amountIn, amountOut, expiry, nonce, deadline } }
      return { type: 'rfq.quoted', rfqId, quote, remote: true }
    }
    case 'cancelled': return { type: 'rfq.cancelled', rfqId: w.id, cancelledAt: new Date(w.at), remote: true }
    case 'filled': return { type: 'rfq.filled', rfqId: w.id, txHash: w.tx, remote: true }
    case 'fill': return { type: 'fill.recorded', fill: w.fill, visibility: w.v, remote: true }
    default: throw new Error(`unknown cluster event ${String((w as { t?: unknown }).t)}`)
  }
}

const str = (v: bigint | null) => v === null ? null : v.toString()
const big = (v: string | null) => v === null ? null : BigInt(v)
