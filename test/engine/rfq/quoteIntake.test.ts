// A quote's way into the book (engine/rfq/quoteIntake.ts), through its callback as the relay takes it: admission
// entered and left exactly once whatever the book does (answers later, at once, with an Error, or throws), the
// verdict's code counted once, and BUSY answered at once without the book. The promise form gives the same.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { admittedQuotes } from '../../../engine/rfq/quoteIntake.js'
import { Admission } from '../../../engine/rfq/admission.js'
import type { FlowMetrics } from '../../../engine/metrics/flow.js'
import type { QuoteVerdict, RfqDirectory, VerdictTo } from '../../../actors/rfqTypes.js'
import { RelayErrors, refuseQuote } from '../../../actors/errors.js'

type Book = Pick<RfqDirectory, 'submitQuoteTo'>
const refused = refuseQuote(RelayErrors.rfqNotFound())

function intake(book: Book['submitQuoteTo']) {
  const admission = new Admission(20, 64, () => 0)
  const codes: (string | undefined)[] = []
  const flow = { quote: (code: string | undefined) => void codes.push(code) } as unknown as FlowMetrics
  const calls = { book: 0 }
  const q = admittedQuotes(
    {
      submitQuoteTo: (...a) => {
        calls.book++
        book(...a)
      },
    },
    admission,
    flow,
  )
  return { q, admission, codes, calls }
}
const submit = (q: ReturnType<typeof intake>['q'], done: (v: QuoteVerdict | Error) => void) =>
  q.submitQuoteTo('rfq_1', {}, '0x', {}, { answered: done })

test('an answer that comes later leaves admission once and counts its code once', () => {
  const later: VerdictTo[] = []
  const { q, admission, codes } = intake((_id, _q, _s, _o, done) => void later.push(done))
  const got: (QuoteVerdict | Error)[] = []
  submit(q, v => got.push(v))
  assert.equal(admission.stats.inFlight, 1)
  assert.deepEqual(got, [])
  later[0]!.answered(refused)
  later[0]!.answered(refused) // a second answer (a bug upstream) reaches nobody
  assert.deepEqual(got, [refused])
  assert.deepEqual(codes, ['RFQ_NOT_FOUND'])
  assert.equal(admission.stats.inFlight, 0)
})

test('an answer at once, an Error, and a throwing book are each answered once, the last two as INTERNAL', () => {
  const now = intake((_id, _q, _s, _o, done) => done.answered(refused))
  const got: unknown[] = []
  submit(now.q, v => got.push(v))
  assert.deepEqual(got, [refused])
  const failing = intake((_id, _q, _s, _o, done) => done.answered(new Error('store read failed')))
  const failures: unknown[] = []
  submit(failing.q, v => failures.push(v))
  const throwing = intake(() => {
    throw new Error('a bug in the book')
  })
  submit(throwing.q, v => failures.push(v))
  assert.deepEqual(
    failures.map(v => (v as Error).message),
    ['store read failed', 'a bug in the book'],
  )
  for (const i of [now, failing, throwing]) assert.equal(i.admission.stats.inFlight, 0)
  assert.deepEqual([...now.codes, ...failing.codes, ...throwing.codes], ['RFQ_NOT_FOUND', 'INTERNAL', 'INTERNAL'])
})

test("a callback that throws on an answer at once is its owner's bug: thrown back, the quote not answered twice", () => {
  const { q, admission, codes } = intake((_id, _q, _s, _o, done) => done.answered(refused))
  let answers = 0
  assert.throws(
    () =>
      submit(q, () => {
        answers++
        throw new Error('the socket code threw')
      }),
    /the socket code threw/,
  )
  assert.equal(answers, 1)
  assert.deepEqual(codes, ['RFQ_NOT_FOUND'])
  assert.equal(admission.stats.inFlight, 0)
})

test('past the admitted work BUSY is answered at once, without the book; the promise form answers the same', async () => {
  const { q, codes, calls } = intake(() => {}) // never answers: every admitted quote stays in flight
  for (let i = 0; i < 64; i++) submit(q, () => {})
  const got: (QuoteVerdict | Error)[] = []
  submit(q, v => got.push(v))
  assert.equal(got.length, 1, 'answered before submitQuoteTo returned')
  assert.equal((got[0] as QuoteVerdict).ok, false)
  assert.equal((got[0] as { code: string }).code, 'BUSY')
  assert.equal(calls.book, 64)
  assert.equal(codes.at(-1), 'BUSY')
  const busy = await q.submitQuote('rfq_1', {}, '0x')
  assert.equal(busy.ok ? 'ok' : busy.code, 'BUSY')
  const rejecting = intake((_id, _q, _s, _o, done) => done.answered(new Error('store down')))
  await assert.rejects(rejecting.q.submitQuote('rfq_1', {}, '0x'), /store down/)
})
