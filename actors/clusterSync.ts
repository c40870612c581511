// ClusterSync (cluster mode only) keeps this node's book in step with the venue: every node keeps an actor for
// every live RFQ of the venue (a replica, for the RFQs other nodes created), so a quote for any RFQ is checked, its
// signer recovered, and its commit fenced on the node that received it. Other nodes' events reach the book here; the
// store settles whatever the events leave open (an RFQ heard of first through a quote, a write the store refused, a
// reconnect after an outage). No replica is an owner: the store's conditional writes decide every race, so a node
// that dies takes nothing with it.
import type { ActorRef } from './mailbox.js'
import type { EventBus } from './events.js'
import type { EndedBy, RestoredRfq, RfqEvent } from './rfqTypes.js'
import type { RfqMsg } from './rfq.js'

/** How a closed RFQ ended, as the store has it (`at` and `by` when it says). */
export interface StoredEnd {
  status: 'CANCELLED' | 'FILLED' | 'EXPIRED'
  at: Date | null
  txHash: string | null
  by?: EndedBy | null
}

/** What the sync reads from the shared store: a live RFQ this node has not heard of, and how one ended. */
export interface ClusterStorePort {
  liveRfq(id: string): Promise<RestoredRfq | undefined>
  /** the live RFQ whose share token hashes to this, if any */
  liveShared(shareTokenHash: string): Promise<RestoredRfq | undefined>
  /** undefined while it is open */
  endOf(id: string): Promise<StoredEnd | undefined>
}

/** The book as the sync sees it. */
export interface SyncedBook {
  entry(id: string): ActorRef<RfqMsg> | undefined
  ids(): Iterable<string>
  spawn(r: RestoredRfq): void
  events: EventBus<RfqEvent>
  onWarn?: (msg: string, detail: object) => void
}

const ENDED_KEPT = 50_000
const ENDED_MS = 10 * 60_000

export class ClusterSync {
  /** RFQs that ended (id -> when), so a late creation or quote from another node cannot bring one back */
  private readonly ended = new Map<string, number>()
  /** live RFQs being read from the store, one read per RFQ at a time */
  private readonly adopting = new Map<string, Promise<boolean>>()
  /** share-token hashes the store had no live RFQ for (polls and SUBSCRIBEs with an old token read it once) */
  private readonly openedNothing = new Set<string>()
  /** RFQs asked for again while their read ran */
  private readonly rereads = new Set<string>()
  adopted = 0

  constructor(
    private readonly store: ClusterStorePort,
    private readonly book: SyncedBook,
  ) {
    // an RFQ this node closed through the store without holding it (its creation's word still on the way)
    // is ended here too, so that word, arriving late, brings no ghost back
    book.events.subscribe(e => {
      if (
        (e.type === 'rfq.cancelled' || e.type === 'rfq.filled' || e.type === 'rfq.expired') &&
        !e.remote &&
        !book.entry(e.rfqId)
      )
        this.markEnded(e.rfqId)
    })
  }

  /** Another node's event: the book follows it, and this node's readers and sockets see it once. */
  applyRemote(e: RfqEvent): void {
    e.remote = true
    switch (e.type) {
      case 'rfq.created':
        if (this.book.entry(e.rfq.id) || this.ended.has(e.rfq.id)) return
        this.book.spawn({ rfq: e.rfq, shareTokenHash: e.shareTokenHash, quotes: [] })
        this.book.events.publish(e)
        return
      case 'rfq.quoted': {
        // stored before its word left the origin: an RFQ first heard of through a quote is read from the store
        const ref = this.book.entry(e.rfqId)
        if (ref) ref.tell({ type: 'RemoteQuoted', accepted: e.quote, event: e })
        else void this.adopt(e.rfqId)
        return
      }
      case 'rfq.cancelled':
      case 'rfq.filled':
      case 'rfq.expired': {
        const end: StoredEnd =
          e.type === 'rfq.cancelled'
            ? { status: 'CANCELLED', at: e.cancelledAt, txHash: null }
            : e.type === 'rfq.filled'
              ? { status: 'FILLED', at: null, txHash: e.txHash }
              : { status: 'EXPIRED', at: e.endedAt, txHash: null, by: e.endedBy }
        const ref = this.book.entry(e.rfqId)
        if (ref) ref.tell({ type: 'RemoteClosed', ...end })
        else this.markEnded(e.rfqId)
        return
      }
      case 'fill.recorded':
        this.book.events.publish(e)
    }
  }

