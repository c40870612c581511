// Every frame a client sends: charged to its IP against the relay's message limit (one ERROR per window, then
// silence until the window resets), decoded (JSON, or msgpack for clients that asked) and checked against its
// message's schema, then dispatched to its verb. PING is answered here; anything unknown is an ERROR.
import { RelayErrors } from '../../actors/errors.js'
import { parseInbound, READ_WELL_FORMED, readQuoteFrame } from './codec.js'
import { cancelRequest, submitQuote, subscribe, type VerbDeps } from './socketVerbs.js'
import { send, sendError, type RelaySocket, type SocketSession } from './socketSession.js'

export interface InboundDeps extends VerbDeps {
  /** counts one message against the sender's IP: 0 within the limit, else the ms until its window resets */
  charge(ip: string): number
  rateLimitPerMin: number
  /** each frame past the rate limit, by its type ('invalid': not a message), for relay_frames_total */
  counted?(type: string): void
}

export type Charge = 'pass' | 'refuse' | 'silent'

/** What a charge (ms refused for, 0: none) means for this socket at `now`: pass, the window's one ERROR, or silence. */
export function chargeFrame(session: SocketSession, refusedForMs: number, now: number): Charge {
  if (refusedForMs === 0) return 'pass'
  if (session.limitedUntil > now) return 'silent'
  session.limitedUntil = now + refusedForMs
  return 'refuse'
}

export function onFrame(deps: InboundDeps, ws: RelaySocket, frame: ArrayBuffer, isBinary: boolean): void {
  const session = ws.getUserData()
  session.lastSeen = Date.now()
  session.awaitingPong = false
  const charge = chargeFrame(session, deps.charge(session.ip), session.lastSeen)
  if (charge === 'refuse') sendError(ws, session, RelayErrors.rateLimited(deps.rateLimitPerMin))
  if (charge !== 'pass') return
  // a quote as makers write it, read in one pass: handed on with no verdict object of its own (decodeInbound's)
  const quote = readQuoteFrame(session.enc, frame, isBinary)
  if (quote) {
    deps.counted?.('QUOTE_SUBMIT')
    return submitQuote(deps, ws, session, quote, READ_WELL_FORMED)
  }
  const inbound = parseInbound(session.enc, frame, isBinary)
  deps.counted?.(inbound.ok ? inbound.type : 'invalid')
  if (!inbound.ok) return sendError(ws, session, inbound.error)
  switch (inbound.type) {
    case 'QUOTE_SUBMIT':
      // the decoded frame is the schema's verdict (wellFormed, residual): no copy of it made a quote
      return submitQuote(deps, ws, session, inbound.data, inbound)
    case 'CANCEL_REQUEST':
      return void cancelRequest(deps, ws, session, inbound.data)
    case 'PING':
      return send(ws, session, { type: 'PONG', data: {} })
    case 'PONG':
      return
    case 'SUBSCRIBE':
      return void subscribe(deps, ws, session, inbound.data)
  }
}
