// LiveIndex: a read model of the live RFQs and their accepted quotes, kept from the book's events, so
// pollers are served from memory without asking each RFQ's actor. Every change gets the next sequence
// number: a poller's cursor is the last sequence it has seen, `since` returns what came after it, and
// the ETag is the sequence of the last change (nothing changed, same ETag). An RFQ that leaves the
// live set stays readable here for `retainMs`, so a poller learns how it ended. Long polls wait on
// `changed()`, which resolves at the next change or at the timeout.
import type { AcceptedQuote, EndedBy, Rfq, RfqEvent, RfqStatus } from './rfqTypes.js'
import type { EventBus } from './events.js'

export interface IndexedRfq {
  rfq: Rfq
  /** sha256 of a private RFQ's share token (the token itself is not kept), for the visibility rule */
  shareTokenHash: string | null
  status: RfqStatus
  quoteCount: number
  /** the sequence of the change that created it */
  seq: number
  quotes: IndexedQuote[]
  /** when it left the live set (ms), for retention */
  closedAt: number | null
  /** when and by whom it ended, as its end event said (null while open) */
  endedAt: Date | null
  endedBy: EndedBy | null
}

export interface IndexedQuote { quote: AcceptedQuote; seq: number }

export interface LiveIndexOptions { retainMs?: number; now?: () => number }

export class LiveIndex {
  private readonly byId = new Map<string, IndexedRfq>()
  private lastSeq = 0
  private waiters = new Set<() => void>()
  private readonly retainMs: number
  private lastSweep = -Infinity
  private readonly now: () => number
  private readonly unsubscribe: () => void

  constructor(events: EventBus<RfqEvent>, opts: LiveIndexOptions = {}) {
    this.retainMs = opts.retainMs ?? 5 * 60_000
    this.now = opts.now ?? Date.now
    this.unsubscribe = events.subscribe(e => this.apply(e))
  }

  /** The sequence of the last change: the ETag's source and a fresh poller's cursor. */
  get seq(): number { return this.lastSeq }

  /** RFQs restored at start: indexed at sequence 0, without a change of their own (they predate every cursor). */
  restore(items: { rfq: Rfq; shareTokenHash: string | null; quotes: AcceptedQuote[] }[]): void {
    for (const { rfq, shareTokenHash, quotes } of items) {
      if (this.byId.has(rfq.id)) continue             // a cluster node may hear of it before its restore
      this.byId.set(rfq.id, { rfq, shareTokenHash, status: quotes.length ? 'QUOTED' : 'OPEN', quoteCount: quotes.length, seq: 0, quotes: quotes.map(quote => ({ quote, seq: 0 })),
        closedAt: null, endedAt: null, endedBy: null })
    }
  }

  /** Live, unexpired RFQs (OPEN or QUOTED), newest first; with `since`, only those created after it. */
  live(since = -1): IndexedRfq[] {
    this.sweep()
    const nowSec = this.now() / 1000
    const out: IndexedRfq[] = []
    for (const r of this.byId.values()) if (r.closedAt === null && r.seq > since && r.rfq.expiry > nowSec) out.push(r)
    return out.sort((a, b) => b.rfq.createdAt.getTime() - a.rfq.createdAt.getTime() || b.seq - a.seq)
  }

  /** A live or recently closed RFQ, with its quotes. */
  get(id: string): IndexedRfq | undefined {
    this.sweep()
    return this.byId.get(id)
  }

  /** Resolves at the next change, or after `timeoutMs`; `cancel` frees it early (a client that left). */
  changed(timeoutMs: number): { done: Promise<boolean>; cancel(): void } {
    let settle!: (changed: boolean) => void
    const done = new Promise<boolean>(r => { settle = r })
    const wake = () => finish(true)
    const timer = setTimeout(() => finish(false), timeoutMs)
    const finish = (v: boolean) => { clearTimeout(timer); this.waiters.delete(wake); settle(v) }
    this.waiters.add(wake)
    return { done, cancel: () => finish(false) }
  }

  get waiting(): number { return this.waiters.size }

  close(): void {
    this.unsubscribe()
    for (const w of [...this.waiters]) w()
  }

  private apply(e: RfqEvent): void {
    switch (e.type) {
      case 'rfq.created':
        this.byId.set(e.rfq.id, { rfq: e.rfq, shareTokenHash: e.shareTokenHash, status: 'OPEN', quoteCount: 0, seq: ++this.lastSeq, quotes: [],
          closedAt: null, endedAt: null, endedBy: null })
        break
      case 'rfq.quoted': {
        const r = this.byId.get(e.rfqId)
        if (!r) return
        r.quotes.push({ quote: e.quote, seq: ++this.lastSeq })
        r.quoteCount++
        if (r.status === 'OPEN') r.status = 'QUOTED'
        break
      }
      case 'rfq.cancelled': case 'rfq.filled': case 'rfq.expired': {
        const r = this.byId.get(e.rfqId)
        if (!r || r.closedAt !== null) return
        r.status = e.type === 'rfq.cancelled' ? 'CANCELLED' : e.type === 'rfq.filled' ? 'FILLED' : 'EXPIRED'
        r.closedAt = this.now()
        r.endedAt = e.type === 'rfq.cancelled' ? e.cancelledAt : e.type === 'rfq.expired' ? e.endedAt : new Date(r.closedAt)
        r.endedBy = e.type === 'rfq.expired' ? e.endedBy : 'taker'
        ++this.lastSeq
        break
      }
      default: return
    }
    if (!this.waiters.size) return                         // no copy per quote when nobody waits
    const waiters = [...this.waiters]
    for (const w of waiters) w()
  }

  /**
   * Forgets RFQs closed longer than `retainMs` ago. A walk over every entry, so at most once a second:
   * readers call it on every read (the SSE feed on every event), and a walk per quote would cost the relay
   * a third of its throughput. A closed entry outlives its retention by a second (or a quarter of it) at most.
   */
  private sweep(): void {
    const now = this.now()
    if (now - this.lastSweep < Math.min(1000, this.retainMs / 4) && now >= this.lastSweep) return
    this.lastSweep = now
    const cutoff = now - this.retainMs
    for (const [id, r] of this.byId) if (r.closedAt !== null && r.closedAt < cutoff) this.byId.delete(id)
  }
}
