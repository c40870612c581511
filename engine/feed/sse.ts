// GET /api/v1/feed: the RFQ events as text/event-stream. Every event has an `id:`; the last 512
// are kept so a client reconnecting with Last-Event-ID misses nothing that is still held. A
// comment line every SSE_HEARTBEAT_MS keeps proxies from closing an idle stream. One connection
// per client IP: a second gets 429 while the first is open.
// Private RFQs follow the visibility rule (actors/visibility.ts) on every connection: their events
// (and a private fill's) reach only a stream opened with their share token (`?shareToken=`, or the
// `X-Share-Token` header) or with their taker agent's key (`Authorization: Bearer`). Event ids count
// public events only (1, 2, 3...), so an outsider's stream has no gaps to count private events by; a private
// event's id is the public count before it and a sealed tag (`7.<tag>`, engine/front/sealed.ts), which says
// nothing of how many private events there were, and a reconnect with it resumes right after it.
import type { RfqDirectory, RfqEvent } from '../../actors/rfqTypes.js'
import type { EngineContext } from '../context.js'
import type { StreamSink } from '../front/request.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { Errors } from '../front/errors.js'
import { toJson } from '../front/json.js'
import { eventData } from './events.js'
import type { LiveIndex } from '../../actors/liveIndex.js'
import { quoteLine, quoteOfLine, type TapeTerms } from '../../actors/quoteTape.js'
import type { AgentAuth } from '../front/agentAuth.js'
import { ANONYMOUS, canSee, type RfqAccess, type Viewer } from '../../actors/visibility.js'
import { openSeq, sealSeq } from '../front/sealed.js'
import { viewerOf } from '../front/viewer.js'

const REPLAY = 512
/** a reserved slot whose stream never opened (the client left first) is given back after this */
const OPEN_GRACE_MS = 5_000

export interface Feed {
  readonly connections: number
  close(): void
}

type Conn = { sink: StreamSink; viewer: Viewer }

export function feedRoutes(
  ctx: EngineContext,
  book: RfqDirectory,
  tokens: TokenRegistry,
  index: LiveIndex,
  auth: Pick<AgentAuth, 'optionalAgent'>,
): Feed {
  const byIp = new Map<string, Conn | 'opening'>()
  // Frames are built only when someone reads them: at relay rates most events have no listener,
  // and the replay buffer would otherwise encode every quote for nobody.
  const recent: Held[] = []
  let nextId = 1
  let publicCount = 0
  // An event that cannot be shaped (a bug, or a value no check foresaw) is one frame left out and a warning,
  // never a throw: the replay runs outside the event bus's guard, and a throw there would take the process.
  const frameOf = (r: Held): string => {
    if (r.frame !== undefined) return r.frame
    const id = r.public ? String(r.pub) : `${r.pub}.${sealSeq(r.id)}`
    const event: RfqEvent = r.event ?? {
      type: 'rfq.quoted',
      rfqId: r.quoted!.terms.id,
      quote: quoteOfLine(r.quoted!.line, r.quoted!.terms),
    }
    try {
      return (r.frame = `id: ${id}\nevent: ${event.type}\ndata: ${toJson(eventData(event, tokens))}\n\n`)
    } catch (err) {
      ctx.log.warn({ err, type: event.type }, 'feed event left out: it could not be shaped')
      return (r.frame = '')
    }
  }

  // the access is taken when the event happens (a closed RFQ's index entry is only kept for a while)
  const unsubscribe = book.events.subscribe(event => {
    // a quote's RFQ is looked up once, for its access and its terms
    const indexed = event.type === 'rfq.quoted' ? index.get(event.rfqId) : undefined
    const access = indexed ? accessOfIndexed(indexed) : accessOf(event, index)
    const isPublic = access !== null && canSee(access, ANONYMOUS)
    // a quote is held as its line (the one its RFQ's tape keeps), not its objects: the last 512-1024 events are ~a
    // fifth of a second of quotes at relay rates, just long enough for each to outlive two scavenges and be copied
    // into the old generation, where it was most of what the major GCs collected (issue 29)
    const quoted =
      indexed && event.type === 'rfq.quoted' && !event.remote
        ? { line: quoteLine(event.quote, indexed.rfq), terms: indexed.rfq }
        : undefined
    const r: Held = {
      id: nextId++,
      pub: isPublic ? ++publicCount : publicCount,
      public: isPublic,
      event: quoted ? undefined : event,
      quoted,
      access,
    }
    recent.push(r)
    if (recent.length > 2 * REPLAY) recent.splice(0, recent.length - REPLAY) // trimmed in bulk, not one shift per event
    for (const c of byIp.values()) if (c !== 'opening' && mayRead(r.access, c.viewer)) write(c.sink, frameOf(r))
  })
  const heartbeat = setInterval(() => {
    const frame = `: heartbeat ${new Date().toISOString()}\n\n`
    for (const c of byIp.values()) if (c !== 'opening') c.sink.write(frame)
  }, ctx.config.SSE_HEARTBEAT_MS)
  heartbeat.unref()

  ctx.surfaces.api.get('/api/v1/feed', async req => {
    const viewer = await viewerOf(req, auth) // a bad key is a 401, before the slot is taken
    const ip = req.ip
    if (byIp.has(ip)) throw Errors.tooManyRequests('Too many feed connections (max 1 per client)', 5)
    byIp.set(ip, 'opening')
    const grace = setTimeout(() => {
      if (byIp.get(ip) === 'opening') byIp.delete(ip)
    }, OPEN_GRACE_MS)
    grace.unref()
    const after = resumeAfter(req.headers['last-event-id'])
    return {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      },
      stream: sink => {
        clearTimeout(grace)
        const conn = { sink, viewer }
        byIp.set(ip, conn)
        sink.onClose(() => {
          if (byIp.get(ip) === conn) byIp.delete(ip)
        })
        sink.write(`retry: 3000\n: connected\n\n`)
        if (after)
          for (const r of recent.slice(-REPLAY)) if (after(r) && mayRead(r.access, viewer)) write(sink, frameOf(r))
      },
    }
  })

  return {
    get connections() {
      return [...byIp.values()].filter(s => s !== 'opening').length
    },
    close() {
      clearInterval(heartbeat)
      unsubscribe()
      for (const c of byIp.values()) if (c !== 'opening') c.sink.end()
      byIp.clear()
    },
  }
}

