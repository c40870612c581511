// The spec's liveness: a client idle for a whole ping interval gets a PING; one still silent an interval later is
// closed (4000, "ping timeout"). uWS's own idle timeout is off: this is the only rule.
import type { RelaySocket, SocketSession } from './socketSession.js'
import { send } from './socketSession.js'

export type LivenessStep = 'ping' | 'close' | 'none'

/** What the pinger does to one socket at `now` (a little before a whole interval counts, so a tick does not miss it). */
export function livenessStep(session: SocketSession, now: number, intervalMs: number): LivenessStep {
  if (session.awaitingPong) return 'close'
  return now - session.lastSeen >= intervalMs * 0.9 ? 'ping' : 'none'
}

export function startPinger(sockets: ReadonlySet<RelaySocket>, intervalMs: number): { stop(): void } {
  const timer = setInterval(() => {
    const now = Date.now()
    for (const ws of sockets) {
      const session = ws.getUserData()
      const step = livenessStep(session, now, intervalMs)
      if (step === 'close') {
        session.closed = true
        ws.end(4000, 'ping timeout')
      } else if (step === 'ping') {
        session.awaitingPong = true
        send(ws, session, { type: 'PING', data: {} })
      }
    }
  }, intervalMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
