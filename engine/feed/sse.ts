// GET /api/v1/feed: the RFQ events as text/event-stream. Every event has an `id:`; the last 512
// are kept so a client reconnecting with Last-Event-ID misses nothing that is still held. A
// comment line every SSE_HEARTBEAT_MS keeps proxies from closing an idle stream. One connection
// per client IP: a second gets 429 while the first is open.
import type { RfqDirectory, RfqEvent } from '../../actors/rfqTypes.js'
import type { EngineContext } from '../context.js'
import type { StreamSink } from '../front/request.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { Errors } from '../front/errors.js'
import { toJson } from '../front/json.js'
import { eventData } from './events.js'

const REPLAY = 512
/** a reserved slot whose stream never opened (the client left first) is given back after this */
const OPEN_GRACE_MS = 5_000

export interface Feed { readonly connections: number; close(): void }

export function feedRoutes(ctx: EngineContext, book: RfqDirectory, tokens: TokenRegistry): Feed {
  const byIp = new Map<string, StreamSink | 'opening'>()
  // Frames are built only when someone reads them: at relay rates most events have no listener,
  // and the replay buffer would otherwise encode every quote for nobody.
  const recent: { id: number; event: RfqEvent; frame?: string }[] = []
  let nextId = 1
  const frameOf = (r: { id: number; event: RfqEvent; frame?: string }) =>
    r.frame ??= `id: ${r.id}\nevent: ${r.event.type}\ndata: ${toJson(eventData(r.event, tokens))}\n\n`

  const unsubscribe = book.events.subscribe(event => {
    const r = { id: nextId++, event }
    recent.push(r)
    if (recent.length > REPLAY) recent.shift()
    for (const sink of byIp.values()) if (sink !== 'opening') sink.write(frameOf(r))
  })
  const heartbeat = setInterval(() => {
    const frame = `: heartbeat ${new Date().toISOString()}\n\n`
    for (const sink of byIp.values()) if (sink !== 'opening') sink.write(frame)
  }, ctx.config.SSE_HEARTBEAT_MS)
  heartbeat.unref()

  ctx.surfaces.api.get('/api/v1/feed', req => {
    const ip = req.ip
    if (byIp.has(ip)) throw Errors.tooManyRequests('Too many feed connections (max 1 per client)', 5)
    byIp.set(ip, 'opening')
    const grace = setTimeout(() => { if (byIp.get(ip) === 'opening') byIp.delete(ip) }, OPEN_GRACE_MS)
    grace.unref()
    const lastId = Number(req.headers['last-event-id'] ?? NaN)
    return {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
      stream: sink => {
        clearTimeout(grace)
        byIp.set(ip, sink)
        sink.onClose(() => { if (byIp.get(ip) === sink) byIp.delete(ip) })
        sink.write(`retry: 3000\n: connected\n\n`)
        if (Number.isInteger(lastId)) for (const r of recent) if (r.id > lastId) sink.write(frameOf(r))
      },
    }
  })

  return {
    get connections() { return [...byIp.values()].filter(s => s !== 'opening').length },
    close() {
      clearInterval(heartbeat)
      unsubscribe()
      for (const sink of byIp.values()) if (sink !== 'opening') sink.end()
      byIp.clear()
    },
  }
}
