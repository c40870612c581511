// The cluster link (NATS_URL set): this node's RFQ events go to every other node over core NATS, and theirs
// come into this node's book, which shows them to its readers and sockets once. NATS only moves the word;
// PostgreSQL stays the arbiter (quotes are stored before their word leaves, status changes are conditional),
// so a lost, late or reordered message can make a node's view late, never wrong in the store. A node that
// sees a gap in another node's sequence, or comes back from a NATS outage, reconciles its book with the store.
//
// Loaded only through a dynamic import: a single node never loads the NATS client.
import { connect, type NatsConnection } from '@nats-io/transport-node'
import type { Logger } from 'pino'
import type { RfqBook, RestoredRfq } from '../../actors/book.js'
import { nodeIdOf } from './nodeId.js'
import { parseNatsUrl } from './natsUrl.js'
import { toWire, fromWire, packBatch, unpackBatch, UnknownRfq, type WireEvent } from './wire.js'

export interface ClusterLinkOptions {
  url: string
  nodeId?: string
  /** subjects are scoped to one venue (chain and contract), so two venues can share a NATS server */
  venue: string
  book: RfqBook
  /** the store's live RFQs, for reconciling after an outage or a lost message */
  loadLive(): Promise<RestoredRfq[]>
  log: Logger
  heartbeatMs?: number
  /** the events of this long leave in one message (0: those of one event-loop turn) */
  batchMs?: number
}

export interface ClusterStatus {
  nodeId: string
  nats: 'connected' | 'reconnecting'
  /** other nodes heard from within three heartbeats */
  peers: string[]
}

export interface ClusterLink {
  readonly nodeId: string
  status(): ClusterStatus
  readonly stats: { sent: number; messages: number; received: number; dropped: number; gaps: number; reconciles: number }
  /** Another kind of message between the nodes (its own subject in this venue): returns how to send one. */
  channel(name: string, onMessage: (data: Uint8Array) => void): (data: Uint8Array) => void
  close(): Promise<void>
}

const MAX_BATCH = 500
/** origins whose sequence a node keeps */
const MAX_ORIGINS = 1024
/** RFQs one message may make a node read from the store one by one; past it, one reconcile */
const MAX_ADOPTS = 16
/** what a heartbeat may name: NODE_ID's form (engine/config.ts), or hostname-pid */
const NODE_ID = /^[A-Za-z0-9_.-]{1,128}$/

