// The relay's WebSocket front on the relay port, beside the REST routes (uWS hands a GET without
// an Upgrade header on to the HTTP handler). Each frame is charged to the sender's IP, decoded
// (JSON, or msgpack for clients that asked), and dispatched: QUOTE_SUBMIT and CANCEL_REQUEST go
// to the book, PING is answered, anything else is an ERROR. Broadcasts go through uWS topics, one
// per encoding, so each message is encoded at most twice however many clients listen.
//
// Topics: `<enc>:rfqs` (public RFQ_BROADCAST), `<enc>:quotes` (public QUOTE_BROADCAST) and
// `<enc>:share:<sha256(shareToken)>` (both kinds for one private RFQ, only for sockets that
// presented its token). Extensions beyond the spec, all optional:
//   ?encoding=msgpack or subprotocol `msgpack`    binary msgpack frames
//   ?channels=rfqs,quotes                         which public broadcasts to receive (default both)
//   ?shareToken=T                                 join a private RFQ's broadcasts at connect
//   SUBSCRIBE {shareToken?, channels?}            the same after connecting; answered SUBSCRIBED
//   QUOTE_SUBMIT {..., shareToken}                the token of the private RFQ being quoted
import type { TemplatedApp, WebSocket } from '../front/uws.js'
import { uWS } from '../front/uws.js'
import type { Logger } from 'pino'
import type { RfqBook } from '../../actors/book.js'
import type { SubmitOptions } from '../../actors/rfqTypes.js'
import { hashShareToken } from '../../actors/book.js'
import { RelayErrors, type RelayError } from '../../actors/errors.js'
import { FixedWindowLimiter } from '../front/limits.js'
import type { LimitRegistry } from '../front/sharedLimits.js'
import { clientIp } from '../front/ip.js'
import { isUnavailable } from '../store/unavailable.js'
import { decodeInbound, encode, type Encoding, type RelayMessage } from './codec.js'
import { broadcast, rfqBroadcast, type Channel } from './broadcasts.js'
import { relayCancelProof, type CancelAuthMode } from './cancelAuth.js'
import type { RfqService } from '../rfq/service.js'
import { relayRefusal } from '../replies/relay.js'

const CHANNELS: readonly Channel[] = ['rfqs', 'quotes']
const MAX_SHARE_TOKENS = 64

export interface RelayOptions {
  book: RfqBook
  /** the one RFQ service: CANCEL_REQUEST goes through it like the REST cancel */
  rfqs: RfqService
  log: Logger
  rateLimitPerMin: number
  pingIntervalMs: number
  maxBackpressure: number
  maxPayload: number
  cancelAuth: CancelAuthMode
  trustProxy: boolean
  trustProxyHops: number
  /** open sockets per client IP; one more is refused at the upgrade with 429 */
  maxConnectionsPerIp: number
  /** where the message limiter is named, so a cluster shares its counts */
  limits: LimitRegistry
  /** each frame past the rate limit, by its type ('invalid': not a message) */
  onFrame?(type: string): void
}

interface Session {
  ip: string
  enc: Encoding
  channels: Set<Channel>
  /** share-token hash -> the token, for private RFQs this socket may see and quote */
  shares: Map<string, string>
  lastSeen: number
  awaitingPong: boolean
  limitedUntil: number
  closed: boolean
}

export interface RelaySockets {
  readonly connected: number
  /** open sockets by encoding, counted when asked (a scrape) */
  byEncoding(): Map<Encoding, number>
  close(): void
}

