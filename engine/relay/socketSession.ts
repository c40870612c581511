// One relay socket's state and its writer. What the socket asked for (encoding, channels, the private RFQs whose
// share tokens it presented) and the spec's liveness and rate-limit marks live here; uWS keeps it as the socket's
// user data. Every write goes through `send`, which takes the session rather than asking the socket for it: after
// an await the socket may be closed, and a closed uWS socket throws on every method call.
import type { WebSocket } from '../front/uws.js'
import type { RelayError } from '../../actors/errors.js'
import { encode, type Encoding, type RelayMessage } from './codec.js'
import type { Channel } from './broadcasts.js'

export interface SocketSession {
  ip: string
  enc: Encoding
  channels: Set<Channel>
  /** share-token hash -> the token, for private RFQs this socket may see and quote */
  shares: Map<string, string>
  lastSeen: number
  awaitingPong: boolean
  /** rate-limited until then: one ERROR per window, then silence */
  limitedUntil: number
  closed: boolean
}

export type RelaySocket = WebSocket<SocketSession>

export function send(ws: RelaySocket, session: SocketSession, msg: RelayMessage): void {
  if (session.closed) return
  const frame = encode(session.enc, msg)
  ws.cork(() => ws.send(frame, session.enc === 'msgpack'))
}

/** The spec's ERROR: its message and code, the RFQ it is about (if one), and when to retry (BUSY). */
export function errorFrame(error: RelayError, rfqId?: string): RelayMessage {
  const hint = error.retryAfterMs ? { retryAfterMs: error.retryAfterMs } : {}
  return {
    type: 'ERROR',
    data:
      rfqId === undefined
        ? { message: error.message, code: error.code, ...hint }
        : { message: error.message, rfqId, code: error.code, ...hint },
  }
}

export function sendError(ws: RelaySocket, session: SocketSession, error: RelayError, rfqId?: string): void {
  send(ws, session, errorFrame(error, rfqId))
}
