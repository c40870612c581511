// A quote's way into the book, from the relay or REST: admission control first (engine/rfq/admission.ts), then the
// RFQ's actor, and its verdict and latency counted for /metrics. This is the hot path (tens of thousands a second),
// so the relay's way is a callback end to end (`submitQuoteTo`): one object a quote (`AdmittedQuote`) leaves
// admission and observes the verdict, where a promise and two reactions were, then a closure and its context
// (issue 29). REST awaits the same path (`submitQuote`).
import type { QuoteVerdict, RfqDirectory, VerdictTo } from '../../actors/rfqTypes.js'
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
      return done.answered(busy)
    }
    const answer = new AdmittedQuote(done, started, admission, flow)
    try {
      book.submitQuoteTo(rfqId, quote, signature, opts, answer)
    } catch (e) {
      if (answer.done) throw e // `done` threw, answered at once: its owner's bug, not this quote's failure
      answer.answered(asError(e))
    }
  }
  return {
    submitQuoteTo,
    submitQuote: (rfqId, quote, signature, opts = {}) =>
      verdictOf(done => submitQuoteTo(rfqId, quote, signature, opts, done)),
  }
}

/** An admitted quote's verdict on its way out: admission left and the verdict counted, once, then handed on. */
class AdmittedQuote implements VerdictTo {
  done = false
  constructor(
    private readonly to: VerdictTo,
    private readonly started: number,
    private readonly admission: Admission | undefined,
    private readonly flow: FlowMetrics | undefined,
  ) {}

  answered(v: QuoteVerdict | Error): void {
    if (this.done) return
    this.done = true
    this.admission?.leave()
    this.flow?.quote(v instanceof Error ? 'INTERNAL' : v.ok ? undefined : v.code, this.started) // an Error: INTERNAL
    this.to.answered(v)
  }
}