export function mountRelaySockets(app: TemplatedApp, o: RelayOptions): RelaySockets {
  const limiter = o.limits.register('relay.ws', new FixedWindowLimiter(o.rateLimitPerMin, 60_000))
  const sessions = new Set<WebSocket<Session>>()
  const perIp = new Map<string, number>()   // open sockets per client IP

  app.ws<Session>('/*', {
    compression: uWS.DISABLED,
    maxPayloadLength: o.maxPayload,
    maxBackpressure: o.maxBackpressure,
    closeOnBackpressureLimit: 1,      // a client that cannot keep up is closed, not silently skipped
    idleTimeout: 0,                   // liveness is the spec's PING/PONG, below
    upgrade(res, req, context) {
      // req is gone after this synchronous part: copy everything first
      const query = new URLSearchParams(req.getQuery() ?? '')
      const headers: Record<string, string> = {}
      req.forEach((k, v) => { headers[k] = v })
      const offered = (headers['sec-websocket-protocol'] ?? '').split(',').map(s => s.trim()).filter(Boolean)
      const enc: Encoding = query.get('encoding') === 'msgpack' || offered.includes('msgpack') ? 'msgpack' : 'json'
      const protocol = offered.includes(enc) ? enc : ''
      const ip = clientIp(res, headers, o.trustProxy, o.trustProxyHops)
      const open = perIp.get(ip) ?? 0
      if (open >= o.maxConnectionsPerIp) {
        res.cork(() => res.writeStatus('429 Too Many Requests').writeHeader('content-type', 'application/json').writeHeader('retry-after', '10')
          .end(JSON.stringify({ error: `Too many connections from this address (max ${o.maxConnectionsPerIp})`, code: 'TOO_MANY_CONNECTIONS' })))
        return
      }
      const session: Session = {
        ip, enc, channels: parseChannels(query.get('channels')), shares: new Map(),
        lastSeen: Date.now(), awaitingPong: false, limitedUntil: 0, closed: false,
      }
      const token = query.get('shareToken')
      if (token) session.shares.set(hashShareToken(token), token)
      res.upgrade(session, headers['sec-websocket-key'] ?? '', protocol, headers['sec-websocket-extensions'] ?? '', context)
    },
    open(ws) {
      const s = ws.getUserData()
      perIp.set(s.ip, (perIp.get(s.ip) ?? 0) + 1)   // uWS opens synchronously inside res.upgrade: the next upgrade sees it
      sessions.add(ws)
      for (const c of s.channels) ws.subscribe(`${s.enc}:${c}`)
      for (const hash of s.shares.keys()) ws.subscribe(`${s.enc}:share:${hash}`)
      // a token presented at connect opens its live RFQ as SUBSCRIBE does: the maker may connect after creation.
      // The book only, no store read before a single message is charged to this IP: an RFQ whose word is late
      // reaches the token's topic when it comes, or when a silent node's RFQs are reconciled from the store
      for (const token of s.shares.values()) {
        const rfq = o.book.rfqForShareToken(token)
        if (rfq) send(ws, s, rfqBroadcast(rfq))
      }
    },
    message(ws, frame, isBinary) {
      // a throw here would take the whole process (and every port) down: a bug answers one ERROR instead
      try { onMessage(ws, frame, isBinary) } catch (err) {
        o.log.error({ err }, 'relay message handler failed')
        const s = ws.getUserData()
        sendError(ws, s, RelayErrors.internalMessage())
      }
    },
    drain() { /* uWS buffers up to maxBackpressure; past it the socket is closed */ },
    close(ws) {
      const s = ws.getUserData()
      s.closed = true
      sessions.delete(ws)
      const n = (perIp.get(s.ip) ?? 1) - 1
      if (n > 0) perIp.set(s.ip, n); else perIp.delete(s.ip)
    },
  })

  function onMessage(ws: WebSocket<Session>, frame: ArrayBuffer, isBinary: boolean): void {
    const s = ws.getUserData()
    s.lastSeen = Date.now()
    s.awaitingPong = false
    const verdict = limiter.hit(s.ip)
    if (!verdict.ok) {
      // one ERROR per window, then silence until the window resets
      if (s.limitedUntil <= s.lastSeen) {
        s.limitedUntil = s.lastSeen + verdict.retryAfterSec * 1000
        sendError(ws, s, RelayErrors.rateLimited(o.rateLimitPerMin))
      }
      return
    }
    const inbound = decodeInbound(s.enc, frame, isBinary)
    o.onFrame?.(inbound.ok ? inbound.type : 'invalid')
    if (!inbound.ok) return sendError(ws, s, inbound.error)
    switch (inbound.type) {
      case 'QUOTE_SUBMIT':
        return void submitQuote(ws, inbound.data, { wellFormed: inbound.wellFormed, residual: inbound.residual })
      case 'CANCEL_REQUEST': return void cancel(ws, inbound.data)
      case 'PING': return send(ws, s, { type: 'PONG', data: {} })
      case 'PONG': return
      case 'SUBSCRIBE': return void subscribe(ws, inbound.data)
    }
  }

  /** `contract`: the schema's verdict on the frame (relay/contract/validate.ts), for the RFQ's actor */
  async function submitQuote(ws: WebSocket<Session>, d: Record<string, unknown>, contract: SubmitOptions): Promise<void> {
    const s = ws.getUserData()
    const rfqId = typeof d.rfqId === 'string' ? d.rfqId : undefined
    let shareToken: string | undefined
    if (typeof d.shareToken === 'string' && d.shareToken) {
      shareToken = d.shareToken
      addShare(ws, shareToken)     // before submitting: the broadcast of this quote goes to the token's topic
    } else if (rfqId && s.shares.size) {
      // the socket's tokens open the RFQ: a cluster node its word has not reached reads it first, to know which
      if (!o.book.peek(rfqId)) await o.book.adopt(rfqId)
      const hash = o.book.peek(rfqId)?.shareTokenHash
      if (hash) shareToken = s.shares.get(hash)
    }
    try {
      const v = await o.rfqs.submitQuote(d.rfqId as string, d.quote, d.signature, { shareToken, ...contract })
      if (!v.ok) sendError(ws, s, { code: v.code, message: v.message, ...(v.retryAfterMs ? { retryAfterMs: v.retryAfterMs } : {}) }, rfqId)
      // accepted: no direct reply; the QUOTE_BROADCAST reaches the submitter like everyone else
    } catch (err) {
      o.log.error({ err, rfqId }, 'quote submission failed')
      sendError(ws, s, RelayErrors.internal(), rfqId)
    }
  }

  async function cancel(ws: WebSocket<Session>, d: Record<string, unknown>): Promise<void> {
    const s = ws.getUserData()
    const rfqId = d.rfqId
    if (typeof rfqId !== 'string' || !rfqId) return sendError(ws, s, RelayErrors.cancelMissingRfqId())
    // this socket's share tokens, and one sent with the request, make it a viewer of those private RFQs
    const hashes = [...s.shares.keys(), ...(typeof d.shareToken === 'string' && d.shareToken ? [hashShareToken(d.shareToken)] : [])]
    try {
      const outcome = await o.rfqs.cancel(rfqId, relayCancelProof(o.cancelAuth, rfqId, d.signature),
        { viewer: { shareTokenHashes: hashes, agentId: null }, liveOnly: true, mustSee: true })
      if (!outcome.ok) sendError(ws, s, relayRefusal(outcome), rfqId)
      // success: no reply (spec)
    } catch (err) {
      o.log.error({ err, rfqId }, 'cancel failed')
      sendError(ws, s, isUnavailable(err) ? RelayErrors.unavailable() : RelayErrors.internalCancel(), rfqId)
    }
  }

  async function subscribe(ws: WebSocket<Session>, d: Record<string, unknown>): Promise<void> {
    const s = ws.getUserData()
    if (Array.isArray(d.channels)) {
      const wanted = new Set(d.channels.filter((c): c is Channel => CHANNELS.includes(c as Channel)))
      for (const c of CHANNELS) {
        if (wanted.has(c) && !s.channels.has(c)) ws.subscribe(`${s.enc}:${c}`)
        if (!wanted.has(c) && s.channels.has(c)) ws.unsubscribe(`${s.enc}:${c}`)
      }
      s.channels = wanted
    }
    const rfqIds: string[] = []
    if (typeof d.shareToken === 'string' && d.shareToken) {
      addShare(ws, d.shareToken)
      const id = await announceShared(ws, s, d.shareToken)
      if (id) rfqIds.push(id)
    }
    send(ws, s, { type: 'SUBSCRIBED', data: { channels: [...s.channels], rfqIds } })
  }

  /** SUBSCRIBE's token: its live RFQ is announced to this socket (on the token's topic already); its id. */
  async function announceShared(ws: WebSocket<Session>, s: Session, token: string): Promise<string | undefined> {
    // the RFQ was announced before this maker had its token: announce it again, to this socket only
    const rfq = o.book.rfqForShareToken(token)
    if (rfq) { send(ws, s, rfqBroadcast(rfq)); return rfq.id }
    // a cluster node the creation's word has not reached yet reads it from the store (the creator's answer,
    // and so the token, can beat the word); joining the book announced it on the token's topic, to this socket
    return (await o.book.adoptShared(token))?.id
  }

  function addShare(ws: WebSocket<Session>, token: string): void {
    const s = ws.getUserData()
    const hash = hashShareToken(token)
    if (s.shares.has(hash) || s.shares.size >= MAX_SHARE_TOKENS) return
    s.shares.set(hash, token)
    ws.subscribe(`${s.enc}:share:${hash}`)
  }

  // Takes the session, not ws.getUserData(): after an await the socket may be closed, and a closed
  // uWS socket throws on every method call.
  function send(ws: WebSocket<Session>, s: Session, msg: RelayMessage): void {
    if (s.closed) return
    const frame = encode(s.enc, msg)
    ws.cork(() => ws.send(frame, s.enc === 'msgpack'))
  }

  function sendError(ws: WebSocket<Session>, s: Session, e: RelayError, rfqId?: string): void {
    const hint = e.retryAfterMs ? { retryAfterMs: e.retryAfterMs } : {}
    send(ws, s, { type: 'ERROR', data: rfqId === undefined ? { message: e.message, code: e.code, ...hint } : { message: e.message, rfqId, code: e.code, ...hint } })
  }

  const unsubscribe = o.book.events.subscribe(event => broadcast(app, o.book, event))

  // Clients idle for a whole interval get a PING; one still silent an interval later is closed.
  const pinger = setInterval(() => {
    const now = Date.now()
    for (const ws of sessions) {
      const s = ws.getUserData()
      if (s.awaitingPong) { s.closed = true; ws.end(4000, 'ping timeout'); continue }
      if (now - s.lastSeen >= o.pingIntervalMs * 0.9) { s.awaitingPong = true; send(ws, s, { type: 'PING', data: {} }) }
    }
  }, o.pingIntervalMs)
  pinger.unref()
  const sweeper = setInterval(() => limiter.sweep(), 30_000)
  sweeper.unref()

  return {
    get connected() { return sessions.size },
    byEncoding() {
      const n = new Map<Encoding, number>([['json', 0], ['msgpack', 0]])
      for (const ws of sessions) { const e = ws.getUserData().enc; n.set(e, n.get(e)! + 1) }
      return n
    },
    close() {
      clearInterval(pinger)
      clearInterval(sweeper)
      unsubscribe()
    },
  }
}

function parseChannels(raw: string | null): Set<Channel> {
  if (raw === null) return new Set(CHANNELS)
  return new Set(raw.split(',').map(c => c.trim()).filter((c): c is Channel => CHANNELS.includes(c as Channel)))
}
