// What travels between cluster nodes: the RFQ events a node originates, as msgpack. Amounts travel as
// decimal strings and times as epoch ms, so a bigint is exact and a Date survives; a private RFQ travels
// with its share token's hash only (the token itself never leaves the node that created the RFQ).
import { Packr } from 'msgpackr'
import type { AcceptedQuote, Rfq, RfqEvent } from '../../actors/rfqTypes.js'

const packr = new Packr({ useRecords: false })

type WireRfq = Omit<Rfq, 'amountIn' | 'amountOut' | 'createdAt' | 'shareToken'> & { amountIn: string | null; amountOut: string | null; createdAt: number }
type WireQuote = Omit<AcceptedQuote, 'receivedAt'> & { receivedAt: number }

/** One event as sent: `n` the origin node, `s` its per-node sequence (a gap means a lost message). */
export type WireEvent = { n: string; s: number } & (
  | { t: 'created'; rfq: WireRfq; h: string | null }
  | { t: 'quoted'; q: WireQuote }
  | { t: 'cancelled'; id: string; at: number }
  | { t: 'filled'; id: string; tx: string }
  | { t: 'fill'; fill: Extract<RfqEvent, { type: 'fill.recorded' }>['fill']; v: 'public' | 'private' })

/** A local event as it travels, or null for events every node makes for itself (expiry: each node's own timer). */
export function toWire(e: RfqEvent, n: string, s: number): Uint8Array | null {
  let w: WireEvent
  switch (e.type) {
    case 'rfq.created': {
      const { shareToken: _token, ...rfq } = e.rfq
      w = { n, s, t: 'created', h: e.shareTokenHash, rfq: { ...rfq, amountIn: str(rfq.amountIn), amountOut: str(rfq.amountOut), createdAt: rfq.createdAt.getTime() } }
      break
    }
    case 'rfq.quoted': w = { n, s, t: 'quoted', q: { ...e.quote, receivedAt: e.quote.receivedAt.getTime() } }; break
    case 'rfq.cancelled': w = { n, s, t: 'cancelled', id: e.rfqId, at: e.cancelledAt.getTime() }; break
    case 'rfq.filled': w = { n, s, t: 'filled', id: e.rfqId, tx: e.txHash }; break
    case 'fill.recorded': w = { n, s, t: 'fill', fill: e.fill, v: e.visibility }; break
    default: return null
  }
  return packr.pack(w)
}

/** The event a node applies, with its origin; throws on a message that is not one (the caller counts and drops it). */
export function fromWire(bytes: Uint8Array): { origin: string; seq: number; event: RfqEvent } {
  const w = packr.unpack(bytes) as WireEvent
  if (typeof w !== 'object' || w === null || typeof w.n !== 'string' || typeof w.s !== 'number') throw new Error('not a cluster event')
  const origin = w.n, seq = w.s
  switch (w.t) {
    case 'created': {
      const r = w.rfq
      const rfq: Rfq = { ...r, amountIn: big(r.amountIn), amountOut: big(r.amountOut), createdAt: new Date(r.createdAt), shareToken: null }
      return { origin, seq, event: { type: 'rfq.created', rfq, shareTokenHash: w.h, remote: true } }
    }
    case 'quoted': return { origin, seq, event: { type: 'rfq.quoted', rfqId: w.q.rfqId, quote: { ...w.q, receivedAt: new Date(w.q.receivedAt) }, remote: true } }
    case 'cancelled': return { origin, seq, event: { type: 'rfq.cancelled', rfqId: w.id, cancelledAt: new Date(w.at), remote: true } }
    case 'filled': return { origin, seq, event: { type: 'rfq.filled', rfqId: w.id, txHash: w.tx, remote: true } }
    case 'fill': return { origin, seq, event: { type: 'fill.recorded', fill: w.fill, visibility: w.v, remote: true } }
    default: throw new Error(`unknown cluster event ${String((w as { t?: unknown }).t)}`)
  }
}

const str = (v: bigint | null) => v === null ? null : v.toString()
const big = (v: string | null) => v === null ? null : BigInt(v)
