// The cluster link (NATS_URL set): this node's RFQ events go to every other node over core NATS, and theirs
// come into this node's book, which shows them to its readers and sockets once. NATS only moves the word;
// PostgreSQL stays the arbiter (quotes are stored before their word leaves, status changes are conditional),
// so a lost, late or reordered message can make a node's view late, never wrong in the store. A node that
// sees a gap in another node's sequence, or comes back from a NATS outage, reconciles its book with the store.
// Every message is signed by its node and opened (envelope.ts) before anything reads it: what a listed node did
// not sign, or what it sent before, is counted and dropped (docs/cluster.md#who-may-speak-on-the-wire).
//
// The link is a few named units joined here: the wire (wire.ts: sealed, ordered channels), the outbox (this node's
// events in batches), the remote events (other nodes' batches into the book), the peers (heartbeats), the store sync
// (reconciler.ts) and the supervised watch on the NATS connection (natsStatus.ts).
//
// Loaded only through a dynamic import: a single node never loads the NATS client.
import type { Logger } from 'pino'
import type { NatsConnection, Status } from '@nats-io/transport-node'
import type { RfqBook, RestoredRfq } from '../../actors/book.js'
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { ClusterIdentity } from './identity.js'
import type { DropReason } from './envelope.js'
import { connectNats, warnIfOpen } from './natsAccess.js'
import { toWire, type WireEvent } from './wireEvents.js'
import { ClusterWire } from './wire.js'
import { WARN_EVERY_MS } from './drops.js'
import { Reconciler } from './reconciler.js'
import { Outbox } from './outbox.js'
import { Peers } from './peers.js'
import { RemoteEvents } from './remoteEvents.js'
import { StatusWatch } from './natsStatus.js'

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
  log: Logger
  heartbeatMs?: number
  /** the events of this long leave in one message (0: those of one event-loop turn) */
  batchMs?: number
  /** a quote from another node applied here, `originMs` when that node received it (the apply-lag histogram) */
  applied?(originMs: number): void
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
  readonly stats: {
    readonly sent: number
    readonly messages: number
    readonly received: number
    /** NATS messages from other nodes opened here (signed, in order), every channel */
    readonly messagesReceived: number
    readonly gaps: number
    readonly reconciles: number
    readonly statusLoopRestarts: number
    readonly dropped: Record<DropReason, number>
  }
  /** the supervised loop over the connection's statuses; `kill` ends it as a crash would (tests, drills) */
  readonly statusLoop: Pick<StatusWatch, 'kill' | 'restarts'>
  /** Rate-limit hits between the nodes (signed and ordered like the events): returns how to send a batch. */
  channel(name: 'limits', onMessage: (body: unknown[]) => void): (body: unknown[]) => void
  close(): Promise<void>
}

