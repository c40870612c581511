// LiveIndex: a read model of the live RFQs and their accepted quotes, kept from the book's events, so
// pollers are served from memory without asking each RFQ's actor. Every change gets the next sequence
// number, and `since` returns what came after a sequence. What a poller is shown is its position: the
// sequence of the last change it may see (`publicSeq` for everyone; a share-token holder's also moves on its
// RFQ; `lastSeq` of one RFQ for that RFQ's quotes), so nothing a viewer is shown moves on a change it may not
// see. An RFQ that leaves the live set stays readable here for `retainMs`, so a poller learns how it ended.
// Long polls wait on `changed()`, which resolves at the next change its scope may see, or at the timeout.
import { hasExpired } from '../workers/values/index.js'
import type { AcceptedQuote, EndedBy, Rfq, RfqEvent, RfqStatus } from './rfqTypes.js'
import type { EventBus } from './events.js'
import { ANONYMOUS, canSee, type RfqAccess, type Viewer } from './visibility.js'
import { PollWaiters, type WaitScope } from './pollWaiters.js'
import { QuoteTape } from './quoteTape.js'

export interface IndexedRfq {
  rfq: Rfq
  /** sha256 of a private RFQ's share token (the token itself is not kept), for the visibility rule */
  shareTokenHash: string | null
  status: RfqStatus
  quoteCount: number
  /** the sequence of the change that created it */
  seq: number
  /** the sequence of its last change */
  lastSeq: number
  /** its accepted quotes in the order indexed, one string each (quoteTape.ts); `quoteSeqs[i]` is the sequence of
   *  the change that added `quotes.at(i)` */
  quotes: QuoteTape
  /** numbers, not a wrapper object a quote: the index holds every live quote, and each object kept is one more for
   *  every major GC to mark (issue 29: the book's quotes are most of the engine's heap) */
  quoteSeqs: number[]
  /** when it left the live set (ms), for retention */
  closedAt: number | null
  /** when and by whom it ended, as its end event said (null while open) */
  endedAt: Date | null
  endedBy: EndedBy | null
}

/** An indexed RFQ's quotes added after sequence `since`, in the order indexed (their sequences only grow). */
export function quotesSince(r: Pick<IndexedRfq, 'quotes' | 'quoteSeqs'>, since: number): AcceptedQuote[] {
  let i = r.quoteSeqs.length
  while (i > 0 && r.quoteSeqs[i - 1]! > since) i--
  return r.quotes.slice(i)
}

export interface LiveIndexOptions {
  retainMs?: number
  now?: () => number
}

export class LiveIndex {
  private readonly byId = new Map<string, IndexedRfq>()
  private lastSeq = 0
  private lastPublicSeq = 0
  private readonly waiters = new PollWaiters()
  /** indexed RFQs by share-token hash: a token holder's position */
  private readonly byShareHash = new Map<string, string>()
  private readonly retainMs: number
  private lastSweep = -Infinity
  private timeouts = 0
  private readonly now: () => number
  private readonly unsubscribe: () => void

  constructor(events: EventBus<RfqEvent>, opts: LiveIndexOptions = {}) {
    this.retainMs = opts.retainMs ?? 5 * 60_000
    this.now = opts.now ?? Date.now
    this.unsubscribe = events.subscribe(e => this.apply(e))
  }

  /** The sequence of the last change, whoever may see it (never shown to a client as it is). */
  get seq(): number {
    return this.lastSeq
  }

  /** The sequence of the last change everyone may see. */
  get publicSeq(): number {
    return this.lastPublicSeq
  }

  /** A viewer's position in the list: the last change to a public RFQ, or to one its share tokens open. */
  positionFor(viewer: Viewer): number {
    let at = this.lastPublicSeq
    for (const h of viewer.shareTokenHashes) {
      const id = this.byShareHash.get(h)
      const r = id === undefined ? undefined : this.byId.get(id)
      if (r && r.lastSeq > at && canSee(accessOf(r), viewer)) at = r.lastSeq
    }
    return at
  }

  /** RFQs restored at start: indexed at sequence 0, without a change of their own (they predate every cursor). */
  restore(items: { rfq: Rfq; shareTokenHash: string | null; quotes: AcceptedQuote[] }[]): void {
    for (const { rfq, shareTokenHash, quotes } of items) {
      if (this.byId.has(rfq.id)) continue // a cluster node may hear of it before its restore
      this.byId.set(rfq.id, {
        rfq,
        shareTokenHash,
        status: quotes.length ? 'QUOTED' : 'OPEN',
        quoteCount: quotes.length,
        seq: 0,
        lastSeq: 0,
        quotes: new QuoteTape(rfq, quotes),
        quoteSeqs: quotes.map(() => 0),
        closedAt: null,
        endedAt: null,
        endedBy: null,
      })
      if (shareTokenHash) this.byShareHash.set(shareTokenHash, rfq.id)
    }
  }

