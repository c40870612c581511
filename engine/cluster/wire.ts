// The cluster's wire: this node's side of the venue's NATS subjects. What it sends is sealed (signed, numbered per
// channel within this node's run); what it hears is opened (envelope.ts) and placed in its sender's order
// (sequences.ts) before a listener sees it, and what fails either is a counted drop. Subscription errors (a subject
// the server's permissions refuse) are logged, never swallowed.
import type { Logger } from 'pino'
import type { NatsConnection } from '@nats-io/transport-node'
import type { ClusterIdentity } from './identity.js'
import { channelSubjects, keyOfSubject, subjectOf, type Channel } from './subjects.js'
import { seal, sealEvents, open, MAX_MESSAGE_BYTES, type Opened } from './envelope.js'
import { Sequences, type Place } from './sequences.js'
import { Drops, WARN_EVERY_MS } from './drops.js'
import type { WireEvent } from './wireEvents.js'

export interface WireOptions {
  nc: NatsConnection
  identity: ClusterIdentity
  /** this run of the node (epoch.ts) */
  epoch: number
  /** subjects are scoped to one venue (chain and contract), so two venues can share a NATS server */
  venue: string
  log: Logger
}

export class ClusterWire {
  readonly drops: Drops
  /** NATS messages that carried this node's events */
  messages = 0
  private readonly seqs: Record<Channel, number> = { events: 0, nodes: 0, limits: 0 }
  private readonly order = new Sequences()
  private subscriptionErrorAt = -Infinity

  constructor(private readonly o: WireOptions) {
    this.drops = new Drops(o.log)
  }

  /** Every node's messages of one channel, opened and placed in their sender's order before `onMessage` sees them. */
  listen(channel: Channel, onMessage: (message: Opened, place: Place) => void): void {
    const { nc, identity, venue } = this.o
    nc.subscribe(channelSubjects(venue, channel), {
      callback: (err, msg) => {
        if (err) return this.subscriptionFailed(channel, err)
        const opened = open(identity.peers.get(keyOfSubject(msg.subject)), channel, msg.data)
        if (typeof opened === 'string') return this.drops.drop(opened, { subject: msg.subject })
        // a node never hears itself (noEcho): its own signature coming back is a recording played back
        const place =
          opened.origin === identity.nodeId
            ? 'replayed'
            : this.order.admit(opened.origin, channel, opened.epoch, opened.seq)
        if (place === 'replayed') {
          return this.drops.drop('replayed', { from: opened.origin, channel, epoch: opened.epoch, seq: opened.seq })
        }
        onMessage(opened, place)
      },
    })
  }

  send(channel: Channel, body: unknown): void {
    const { identity, epoch } = this.o
    this.publish(channel, seal(identity.key.privateKey, channel, identity.nodeId, epoch, ++this.seqs[channel], body))
  }

  /** A batch of this node's events, in as many messages as MAX_BATCH makes of it. */
  sendEvents(events: WireEvent[]): void {
    const { identity, epoch, log } = this.o
    for (const bytes of sealEvents(identity.key.privateKey, identity.nodeId, epoch, this.seqs.events + 1, events)) {
      if (bytes.length > MAX_MESSAGE_BYTES) {
        log.error({ bytes: bytes.length }, 'a cluster event past MAX_MESSAGE_BYTES: dropped by its peers')
      }
      this.seqs.events++
      this.publish('events', bytes)
      this.messages++
    }
  }

  /** the number of this node's last events message: its heartbeat carries it */
  get lastEventsSent(): number {
    return this.seqs.events
  }

  /** A peer's heartbeat named its last events message: true when this node has not heard it (lost on the way). */
  missed(origin: string, lastSent: number): boolean {
    return this.order.sent(origin, lastSent) === 'behind'
  }

  private publish(channel: Channel, bytes: Uint8Array): void {
    const { nc, venue, identity } = this.o
    if (!nc.isClosed()) nc.publish(subjectOf(venue, identity.key.publicKey, channel), bytes)
  }

  private subscriptionFailed(channel: Channel, err: Error): void {
    if (Date.now() - this.subscriptionErrorAt < WARN_EVERY_MS) return
    this.subscriptionErrorAt = Date.now()
    this.o.log.error(
      { err, channel, key: this.o.identity.key.publicKey },
      'cluster subscription refused by nats-server: this node does not hear that channel (nats-server.conf)',
    )
  }
}
