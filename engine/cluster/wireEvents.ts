// What travels between cluster nodes: the RFQ events a node originates, as msgpack. Amounts travel as
// decimal strings and times as epoch ms, so a bigint is exact and a Date survives; a private RFQ travels
// with its share token's hash only (the token itself never leaves the node that created the RFQ). A node's
// events leave in batches, signed and numbered (envelope.ts): the batch is an array of these.
import type { AcceptedQuote, Address, QuoteTerms, Rfq, RfqEvent } from '../../actors/rfqTypes.js'
import { isPlainObject, ZERO_ADDRESS } from '../../workers/values/index.js'

type WireRfq = Omit<Rfq, 'amountIn' | 'amountOut' | 'createdAt' | 'shareToken'> & {
  amountIn: string | null
  amountOut: string | null
  createdAt: number
}
/**
 * A quote as a bare tuple (the only event that is an array): every node decodes and keeps one per quote of
 * the venue, so the fewer objects, keys and strings the better. The terms a quote shares with its RFQ
 * (taker, tokens, the fixed amount) travel as null and are taken from the receiver's RFQ, the same string
 * objects for every quote of it; a taker of 0 is the zero address (any taker).
 * (rfqId, maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline, signature, receivedAt ms)
 */
type WireQuote = [
  string,
  string,
  string | 0 | null,
  string | null,
  string | null,
  string | null,
  string | null,
  number,
  string,
  number,
  string,
  number,
]

/** A quote for an RFQ this node does not hold: the caller reads the RFQ (and its quotes) from the store. */
export class UnknownRfq extends Error {
  constructor(readonly rfqId: string) {
    super(`quote for RFQ ${rfqId}, which this node does not hold`)
  }
}

/** One event as it travels (inside a batch: a group commit acknowledges hundreds of quotes in one turn, and one
 * message for all of them saves every node a NATS message, a callback and a signature check per quote). */
export type WireEvent =
  | WireQuote
  | { t: 'created'; rfq: WireRfq; h: string | null }
  | { t: 'cancelled'; id: string; at: number }
  | { t: 'filled'; id: string; tx: string }
  | { t: 'fill'; fill: Extract<RfqEvent, { type: 'fill.recorded' }>['fill']; v: 'public' | 'private' }

/**
 * A local event as it travels, or null for events every node makes for itself (expiry: each node's own timer).
 * `terms`: the quoted RFQ's, so what a quote shares with it stays home.
 */
export function toWire(e: RfqEvent, terms?: QuoteTerms): WireEvent | null {
  switch (e.type) {
    case 'rfq.created': {
      const { shareToken: _token, ...rfq } = e.rfq
      return {
        t: 'created',
        h: e.shareTokenHash,
        rfq: { ...rfq, amountIn: str(rfq.amountIn), amountOut: str(rfq.amountOut), createdAt: rfq.createdAt.getTime() },
      }
    }
    case 'rfq.quoted': {
      const { rfqId, quote: q, signature, receivedAtMs } = e.quote
      const t = terms?.id === rfqId ? terms : undefined
      return [
        rfqId,
        q.maker,
        q.taker === t?.taker ? null : q.taker === ZERO_ADDRESS ? 0 : q.taker,
        q.tokenIn === t?.tokenIn ? null : q.tokenIn,
        q.tokenOut === t?.tokenOut ? null : q.tokenOut,
        q.amountIn === t?.amountIn ? null : q.amountIn,
        q.amountOut === t?.amountOut ? null : q.amountOut,
        q.expiry,
        q.nonce,
        q.deadline,
        signature,
        receivedAtMs,
      ]
    }
    case 'rfq.cancelled':
      return { t: 'cancelled', id: e.rfqId, at: e.cancelledAt.getTime() }
    case 'rfq.filled':
      return { t: 'filled', id: e.rfqId, tx: e.txHash }
    case 'fill.recorded':
      return { t: 'fill', fill: e.fill, v: e.visibility }
    case 'rfq.expired':
      return null
  }
}

/**
 * The event a node applies; throws on one it does not know, or whose shape is not an event's, and
 * UnknownRfq for a quote whose RFQ `termsOf` does not know.
 */
