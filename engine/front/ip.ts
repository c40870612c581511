// The client's address. X-Forwarded-For is honoured only when the operator says a trusted proxy
// sits in front (TRUST_PROXY): otherwise any client could pick its own rate-limit key.
import type { HttpResponse, WebSocket } from './uws.js'

export function clientIp(res: HttpResponse, headers: Record<string, string>, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = headers['x-forwarded-for']
    if (fwd) {
      const first = fwd.split(',')[0]!.trim()
      if (first) return first
    }
  }
  return normaliseIp(Buffer.from(res.getRemoteAddressAsText()).toString())
}

export function socketIp(ws: WebSocket<unknown>): string {
  return normaliseIp(Buffer.from(ws.getRemoteAddressAsText()).toString())
}

/** uWS reports IPv4 clients as IPv4-mapped IPv6 in full form; fold them back to dotted quads. */
export function normaliseIp(text: string): string {
  const m = /^(?:0000:){5}ffff:([0-9a-f]{2})([0-9a-f]{2}):([0-9a-f]{2})([0-9a-f]{2})$/i.exec(text)
  if (m) return m.slice(1, 5).map(h => parseInt(h, 16)).join('.')
  return text.replace(/^::ffff:/, '')
}
