// Rule 6 (one quote a maker an RFQ) as the RFQ's actor keeps it: each maker's slot says whether its quote is being
// written, was refused by the store, or is stored (actors/rfq.ts MakerSlot). A write that failed frees the maker to
// retry; one the store refused as a duplicate keeps the maker's later quotes out without a write, and the store's
// word of its quote shows that quote once. With stand-in storage whose commits the test answers one by one.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RfqBook } from '../../actors/book.js'
import type { AcceptedQuote, Address, NumberedQuote, QuoteJson, Rfq } from '../../actors/rfqTypes.js'
import { testQuote, testRfq } from '../helpers/rfqFixtures.js'
import { bookOverCommits } from '../helpers/heldBook.js'

const TAKER = `0x${'cd'.repeat(20)}` as const
const maker = (n: number): Address => `0x${String(n).padStart(2, '0').repeat(20)}`
const rfq = (): Rfq => testRfq('rfq_ms', TAKER)
const quote = (by: Address, nonce: number): QuoteJson => testQuote(by, TAKER, nonce)

/** A book whose commits wait in `commits` until the test answers each (an Error with a code refuses it). */
async function heldBook() {
  const commits: { quote: NumberedQuote; answer(error?: Error): void }[] = []
  const { book, announced, ref } = bookOverCommits(
    'rfq_ms',
    q => new Promise<void>((resolve, reject) => commits.push({ quote: q, answer: e => (e ? reject(e) : resolve()) })),
  )
  await book.create(rfq())
  const asked = async (n: number) => {
    for (let i = 0; i < 200 && commits.length < n; i++) await new Promise(r => setTimeout(r, 5))
    assert.equal(commits.length, n, `${n} commits asked`)
    return commits[n - 1]!
  }
  const submit = (by: Address, nonce: number) => book.submitQuote('rfq_ms', quote(by, nonce), by)
  return { book, commits, asked, announced, ref, submit }
}

const code = (v: Awaited<ReturnType<RfqBook['submitQuote']>>) => (v.ok ? 'ok' : v.code)
const refused = (c: string) => Object.assign(new Error(c), { code: c })

test('a write that failed frees its maker: the retry is written, accepted and numbered as if the first never was', async () => {
  const { book, asked, announced, submit } = await heldBook()
  const first = submit(maker(1), 1)
  ;(await asked(1)).answer(refused('UNAVAILABLE'))
  assert.equal(code(await first), 'UNAVAILABLE')
  const other = submit(maker(2), 1)
  const second = await asked(2)
  assert.equal(second.quote.arrival, 1, "the failed write's number is given again")
  second.answer()
  assert.equal(code(await other), 'ok')
  const retry = submit(maker(1), 2)
  const third = await asked(3)
  assert.equal(third.quote.arrival, 2)
  third.answer()
  assert.equal(code(await retry), 'ok')
  const view = (await book.describe('rfq_ms'))!
  assert.deepEqual(
    view.quotes.map(q => [q.quote.maker, q.quote.nonce]),
    [
      [maker(2), '1'],
      [maker(1), '2'],
    ],
  )
  assert.equal(announced.length, 2)
})

test("a maker the store refused as a duplicate is kept out without a write, and the store's word shows its quote once", async () => {
  const { book, commits, asked, announced, ref, submit } = await heldBook()
  const first = submit(maker(1), 1)
  ;(await asked(1)).answer(refused('DUPLICATE_QUOTE'))
  assert.equal(code(await first), 'DUPLICATE_QUOTE')
  assert.equal(code(await submit(maker(1), 2)), 'DUPLICATE_QUOTE', 'its next quote is refused at once')
  assert.equal(commits.length, 1, 'and never written')
  const theirs: AcceptedQuote = {
    rfqId: 'rfq_ms',
    quote: quote(maker(1), 7),
    signature: `0x${'ee'.repeat(65)}`,
    receivedAtMs: Date.now(),
  }
  ref().tell({ type: 'RemoteQuoted', accepted: theirs }) // the store's quote of that maker, another node's
  ref().tell({ type: 'RemoteQuoted', accepted: { ...theirs } }) // heard again (a reconcile)
  const view = (await book.describe('rfq_ms'))!
  assert.deepEqual(
    view.quotes.map(q => q.quote.nonce),
    ['7'],
  )
  assert.equal(announced.length, 1, 'announced once')
  assert.equal(code(await submit(maker(1), 3)), 'DUPLICATE_QUOTE')
})