export function fromWire(w: WireEvent, termsOf: (rfqId: string) => QuoteTerms | undefined = () => undefined): RfqEvent {
  if (typeof w !== 'object' || w === null) throw new Error('not a cluster event')
  if (Array.isArray(w)) return quoteFromWire(w, termsOf)
  switch (w.t) {
    case 'created': {
      const r = w.rfq
      if (
        !isPlainObject(r) ||
        typeof r.id !== 'string' ||
        !r.id ||
        !Number.isSafeInteger(r.expiry) ||
        (r.visibility !== 'public' && r.visibility !== 'private') ||
        !Array.isArray(r.allowedMakers)
      )
        throw new Error('not an RFQ')
      const rfq: Rfq = {
        ...r,
        amountIn: big(r.amountIn),
        amountOut: big(r.amountOut),
        createdAt: date(r.createdAt),
        shareToken: null,
      }
      return { type: 'rfq.created', rfq, shareTokenHash: w.h, remote: true }
    }
    case 'cancelled':
      return { type: 'rfq.cancelled', rfqId: rfqIdOf(w.id), cancelledAt: date(w.at), remote: true }
    case 'filled':
      return { type: 'rfq.filled', rfqId: rfqIdOf(w.id), txHash: w.tx, remote: true }
    case 'fill':
      return { type: 'fill.recorded', fill: w.fill, visibility: w.v, remote: true }
    default:
      throw new Error(`unknown cluster event ${String((w as { t?: unknown }).t)}`)
  }
}

function quoteFromWire(w: WireQuote, termsOf: (rfqId: string) => QuoteTerms | undefined): RfqEvent {
  if (
    w.length !== 12 ||
    typeof w[0] !== 'string' ||
    typeof w[1] !== 'string' ||
    typeof w[10] !== 'string' ||
    typeof w[11] !== 'number'
  )
    throw new Error('not a quote')
  const [id, maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline, signature, receivedAt] = w
  const t = termsOf(id)
  const rfqId = t?.id ?? id // the RFQ's own string, kept once for all its quotes
  const quote: AcceptedQuote = {
    rfqId,
    signature: signature as AcceptedQuote['signature'],
    receivedAtMs: ms(receivedAt),
    quote: {
      maker: maker as Address,
      taker: taker === 0 ? ZERO_ADDRESS : term(taker as Address | null, t, 'taker', id),
      tokenIn: term(tokenIn as Address | null, t, 'tokenIn', id),
      tokenOut: term(tokenOut as Address | null, t, 'tokenOut', id),
      amountIn: term(amountIn, t, 'amountIn', id)!,
      amountOut: term(amountOut, t, 'amountOut', id)!,
      expiry,
      nonce,
      deadline,
    },
  }
  return { type: 'rfq.quoted', rfqId, quote, remote: true }
}

/** A field as it travelled, or (null) its RFQ's; a plain function, not a closure per quote on the apply path. */
function term<K extends keyof QuoteTerms>(
  v: QuoteTerms[K] | null,
  t: QuoteTerms | undefined,
  k: K,
  id: string,
): QuoteTerms[K] {
  if (v !== null) return v
  if (!t) throw new UnknownRfq(id)
  if (t[k] === null) throw new Error('not a quote')
  return t[k]
}

/** A time as it travelled: ms since the epoch within a Date's range, or the event is not one (no Date made for it). */
function ms(x: unknown): number {
  if (typeof x !== 'number' || !(Math.abs(x) <= MAX_TIME_MS)) throw new Error('not a time')
  return Math.trunc(x) // as a Date's time would be
}
/** ECMAScript's time range: ±100,000,000 days from the epoch */
const MAX_TIME_MS = 8.64e15

/** A time as it travelled, as a Date that every reader can print. */
function date(x: unknown): Date {
  return new Date(ms(x))
}

function rfqIdOf(v: unknown): string {
  if (typeof v !== 'string' || !v) throw new Error('not an RFQ id')
  return v
}

const str = (v: bigint | null) => (v === null ? null : v.toString())
const big = (v: string | null) => (v === null ? null : BigInt(v))
