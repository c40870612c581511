// The relay's WebSocket front on the relay port, beside the REST routes (uWS hands a GET without an Upgrade header on
// to the HTTP handler). It joins the front's units: the upgrade (upgrade.ts: encoding, channels, a share token, the
// per-IP cap), the socket's session and writer (socketSession.ts), every inbound frame (inbound.ts: charged, decoded,
// dispatched to socketVerbs.ts), the topics it hears (subscriptions.ts) and the spec's PING/PONG (liveness.ts).
// Broadcasts go through uWS topics, one per encoding, so each message is encoded at most twice however many listen.
import type { TemplatedApp } from '../front/uws.js'
import { uWS } from '../front/uws.js'
import type { Logger } from 'pino'
import type { RfqBook } from '../../actors/book.js'
import { hashShareToken } from '../../actors/book.js'
import { RelayErrors } from '../../actors/errors.js'
import { holdingWakes } from '../../actors/wakeups.js'
import { FixedWindowLimiter } from '../front/limits.js'
import type { LimitRegistry } from '../front/sharedLimits.js'
import { clientIp } from '../front/ip.js'
import type { RfqService } from '../rfq/service.js'
import { broadcast, rfqBroadcast } from './broadcasts.js'
import type { CancelAuthMode } from './cancelAuth.js'
import { ConnectionCounts, readUpgrade, refuseTooMany } from './upgrade.js'
import { onFrame, type InboundDeps } from './inbound.js'
import { subscribeAtOpen } from './subscriptions.js'
import { startPinger } from './liveness.js'
import { send, sendError, type RelaySocket, type SocketSession } from './socketSession.js'
import type { Encoding } from './codec.js'

export interface SocketFrontOptions {
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

export interface SocketFront {
  readonly connected: number
  /** open sockets by encoding, counted when asked (a scrape) */
  byEncoding(): Map<Encoding, number>
  close(): void
}

export function mountSocketFront(app: TemplatedApp, options: SocketFrontOptions): SocketFront {
  const { book, log } = options
  const limiter = options.limits.register('relay.ws', new FixedWindowLimiter(options.rateLimitPerMin, 60_000))
  const sockets = new Set<RelaySocket>()
  const counts = new ConnectionCounts(options.maxConnectionsPerIp)
  const inbound: InboundDeps = {
    book,
    rfqs: options.rfqs,
    cancelAuth: options.cancelAuth,
    log,
    charge: ip => limiter.refusedForMs(ip),
    rateLimitPerMin: options.rateLimitPerMin,
    counted: options.onFrame,
  }

  const handleFrame = (ws: RelaySocket, frame: ArrayBuffer, isBinary: boolean): void => {
    // a throw here would take the whole process (and every port) down: a bug answers one ERROR instead
    try {
      onFrame(inbound, ws, frame, isBinary)
    } catch (err) {
      log.error({ err }, 'relay message handler failed')
      sendError(ws, ws.getUserData(), RelayErrors.internalMessage())
    }
  }

  app.ws<SocketSession>('/*', {
    compression: uWS.DISABLED,
    maxPayloadLength: options.maxPayload,
    maxBackpressure: options.maxBackpressure,
    closeOnBackpressureLimit: 1, // a client that cannot keep up is closed, not silently skipped
    idleTimeout: 0, // liveness is the spec's PING/PONG (liveness.ts)
    upgrade(res, req, context) {
      // req is gone after this synchronous part: copy everything first
      const query = new URLSearchParams(req.getQuery() ?? '')
      const headers: Record<string, string> = {}
      req.forEach((name, value) => {
        headers[name] = value
      })
      const ip = clientIp(res, headers, options.trustProxy, options.trustProxyHops)
      if (!counts.hasRoom(ip)) return refuseTooMany(res, counts.max)
      const asked = readUpgrade(query, headers)
      const session: SocketSession = {
        ip,
        enc: asked.enc,
        channels: asked.channels,
        shares: new Map(),
        lastSeen: Date.now(),
        awaitingPong: false,
        limitedUntil: 0,
        closed: false,
      }
      if (asked.shareToken) session.shares.set(hashShareToken(asked.shareToken), asked.shareToken)
      const key = headers['sec-websocket-key'] ?? '',
        extensions = headers['sec-websocket-extensions'] ?? ''
      res.upgrade(session, key, asked.protocol, extensions, context)
    },
    open(ws) {
      const session = ws.getUserData()
      counts.opened(session.ip)
      sockets.add(ws)
      subscribeAtOpen(ws, session)
      // a token presented at connect opens its live RFQ as SUBSCRIBE does: the maker may connect after creation.
      // The book only, no store read before a single message is charged to this IP: an RFQ whose word is late
      // reaches the token's topic when it comes, or when a silent node's RFQs are reconciled from the store
      for (const token of session.shares.values()) {
        const rfq = book.rfqForShareToken(token)
        if (rfq) send(ws, session, rfqBroadcast(rfq))
      }
    },
    message(ws, frame, isBinary) {
      holdingWakes(handleFrame, ws, frame, isBinary) // the actors a frame woke run as it ends (actors/wakeups.ts)
    },
    drain() {
      /* uWS buffers up to maxBackpressure; past it the socket is closed */
    },
    close(ws) {
      const session = ws.getUserData()
      session.closed = true
      sockets.delete(ws)
      counts.closed(session.ip)
    },
  })

  const unsubscribe = book.events.subscribe(event => broadcast(app, book, event))
  const pinger = startPinger(sockets, options.pingIntervalMs)
  const sweeper = setInterval(() => limiter.sweep(), 30_000)
  sweeper.unref()

  return {
    get connected() {
      return sockets.size
    },
    byEncoding() {
      const n = new Map<Encoding, number>([
        ['json', 0],
        ['msgpack', 0],
      ])
      for (const ws of sockets) {
        const enc = ws.getUserData().enc
        n.set(enc, n.get(enc)! + 1)
      }
      return n
    },
    close() {
      pinger.stop()
      clearInterval(sweeper)
      unsubscribe()
    },
  }
}
