// Another node's batch of events, applied to this node's book in order. A quote for an RFQ this node has not heard of
// is not lost: the store has both (the quote was stored before its word left), so the RFQ is read from the store;
// past MAX_ADOPTS such RFQs in one message, one reconcile reads them all, so a message cannot cost a read per quote.
// An event that is not one is a counted drop, and the rest of the batch still applies.
import type { ClusterSync } from '../../actors/clusterSync.js'
import type { QuoteTerms } from '../../actors/rfqTypes.js'
import type { Drops } from './drops.js'
import { fromWire, UnknownRfq, type WireEvent } from './wireEvents.js'

/** RFQs one message may make a node read from the store one by one; past it, one reconcile */
export const MAX_ADOPTS = 16

export interface RemoteEventsDeps {
  sync: Pick<ClusterSync, 'applyRemote' | 'adopt'> | undefined
  /** a live RFQ's terms, which its quotes travel without */
  termsOf(rfqId: string): QuoteTerms | undefined
  drops: Pick<Drops, 'drop'>
  reconcile(why: string): void
  /** a quote applied here, `originMs` when its node received it (cluster_apply_lag_seconds) */
  applied?(originMs: number): void
}

export class RemoteEvents {
  /** events applied (an unknown RFQ's quote counts: it is read from the store) */
  received = 0

  constructor(private readonly deps: RemoteEventsDeps) {}

  apply(origin: string, batch: WireEvent[]): void {
    const { sync, termsOf, drops } = this.deps
    let unknown: Set<string> | undefined
    for (const wired of batch) {
      try {
        const event = fromWire(wired, termsOf)
        sync?.applyRemote(event)
        this.received++
        if (event.type === 'rfq.quoted') this.deps.applied?.(event.quote.receivedAtMs)
      } catch (err) {
        if (!(err instanceof UnknownRfq)) {
          drops.drop('bad_event', { from: origin, err })
          continue
        }
        this.received++
        unknown ??= new Set()
        if (unknown.has(err.rfqId)) continue
        unknown.add(err.rfqId)
        if (unknown.size <= MAX_ADOPTS) void sync?.adopt(err.rfqId)
        else if (unknown.size === MAX_ADOPTS + 1) this.deps.reconcile(`many unknown RFQs from ${origin}`)
      }
    }
  }
}