export async function joinCluster(options: ClusterLinkOptions): Promise<ClusterLink> {
  const heartbeatMs = options.heartbeatMs ?? 1000
  const { nc, redacted } = await connectNats(options.url, options.identity, options.log)
  const { identity, book, log } = options
  const wire = new ClusterWire({ nc, identity, epoch: options.epoch, venue: options.venue, log })
  const storeSync = new Reconciler(options.loadLive, live => options.book.sync?.reconcile(live), options.log)
  const remote = new RemoteEvents({
    sync: book.sync,
    termsOf: id => book.quoteTerms(id),
    drops: wire.drops,
    reconcile: why => storeSync.reconcile(why),
    applied: options.applied,
  })
  const peers = new Peers(heartbeatMs)
  const gaps = { count: 0 }
  const gap = (why: string) => {
    gaps.count++
    storeSync.reconcile(why)
  }
  let heardMessages = 0

  wire.listen('events', (message, place) => {
    heardMessages++
    if (place === 'gap') gap(`gap from ${message.origin}`)
    if (place === 'restart') gap(`${message.origin} restarted`)
    remote.apply(message.origin, message.body as WireEvent[])
  })
  // A heartbeat carries the last batch its node sent: a batch lost on the way (or sent into a dropped link) shows
  // here within a heartbeat even when its node goes quiet after it.
  wire.listen('nodes', (message, place) => {
    heardMessages++
    peers.heard(message.origin, Date.now())
    if (place === 'restart') gap(`${message.origin} restarted`)
    if (wire.missed(message.origin, message.body as number)) gap(`${message.origin} sent batches not heard here`)
  })

  const outbox = new Outbox(events => wire.sendEvents(events), options.batchMs ?? 5)
  const unsubscribe = options.book.events.subscribe(event => sendOn(event, options.book, outbox))
  const connection = watchConnection(nc, redacted, options, {
    reconcile: why => storeSync.reconcile(why),
    heartbeat: () => wire.send('nodes', wire.lastEventsSent),
  })
  const heartbeat = setInterval(() => {
    if (connection.connected) wire.send('nodes', wire.lastEventsSent)
    // A node not heard of lately is no peer. Its last word may not have left it (killed between a commit and
    // its batch), so the book follows the store: what it stored shows here, what it closed closes here.
    for (const id of peers.silent(Date.now())) storeSync.reconcile(`${id} went silent`)
  }, heartbeatMs)
  heartbeat.unref()
  wire.send('nodes', wire.lastEventsSent)

  log.info({ nodeId: identity.nodeId, nats: redacted, key: identity.key.publicKey }, 'joined the cluster')
  return {
    nodeId: options.identity.nodeId,
    stats: {
      get sent() {
        return outbox.sent
      },
      get messages() {
        return wire.messages
      },
      get received() {
        return remote.received
      },
      get messagesReceived() {
        return heardMessages
      },
      get gaps() {
        return gaps.count
      },
      get reconciles() {
        return storeSync.passes
      },
      get statusLoopRestarts() {
        return connection.watch.restarts
      },
      dropped: wire.drops.counts,
    },
    statusLoop: connection.watch,
    channel(name, onMessage) {
      wire.listen(name, message => {
        heardMessages++
        onMessage(message.body as unknown[])
      })
      return body => wire.send(name, body)
    },
    status() {
      const nats = connection.connected ? 'connected' : 'reconnecting'
      return { nodeId: identity.nodeId, nats, peers: peers.list(Date.now()) }
    },
    async close() {
      unsubscribe()
      outbox.flush()
      clearInterval(heartbeat)
      await connection.watch.stop()
      await nc.drain().catch((err: unknown) => options.log.warn({ err }, 'cluster link: NATS did not drain at close'))
      await storeSync.idle()
    },
  }
}

/** This node's own events go out (another node's word is never sent on; expiry is each node's own timer). */
function sendOn(event: RfqEvent, book: RfqBook, outbox: Outbox): void {
  if (event.remote) return
  const wired = toWire(event, event.type === 'rfq.quoted' ? book.quoteTerms(event.rfqId) : undefined)
  if (wired) outbox.push(wired)
}

/**
 * The connection as the link sees it: up or reconnecting, from the statuses the supervised watch reads. A reconnect
 * reconciles with the store; a restart of the watch asks the server whether the link is up and reconciles too, since
 * a reconnect may have come while no loop was listening.
 */
function watchConnection(
  nc: NatsConnection,
  redacted: string,
  options: Pick<ClusterLinkOptions, 'log' | 'identity'>,
  link: { reconcile(why: string): void; heartbeat(): void },
): { readonly connected: boolean; watch: StatusWatch } {
  const state = { connected: true, refusedAt: -Infinity }
  const onStatus = (status: Status) => {
    if (status.type === 'disconnect' || status.type === 'reconnecting') {
      if (state.connected) {
        options.log.warn(
          { nats: redacted },
          "cluster link lost: serving this node's clients; other nodes' word arrives after reconnect",
        )
      }
      state.connected = false
    } else if (status.type === 'reconnect') {
      state.connected = true
      options.log.info({ nats: status.server }, 'cluster link back: reconciling with the store')
      link.reconcile('reconnect')
      warnIfOpen(nc, redacted, options.log)
    } else if (status.type === 'error' && Date.now() - state.refusedAt >= WARN_EVERY_MS) {
      // its key taken off the users while it reconnects, or a publish its permissions refuse: said, not flooded
      state.refusedAt = Date.now()
      options.log.error(
        { nats: redacted, err: status.error, key: options.identity.key.publicKey },
        'nats-server refused this node (its user and permissions: nats-server.conf)',
      )
    }
  }
  const onRestart = () => {
    // rtt() answers only over a live connection; reconcile never throws, so the chain cannot reject
    void nc
      .rtt()
      .then(
        () => {
          state.connected = true
          link.heartbeat()
        },
        () => {
          state.connected = false
        },
      )
      .finally(() => link.reconcile('status loop restarted'))
  }
  const watch = new StatusWatch(nc, { onStatus, onRestart, log: options.log })
  return {
    get connected() {
      return state.connected
    },
    watch,
  }
}