  /** Live, unexpired RFQs (OPEN or QUOTED), newest first; with `since`, only those created after it. */
  live(since = -1): IndexedRfq[] {
    this.sweep()
    const now = this.now()
    const out: IndexedRfq[] = []
    for (const r of this.byId.values())
      if (r.closedAt === null && r.seq > since && !hasExpired(r.rfq.expiry, now)) out.push(r)
    return out.sort((a, b) => b.rfq.createdAt.getTime() - a.rfq.createdAt.getTime() || b.seq - a.seq)
  }

  /** A live or recently closed RFQ, with its quotes. */
  get(id: string): IndexedRfq | undefined {
    this.sweep()
    return this.byId.get(id)
  }

  /**
   * Resolves at the next change `scope` may see (one RFQ's, or a viewer's list's), or after `timeoutMs`;
   * `cancel` frees it early (a client that left).
   */
  changed(timeoutMs: number, scope: WaitScope = { viewer: ANONYMOUS }): { done: Promise<boolean>; cancel(): void } {
    let settle!: (changed: boolean) => void
    const done = new Promise<boolean>(r => {
      settle = r
    })
    const timer = setTimeout(() => {
      this.timeouts++
      finish(false)
    }, timeoutMs)
    const remove = this.waiters.add(scope, () => finish(true))
    function finish(v: boolean) {
      clearTimeout(timer)
      remove()
      settle(v)
    }
    return { done, cancel: () => finish(false) }
  }

  get waiting(): number {
    return this.waiters.size
  }
  /** held polls whose wait ran out with no change they may see, ever */
  get timedOut(): number {
    return this.timeouts
  }
  /** held polls woken by a change they may see, ever */
  get wakeups(): number {
    return this.waiters.woken
  }

  close(): void {
    this.unsubscribe()
    this.waiters.wakeEveryone()
  }

  private apply(e: RfqEvent): void {
    let r: IndexedRfq | undefined
    switch (e.type) {
      case 'rfq.created':
        r = {
          rfq: e.rfq,
          shareTokenHash: e.shareTokenHash,
          status: 'OPEN',
          quoteCount: 0,
          seq: ++this.lastSeq,
          lastSeq: 0,
          quotes: new QuoteTape(e.rfq),
          quoteSeqs: [],
          closedAt: null,
          endedAt: null,
          endedBy: null,
        }
        this.byId.set(e.rfq.id, r)
        if (e.shareTokenHash) this.byShareHash.set(e.shareTokenHash, e.rfq.id)
        break
      case 'rfq.quoted': {
        r = this.byId.get(e.rfqId)
        if (!r) return
        r.quotes.push(e.quote)
        r.quoteSeqs.push(++this.lastSeq)
        r.quoteCount++
        if (r.status === 'OPEN') r.status = 'QUOTED'
        break
      }
      case 'rfq.cancelled':
      case 'rfq.filled':
      case 'rfq.expired': {
        r = this.byId.get(e.rfqId)
        if (!r || r.closedAt !== null) return
        r.status = e.type === 'rfq.cancelled' ? 'CANCELLED' : e.type === 'rfq.filled' ? 'FILLED' : 'EXPIRED'
        r.closedAt = this.now()
        r.endedAt =
          e.type === 'rfq.cancelled' ? e.cancelledAt : e.type === 'rfq.expired' ? e.endedAt : new Date(r.closedAt)
        r.endedBy = e.type === 'rfq.expired' ? e.endedBy : 'taker'
        ++this.lastSeq
        break
      }
      case 'fill.recorded':
        return
    }
    r.lastSeq = this.lastSeq
    const access = accessOf(r)
    if (canSee(access, ANONYMOUS)) this.lastPublicSeq = this.lastSeq
    this.waiters.wake(r.rfq.id, access)
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
    for (const [id, r] of this.byId) {
      if (r.closedAt === null || r.closedAt >= cutoff) continue
      this.byId.delete(id)
      if (r.shareTokenHash && this.byShareHash.get(r.shareTokenHash) === id) this.byShareHash.delete(r.shareTokenHash)
    }
  }
}

/** What the visibility rule reads of an indexed RFQ. */
export function accessOf(r: IndexedRfq): RfqAccess {
  return { visibility: r.rfq.visibility, shareTokenHash: r.shareTokenHash, agentId: r.rfq.agentId }
}
