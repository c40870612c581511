// A quote's way into the book, from the relay or REST: admission control first (engine/rfq/admission.ts), then the
// RFQ's actor, and its verdict and latency counted for /metrics. This is the hot path (tens of thousands a second),
// so the relay's way is a callback end to end (`submitQuoteTo`): one closure a quote leaves admission and observes
// the verdict, where a promise and two reactions were (issue 29). REST awaits the same path (`submitQuote`).
import type { RfqDirectory, VerdictTo } from '../../actors/rfqTypes.js'
import { verdictOf } from '../../actors/book.js'
import { RelayErrors, refuseQuote } from '../../actors/errors.js'
import { asError } from '../../workers/values/index.js'
import type { FlowMetrics } from '../metrics/flow.js'
import type { Admission } from './admission.js'

type Intake = Pick<RfqDirectory, 'submitQuote' | 'submitQuoteTo'>

export function admittedQuotes(
  book: Pick<RfqDirectory, 'submitQuoteTo'>,
  admission: Admission | undefined,
  flow: FlowMetrics | undefined,
): Intake {
  const submitQuoteTo: Intake['submitQuoteTo'] = (rfqId, quote, signature, opts, done) => {
    if (!admission && !flow) return book.submitQuoteTo(rfqId, quote, signature, opts, done)
    const started = flow ? performance.now() : 0
    const entry = admission?.tryEnter()
    if (entry && !entry.ok) {
      const busy = refuseQuote(RelayErrors.busy(entry.retryAfterMs))
      flow?.quote(busy.code, started)
      return done(busy)
    }
    let answered = false
    const answer: VerdictTo = v => {
      if (answered) return
      answered = true
      admission?.leave()
      flow?.quote(v instanceof Error ? 'INTERNAL' : v.ok ? undefined : v.code, started) // an Error is answered INTERNAL
      done(v)
    }
    try {
      book.submitQuoteTo(rfqId, quote, signature, opts, answer)
    } catch (e) {
      if (answered) throw e // `done` threw, answered at once: its owner's bug, not this quote's failure
      answer(asError(e))
    }
  }
  return {
    submitQuoteTo,
    submitQuote: (rfqId, quote, signature, opts = {}) =>
      verdictOf(done => submitQuoteTo(rfqId, quote, signature, opts, done)),
  }
}
