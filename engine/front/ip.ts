// The client's address. X-Forwarded-For is honoured only when the operator says trusted proxies sit in
// front (TRUST_PROXY), and then only the entry those proxies wrote: each proxy appends the address it
// saw, so with N proxies of ours the client is the Nth entry from the right. Everything to its left
// was written by the client itself, and taking it would let a client pick its own rate-limit key.
import type { HttpResponse, WebSocket } from './uws.js'

export function clientIp(res: HttpResponse, headers: Record<string, string>, trustProxy: boolean, hops = 1): string {
  const peer = normaliseIp(Buffer.from(res.getRemoteAddressAsText()).toString())
  if (!trustProxy) return peer
  return forwardedClient(headers['x-forwarded-for'], hops) ?? peer
}

/** The entry `hops` from the right of X-Forwarded-For, or undefined when the header is shorter. */
export function forwardedClient(header: string | undefined, hops: number): string | undefined {
  if (!header) return undefined
  const entries = header
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)
  const entry = entries[entries.length - hops]
  return entry ? normaliseIp(entry) : undefined
}

export function socketIp(ws: WebSocket<unknown>): string {
  return normaliseIp(Buffer.from(ws.getRemoteAddressAsText()).toString())
}

/** uWS reports IPv4 clients as IPv4-mapped IPv6 in full form; fold them back to dotted quads. */
export function normaliseIp(text: string): string {
  const m = /^(?:0000:){5}ffff:([0-9a-f]{2})([0-9a-f]{2}):([0-9a-f]{2})([0-9a-f]{2})$/i.exec(text)
  if (m)
    return m
      .slice(1, 5)
      .map(h => parseInt(h, 16))
      .join('.')
  return text.replace(/^::ffff:/, '')
}
