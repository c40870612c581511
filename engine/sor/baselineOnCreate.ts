// Server-side baselines: when an RFQ is created, the route finder quotes its pair at that moment
// and the quote is stored as the RFQ's AMM baseline (source 'sor'), so every RFQ, not only those
// whose client posted a baseline, is benchmarked when its fill is recorded. A client's own
// baseline later replaces it (engine/baseline/storeBaseline.ts).
import type { Logger } from 'pino'
import type { EventBus } from '../../actors/events.js'
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { Sql } from '../store/db.js'
import { storeBaseline, baselineFromSorQuote } from '../baseline/storeBaseline.js'
import type { RouteFinder } from './service.js'

export interface ServerBaselines {
  /** resolves when every baseline started so far is stored (tests, shutdown) */
  settled(): Promise<void>
  stop(): void
}

export function storeServerBaselines({ events, routeFinder, sql, log }: { events: EventBus<RfqEvent>; routeFinder: RouteFinder; sql: Sql; log: Logger }): ServerBaselines {
  const inFlight = new Set<Promise<void>>()
  const unsubscribe = events.subscribe(e => {
    if (e.type !== 'rfq.created' || e.remote) return      // in a cluster, the node that created it stores its baseline
    const rfq = e.rfq
    // The route finder quotes exact input; an EXACT_OUT RFQ has no input amount to quote yet.
    if (rfq.kind !== 0 || rfq.amountIn === null) return
    const work: Promise<void> = routeFinder.quote({ tokenIn: rfq.tokenIn, tokenOut: rfq.tokenOut, amountIn: rfq.amountIn, explain: false })
      .then(async o => {
        if (!o.ok) { log.debug({ rfqId: rfq.id, code: o.code }, 'no server-side baseline for this RFQ'); return }
        const q = o.value
        if (!q.routes.length || BigInt(q.summary.amountOut) <= 0n) return      // no route: nothing to benchmark against
        // the pools could route only part of it: kept, marked partial, never a benchmark for the whole
        await storeBaseline(sql, { ...baselineFromSorQuote(rfq.id, q), partial: BigInt(q.summary.amountIn) < rfq.amountIn! })
      })
      .catch((err: unknown) => log.debug({ err, rfqId: rfq.id }, 'no server-side baseline for this RFQ'))
      .finally(() => { inFlight.delete(work) })
    inFlight.add(work)
  })
  return {
    async settled() { await Promise.all([...inFlight]) },
    stop: unsubscribe,
  }
}