export async function joinCluster(o: ClusterLinkOptions): Promise<ClusterLink> {
  const nodeId = nodeIdOf({ NODE_ID: o.nodeId })
  const heartbeatMs = o.heartbeatMs ?? 1000
  const subjectOf = (name: string) => `rfq.v2.${o.venue}.${name}`     // scoped to one venue; v2: quotes travel as compact tuples (0.5)
  const subject = { events: subjectOf('events'), nodes: subjectOf('nodes') }
  const target = parseNatsUrl(o.url)
  let nc: NatsConnection
  try {
    // noEcho: a node never hears its own events back; reconnects forever. What is sent while the link is down is
    // lost (the client drops its buffer when it reconnects): the sequence numbers tell the others, who reconcile
    nc = await connect({ servers: target.servers, token: target.token, user: target.user, pass: target.pass,
      name: nodeId, noEcho: true, maxReconnectAttempts: -1, reconnectTimeWait: 250, pingInterval: 5000 })
  } catch (err) {
    throw new Error(`NATS at ${target.redacted} does not answer (${err instanceof Error ? err.message : String(err)}): start nats-server or fix NATS_URL`)
  }
  const stats = { sent: 0, messages: 0, received: 0, dropped: 0, gaps: 0, reconciles: 0 }
  let connected = true
  let seq = 0
  // origin -> last sequence heard; kept across silences and reconnects, so a jump is always seen as a gap
  const lastSeq = new Map<string, number>()
  const peers = new Map<string, number>()        // node -> last heartbeat (ms)
  // past MAX_ORIGINS names (forged ones, or years of restarts under new names), one not heard lately is forgotten
  const remember = (origin: string, n: number) => {
    if (!lastSeq.has(origin) && lastSeq.size >= MAX_ORIGINS) {
      for (const k of lastSeq.keys()) if (!peers.has(k)) { lastSeq.delete(k); break }
    }
    lastSeq.set(origin, n)
  }

  // reconciling: the store's live RFQs are the truth; one pass at a time, another queued behind it at most
  let reconciling: Promise<void> | null = null, again = false
  const reconcile = (why: string) => {
    if (reconciling) { again = true; return }
    stats.reconciles++
    reconciling = o.loadLive().then(live => o.book.replica?.reconcile(live), err => o.log.warn({ err, why }, 'cluster reconcile failed; retried at the next gap or reconnect'))
      .finally(() => { reconciling = null; if (again) { again = false; reconcile('queued') } })
  }

  const termsOf = (id: string) => o.book.quoteTerms(id)
  nc.subscribe(subject.events, { callback: (err, msg) => {
    if (err) return
    let batch: ReturnType<typeof unpackBatch>
    try { batch = unpackBatch(msg.data) } catch (err) {
      stats.dropped++
      return o.log.warn({ err }, 'cluster message dropped')
    }
    const last = lastSeq.get(batch.origin)
    remember(batch.origin, batch.seq)
    if (last !== undefined && batch.seq !== last + 1) { stats.gaps++; reconcile(`gap from ${batch.origin}`) }
    let unknown: Set<string> | undefined
    for (const w of batch.events) {
      try {
        o.book.replica?.applyRemote(fromWire(w, termsOf))
        stats.received++
      } catch (err) {
        // a quote for an RFQ this node has not heard of: the store has both (the quote was stored first). Past
        // a few such RFQs in one message, one reconcile reads them all: a message cannot cost a read per quote
        if (err instanceof UnknownRfq) {
          stats.received++
          unknown ??= new Set()
          if (unknown.has(err.rfqId)) continue
          unknown.add(err.rfqId)
          if (unknown.size <= MAX_ADOPTS) void o.book.replica?.adopt(err.rfqId)
          else if (unknown.size === MAX_ADOPTS + 1) reconcile(`many unknown RFQs from ${batch.origin}`)
          continue
        }
        stats.dropped++
        o.log.warn({ err }, 'cluster event dropped')
      }
    }
  } })
  // A heartbeat is `<node> <last sequence sent>`: a batch lost on the way (or sent into a dropped link) shows
  // here within a heartbeat even when its node goes quiet after it; a lower number is a restarted node.
  nc.subscribe(subject.nodes, { callback: (err, msg) => {
    if (err) return
    const [id = '', sent] = msg.string().split(' ')
    if (id === nodeId || !NODE_ID.test(id)) return
    peers.set(id, Date.now())
    const n = Number(sent), last = lastSeq.get(id)
    if (!Number.isSafeInteger(n) || n < 0) return
    if (last === undefined) remember(id, n)
    else if (n !== last) { remember(id, n); stats.gaps++; reconcile(n > last ? `${id} sent batches not heard here` : `${id} restarted`) }
  } })

  // The events of `batchMs` leave together, in order; at most MAX_BATCH a message, so a message stays far
  // below NATS's max_payload (1 MB by default; a quote event is about 300 bytes). Every message wakes every
  // other node, and a wake-up costs more CPU than applying a dozen quotes (docs/benchmarks.md#cluster): a
  // few ms of coalescing keeps the receivers' cost per quote flat as the venue's rate grows.
  const batchMs = o.batchMs ?? 5
  let outbox: WireEvent[] = []
  let timer: NodeJS.Timeout | null = null
  const flush = () => {
    if (timer) { clearTimeout(timer); timer = null }
    if (!outbox.length) return
    const events = outbox
    outbox = []
    if (!nc.isClosed()) { nc.publish(subject.events, packBatch(nodeId, ++seq, events)); stats.messages++ }
  }
  const unsubscribe = o.book.events.subscribe(e => {
    if (e.remote) return                          // another node's word: never sent on
    const w = toWire(e, e.type === 'rfq.quoted' ? o.book.quoteTerms(e.rfqId) : undefined)
    if (!w) return
    if (!outbox.length) {
      if (batchMs > 0) timer = setTimeout(flush, batchMs)
      else setImmediate(flush)
    }
    outbox.push(w)
    stats.sent++
    if (outbox.length >= MAX_BATCH) flush()
  })
  const heartbeat = setInterval(() => {
    if (connected) nc.publish(subject.nodes, `${nodeId} ${seq}`)
    // A node not heard of lately is no peer. Its last word may not have left it (killed between a commit and
    // its batch), so the book follows the store: what it stored shows here, what it closed closes here.
    const gone = Date.now() - 3 * heartbeatMs
    for (const [id, at] of peers) if (at < gone) { peers.delete(id); reconcile(`${id} went silent`) }
  }, heartbeatMs)
  heartbeat.unref()
  nc.publish(subject.nodes, `${nodeId} ${seq}`)

  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnecting') {
        if (connected) o.log.warn({ nats: target.redacted }, 'cluster link lost: serving this node\'s clients; other nodes\' word arrives after reconnect')
        connected = false
      } else if (s.type === 'reconnect') {
        connected = true
        o.log.info({ nats: s.server }, 'cluster link back: reconciling with the store')
        reconcile('reconnect')
      }
    }
  })().catch(() => {})

  o.log.info({ nodeId, nats: target.redacted }, 'joined the cluster')
  return {
    nodeId, stats,
    channel(name, onMessage) {
      const subj = subjectOf(name)
      nc.subscribe(subj, { callback: (err, msg) => { if (!err) onMessage(msg.data) } })
      return data => { if (!nc.isClosed()) nc.publish(subj, data) }
    },
    status() {
      const since = Date.now() - 3 * heartbeatMs
      return { nodeId, nats: connected ? 'connected' : 'reconnecting', peers: [...peers].filter(([, at]) => at >= since).map(([id]) => id).sort() }
    },
    async close() {
      unsubscribe()
      flush()
      clearInterval(heartbeat)
      await nc.drain().catch(() => {})
      await reconciling
    },
  }
}