  /** The book follows the store's live RFQs (after a NATS outage, or a lost message). */
  reconcile(live: readonly RestoredRfq[]): void {
    const ids = new Set(live.map(r => r.rfq.id))
    for (const r of live) {
      const ref = this.book.entry(r.rfq.id)
      if (!ref) this.join(r)
      else for (const accepted of r.quotes) ref.tell({ type: 'RemoteQuoted', accepted }) // the actor keeps a maker's first only
    }
    for (const id of [...this.book.ids()]) if (!ids.has(id)) void this.learnEnd(id) // still open in the store: nothing happens
  }

  /**
   * A live RFQ this node has not heard of (its creation's word is late or lost) is read from the store; true once
   * it is in the book. A read asked for while one is running is made again after it: a quote stored after the
   * first read's snapshot is shown too. When the RFQ joined the book meanwhile (its word came during the read),
   * the stored quotes are told to it; its actor keeps a maker's first only.
   */
  adopt(id: string): Promise<boolean> {
    if (this.ended.has(id)) return Promise.resolve(false)
    const running = this.adopting.get(id)
    if (running) {
      this.rereads.add(id)
      return running
    }
    const read = this.readLive(id).finally(() => {
      this.adopting.delete(id)
      if (this.rereads.delete(id)) void this.adopt(id)
    })
    this.adopting.set(id, read)
    return read
  }

  /** A store that does not answer is logged and the RFQ left as it is, not rejected: `void this.adopt(id)` drops nothing. */
  private async readLive(id: string): Promise<boolean> {
    let r: RestoredRfq | undefined
    try {
      r = await this.store.liveRfq(id)
    } catch (err) {
      this.book.onWarn?.('live RFQ not read from the store', { rfqId: id, err })
      return this.book.entry(id) !== undefined
    }
    if (r) return this.take(r)
    if (!this.book.entry(id)) this.markEnded(id) // not live in the store: never created, or over; no word brings it back
    return this.book.entry(id) !== undefined
  }

  /** A live RFQ read from the store: it joins the book, or (its word came during the read) hands it its stored quotes. */
  private take(r: RestoredRfq): boolean {
    const ref = this.book.entry(r.rfq.id)
    if (ref) for (const accepted of r.quotes) ref.tell({ type: 'RemoteQuoted', accepted })
    else {
      this.join(r)
      if (this.book.entry(r.rfq.id)) this.adopted++
    }
    return this.book.entry(r.rfq.id) !== undefined
  }

  /**
   * A private RFQ asked for by its share token before its creation's word reached this node (the token's holder
   * may subscribe here the moment the creating node answered): read from the store by the token's hash.
   * The id once it is in the book; undefined for a token that opens nothing live.
   */
  async adoptShared(shareTokenHash: string): Promise<string | undefined> {
    if (this.openedNothing.has(shareTokenHash)) return undefined
    let r: RestoredRfq | undefined
    try {
      r = await this.store.liveShared(shareTokenHash)
    } catch (err) {
      this.book.onWarn?.('live RFQ not read from the store by its share token', { err })
      return undefined
    }
    if (!r) {
      // a token is handed out only after its RFQ is stored: one that opens nothing live now never will
      if (this.openedNothing.size >= ENDED_KEPT) this.openedNothing.delete(this.openedNothing.values().next().value!)
      this.openedNothing.add(shareTokenHash)
      return undefined
    }
    return this.take(r) ? r.rfq.id : undefined
  }

  /** The store refused a write because the RFQ is closed there: its actor ends as the store says. */
  async learnEnd(id: string): Promise<void> {
    const end = await this.store.endOf(id).catch((err: unknown) => {
      this.book.onWarn?.('end of an RFQ closed in the store not read: its actor stays open until the next reconcile', {
        rfqId: id,
        err,
      })
      return undefined
    })
    if (end) this.book.entry(id)?.tell({ type: 'RemoteClosed', ...end })
  }

  hasEnded(id: string): boolean {
    return this.ended.has(id)
  }

  markEnded(id: string): void {
    this.ended.delete(id) // kept in the order they ended: the oldest go first
    this.ended.set(id, Date.now())
    if (this.ended.size <= ENDED_KEPT) return
    const cutoff = Date.now() - ENDED_MS
    for (const [k, at] of this.ended) {
      if (at >= cutoff && this.ended.size <= ENDED_KEPT) break
      this.ended.delete(k)
    }
  }

  /** A live RFQ from the store joins the book; this node's readers and sockets see it and its quotes once. */
  private join(r: RestoredRfq): void {
    if (this.ended.has(r.rfq.id)) return
    this.book.spawn(r)
    this.book.events.publish({ type: 'rfq.created', rfq: r.rfq, shareTokenHash: r.shareTokenHash, remote: true })
    for (const quote of r.quotes) this.book.events.publish({ type: 'rfq.quoted', rfqId: r.rfq.id, quote, remote: true })
  }
}
