// The cluster link (NATS_URL set): this node's RFQ events go to every other node over core NATS, and theirs
// come into this node's book, which shows them to its readers and sockets once. NATS only moves the word;
// PostgreSQL stays the arbiter (quotes are stored before their word leaves, status changes are conditional),
// so a lost, late or reordered message can make a node's view late, never wrong in the store. A node that
// sees a gap in another node's sequence, or comes back from a NATS outage, reconciles its book with the store.
// Every message is signed by its node and opened (envelope.ts) before anything reads it: what a listed node did
// not sign, or what it sent before, is counted and dropped (docs/cluster.md#who-may-speak-on-the-wire).
//
// Loaded only through a dynamic import: a single node never loads the NATS client.
import type { Logger } from 'pino'
import type { RfqBook, RestoredRfq } from '../../actors/book.js'
import type { ClusterIdentity } from './identity.js'
import { connectNats, warnIfOpen } from './natsAccess.js'
import { channelSubjects, keyOfSubject, subjectOf, type Channel } from './subjects.js'
import { seal, sealEvents, open, DROP_REASONS, MAX_BATCH, MAX_MESSAGE_BYTES, type DropReason, type Opened } from './envelope.js'
import { Sequences, type Place } from './sequences.js'
import { toWire, fromWire, UnknownRfq, type WireEvent } from './wire.js'

export interface ClusterLinkOptions {
  url: string
  identity: ClusterIdentity
  /** this run of the node (epoch.ts): larger than any earlier run's */
  epoch: number
  /** subjects are scoped to one venue (chain and contract), so two venues can share a NATS server */
  venue: string
  book: RfqBook
  /** the store's live RFQs, for reconciling after an outage or a lost message */
  loadLive(): Promise<RestoredRfq[]>
  /** a quote from another node applied here, `originMs` when that node received it (the apply-lag histogram) */
  applied?(originMs: number): void
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
  readonly stats: { sent: number; messages: number; received: number; messagesReceived: number; gaps: number; reconciles: number
    readonly dropped: Record<DropReason, number> }
  /** Rate-limit hits between the nodes (signed and ordered like the events): returns how to send a batch. */
  channel(name: 'limits', onMessage: (body: unknown[]) => void): (body: unknown[]) => void
  close(): Promise<void>
}

/** RFQs one message may make a node read from the store one by one; past it, one reconcile */
const MAX_ADOPTS = 16
/** a drop is logged at most this often per reason (a flood of forgeries must not flood the log), and always counted */
const WARN_EVERY_MS = 10_000

