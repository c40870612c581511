// A quote's way into the book, from the relay or REST: admission control first (engine/rfq/admission.ts), then the
// RFQ's actor, and its verdict and latency counted for /metrics. This is the hot path (tens of thousands a second),
// so no async wrapper: one reaction, whatever the outcome, leaves admission and observes the verdict.
import type { QuoteVerdict, RfqDirectory } from '../../actors/rfqTypes.js'
import { RelayErrors, refuseQuote } from '../../actors/errors.js'
import type { FlowMetrics } from '../metrics/flow.js'
import type { Admission } from './admission.js'

export function admittedQuotes(
  book: RfqDirectory,
  admission: Admission | undefined,
  flow: FlowMetrics | undefined,
): RfqDirectory['submitQuote'] {
  return (...a) => {
    const started = flow ? performance.now() : 0
    const entry = admission?.tryEnter()
    if (entry && !entry.ok) {
      const busy = refuseQuote(RelayErrors.busy(entry.retryAfterMs))
      flow?.quote(busy.code, started)
      return Promise.resolve(busy)
    }
    let answer: Promise<QuoteVerdict>
    try {
      answer = book.submitQuote(...a)
    } catch (e) {
      admission?.leave()
      flow?.quote('INTERNAL', started) // a throw, which the caller answers INTERNAL
      return Promise.reject(e instanceof Error ? e : new Error(String(e)))
    }
    if (!admission && !flow) return answer
    return answer.then(
      v => {
        admission?.leave()
        flow?.quote(v.ok ? undefined : v.code, started)
        return v
      },
      (e: unknown) => {
        admission?.leave()
        flow?.quote('INTERNAL', started)
        throw e
      },
    )
  }
}