/** An event held for replay: its place among all events (`id`) and among the public ones (`pub`). */
interface Held {
  id: number
  pub: number
  public: boolean
  /** the event as it happened; undefined for a quote held as `quoted` */
  event: RfqEvent | undefined
  /** a quote event's quote as its line, against its RFQ's terms */
  quoted: { line: string; terms: TapeTerms } | undefined
  access: RfqAccess | null
  frame?: string
}

/**
 * Which held events come after a Last-Event-ID: after public event N (`N`: the private ones that followed it
 * too), or after the private event a sealed tag names (`N.<tag>`; a tag this process did not make resumes
 * after N, repeating rather than skipping). Undefined: no resumption asked for, or not an id of ours.
 */
function resumeAfter(header: string | undefined): ((r: Held) => boolean) | undefined {
  const m = /^(\d{1,15})(?:\.([A-Za-z0-9_-]{22}))?$/.exec(header ?? '')
  if (!m) return undefined
  const n = Number(m[1])
  const sealed = m[2] === undefined ? undefined : openSeq(m[2])
  if (sealed !== undefined) return r => r.id > sealed
  return r => r.pub > n || (r.pub === n && !r.public)
}

function write(sink: StreamSink, frame: string): void {
  if (frame) sink.write(frame)
}

/** What the visibility rule needs about an event's RFQ; null when it is unknown (then nobody but... nobody). */
function accessOf(e: RfqEvent, index: LiveIndex): RfqAccess | null {
  if (e.type === 'rfq.created')
    return { visibility: e.rfq.visibility, agentId: e.rfq.agentId, shareTokenHash: e.shareTokenHash }
  if (e.type === 'fill.recorded') {
    if (e.visibility === 'public') return PUBLIC
    const r = e.fill.rfqId === null ? undefined : index.get(e.fill.rfqId)
    return r ? accessOfIndexed(r) : { visibility: 'private', shareTokenHash: null, agentId: null }
  }
  const r = index.get(e.rfqId)
  return r ? accessOfIndexed(r) : null
}

/** The three fields the rule reads, not a copy of the whole RFQ: one of these is kept per event. */
function accessOfIndexed(r: {
  rfq: { visibility: RfqAccess['visibility']; agentId: string | null }
  shareTokenHash: string | null
}): RfqAccess {
  if (r.rfq.visibility === 'public' && r.shareTokenHash === null) return PUBLIC // everyone's: one shared object, not one per quote
  return { visibility: r.rfq.visibility, agentId: r.rfq.agentId, shareTokenHash: r.shareTokenHash }
}

const PUBLIC: RfqAccess = { visibility: 'public', shareTokenHash: null, agentId: null }

function mayRead(access: RfqAccess | null, viewer: Viewer): boolean {
  return access !== null && canSee(access, viewer)
}