export async function joinCluster(o: ClusterLinkOptions): Promise<ClusterLink> {
  const { nodeId, key, peers } = o.identity
  const heartbeatMs = o.heartbeatMs ?? 1000
  const { nc, redacted } = await connectNats(o.url, o.identity, o.log)
  const stats = { sent: 0, messages: 0, received: 0, messagesReceived: 0, gaps: 0, reconciles: 0,
    dropped: Object.fromEntries(DROP_REASONS.map(r => [r, 0])) as Record<DropReason, number> }
  let connected = true
  const seqs: Record<Channel, number> = { events: 0, nodes: 0, limits: 0 }
  const order = new Sequences()
  const heard = new Map<string, number>()        // node -> last heartbeat (ms)
  const warned = new Map<DropReason, number>()
  const drop = (reason: DropReason, detail: object) => {
    stats.dropped[reason]++
    if (Date.now() - (warned.get(reason) ?? 0) < WARN_EVERY_MS) return
    warned.set(reason, Date.now())
    o.log.warn({ ...detail, reason, droppedSoFar: stats.dropped[reason] }, 'cluster message dropped')
  }

  // reconciling: the store's live RFQs are the truth; one pass at a time, another queued behind it at most
  let reconciling: Promise<void> | null = null, again = false
  const reconcile = (why: string) => {
    if (reconciling) { again = true; return }
    stats.reconciles++
    reconciling = o.loadLive().then(live => o.book.replica?.reconcile(live), err => o.log.warn({ err, why }, 'cluster reconcile failed; retried at the next gap or reconnect'))
      .finally(() => { reconciling = null; if (again) { again = false; reconcile('queued') } })
  }

  /** Every node's messages of one channel, opened and placed in their sender's order before `onMessage` sees them. */
  const listen = (channel: Channel, onMessage: (m: Opened, place: Place) => void) => {
    nc.subscribe(channelSubjects(o.venue, channel), { callback: (err, msg) => {
      if (err) return
      const from = peers.get(keyOfSubject(msg.subject))
      const m = open(from, channel, msg.data)
      if (typeof m === 'string') return drop(m, { subject: msg.subject })
      // a node never hears itself (noEcho): its own signature coming back is a recording played back
      const place = m.origin === nodeId ? 'replayed' : order.admit(m.origin, channel, m.epoch, m.seq)
      if (place === 'replayed') return drop('replayed', { from: m.origin, channel, epoch: m.epoch, seq: m.seq })
      stats.messagesReceived++
      onMessage(m, place)
    } })
  }

  const termsOf = (id: string) => o.book.quoteTerms(id)
  listen('events', (m, place) => {
    if (place === 'gap' || place === 'restart') {
      stats.gaps++
      reconcile(place === 'gap' ? `gap from ${m.origin}` : `${m.origin} restarted`)
    }
    let unknown: Set<string> | undefined
    for (const w of m.body as WireEvent[]) {
      try {
        o.book.replica?.applyRemote(fromWire(w, termsOf))
        stats.received++
        if (Array.isArray(w)) o.applied?.(w[11])      // a quote: its receivedAt on its node
      } catch (err) {
        // a quote for an RFQ this node has not heard of: the store has both (the quote was stored first). Past
        // a few such RFQs in one message, one reconcile reads them all: a message cannot cost a read per quote
        if (err instanceof UnknownRfq) {
          stats.received++
          unknown ??= new Set()
          if (unknown.has(err.rfqId)) continue
          unknown.add(err.rfqId)
          if (unknown.size <= MAX_ADOPTS) void o.book.replica?.adopt(err.rfqId)
          else if (unknown.size === MAX_ADOPTS + 1) reconcile(`many unknown RFQs from ${m.origin}`)
          continue
        }
        drop('bad_event', { from: m.origin, err })
      }
    }
  })
  // A heartbeat carries the last batch its node sent: a batch lost on the way (or sent into a dropped link) shows
  // here within a heartbeat even when its node goes quiet after it.
  listen('nodes', (m, place) => {
    heard.set(m.origin, Date.now())
    if (place === 'restart') { stats.gaps++; reconcile(`${m.origin} restarted`) }
    if (order.sent(m.origin, m.body as number) === 'behind') {
      stats.gaps++
      reconcile(`${m.origin} sent batches not heard here`)
    }
  })

  const sealed = (channel: Channel, seq: number, body: unknown) => seal(key.privateKey, channel, nodeId, o.epoch, seq, body)
  const publish = (channel: Channel, bytes: Uint8Array) => {
    if (!nc.isClosed()) nc.publish(subjectOf(o.venue, key.publicKey, channel), bytes)
  }
  const send = (channel: Channel, body: unknown) => publish(channel, sealed(channel, ++seqs[channel], body))
  const sendEvents = (events: WireEvent[]) => {
    for (const bytes of sealEvents(key.privateKey, nodeId, o.epoch, seqs.events + 1, events)) {
      if (bytes.length > MAX_MESSAGE_BYTES) o.log.error({ bytes: bytes.length }, 'a cluster event past MAX_MESSAGE_BYTES: dropped by its peers')
      seqs.events++
      publish('events', bytes)
      stats.messages++
    }
  }

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
    if (!nc.isClosed()) sendEvents(events)
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
    if (connected) send('nodes', seqs.events)
    // A node not heard of lately is no peer. Its last word may not have left it (killed between a commit and
    // its batch), so the book follows the store: what it stored shows here, what it closed closes here.
    const gone = Date.now() - 3 * heartbeatMs
    for (const [id, at] of heard) if (at < gone) { heard.delete(id); reconcile(`${id} went silent`) }
  }, heartbeatMs)
  heartbeat.unref()
  send('nodes', seqs.events)

  let refusedAt = 0
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnecting') {
        if (connected) o.log.warn({ nats: redacted }, 'cluster link lost: serving this node\'s clients; other nodes\' word arrives after reconnect')
        connected = false
      } else if (s.type === 'reconnect') {
        connected = true
        o.log.info({ nats: s.server }, 'cluster link back: reconciling with the store')
        reconcile('reconnect')
        warnIfOpen(nc, redacted, o.log)
      } else if (s.type === 'error' && Date.now() - refusedAt >= WARN_EVERY_MS) {
        // its key taken off the users while it reconnects, or a publish its permissions refuse: said, not flooded
        refusedAt = Date.now()
        o.log.error({ nats: redacted, err: s.error, key: key.publicKey }, 'nats-server refused this node (its user and permissions: nats-server.conf)')
      }
    }
  })().catch(() => {})

  o.log.info({ nodeId, nats: redacted, key: key.publicKey }, 'joined the cluster')
  return {
    nodeId, stats,
    channel(name, onMessage) {
      listen(name, m => onMessage(m.body as unknown[]))
      return body => send(name, body)
    },
    status() {
      const since = Date.now() - 3 * heartbeatMs
      return { nodeId, nats: connected ? 'connected' : 'reconnecting', peers: [...heard].filter(([, at]) => at >= since).map(([id]) => id).sort() }
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
