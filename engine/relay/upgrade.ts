// A relay connection's first moment: the HTTP upgrade. What the client asks for is read off the request (uWS frees
// it after the synchronous part: the caller copies query and headers first), and a client IP already holding its
// share of open sockets is refused here with 429, before a socket exists.
//   ?encoding=msgpack or subprotocol `msgpack`    binary msgpack frames
//   ?channels=rfqs,quotes                         which public broadcasts to receive (default both)
//   ?shareToken=T                                 join a private RFQ's broadcasts at connect
import type { HttpResponse } from '../front/uws.js'
import type { Encoding } from './codec.js'
import type { Channel } from './broadcasts.js'

export const CHANNELS: readonly Channel[] = ['rfqs', 'quotes']

export interface Connect {
  enc: Encoding
  /** the subprotocol to answer with: the encoding when the client offered it by name, else none */
  protocol: string
  channels: Set<Channel>
  shareToken: string | null
}

export function readUpgrade(query: URLSearchParams, headers: Record<string, string>): Connect {
  const offered = (headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map(p => p.trim())
    .filter(Boolean)
  const enc: Encoding = query.get('encoding') === 'msgpack' || offered.includes('msgpack') ? 'msgpack' : 'json'
  return {
    enc,
    protocol: offered.includes(enc) ? enc : '',
    channels: parseChannels(query.get('channels')),
    shareToken: query.get('shareToken') || null,
  }
}

/** The public channels asked for; all when unsaid, and names the relay does not have are ignored. */
export function parseChannels(raw: string | null): Set<Channel> {
  if (raw === null) return new Set(CHANNELS)
  return new Set(
    raw
      .split(',')
      .map(c => c.trim())
      .filter(isChannel),
  )
}

export function isChannel(c: unknown): c is Channel {
  return CHANNELS.includes(c as Channel)
}

/** Open sockets per client IP, against RELAY_MAX_CONNECTIONS_PER_IP. */
export class ConnectionCounts {
  private readonly open = new Map<string, number>()

  constructor(readonly max: number) {}

  hasRoom(ip: string): boolean {
    return (this.open.get(ip) ?? 0) < this.max
  }

  /** uWS opens synchronously inside res.upgrade: the next upgrade from the same IP sees this one */
  opened(ip: string): void {
    this.open.set(ip, (this.open.get(ip) ?? 0) + 1)
  }

  closed(ip: string): void {
    const n = (this.open.get(ip) ?? 1) - 1
    if (n > 0) this.open.set(ip, n)
    else this.open.delete(ip)
  }

  of(ip: string): number {
    return this.open.get(ip) ?? 0
  }
}

export function refuseTooMany(res: HttpResponse, max: number): void {
  res.cork(() =>
    res
      .writeStatus('429 Too Many Requests')
      .writeHeader('content-type', 'application/json')
      .writeHeader('retry-after', '10')
      .end(
        JSON.stringify({ error: `Too many connections from this address (max ${max})`, code: 'TOO_MANY_CONNECTIONS' }),
      ),
  )
}
