// A cluster node's reconcile can read this node's own quote back from the store while the actor still waits for
// that quote's commit answer (the commit landed, its answer not yet handled). The store's word of a maker whose write
// is in flight waits for the write's answer: the quote is shown and announced once, and a write the store refuses as a
// duplicate shows the stored quote instead. With stand-in storage whose commit the test holds open.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { AcceptedQuote, QuoteJson, Rfq } from '../../actors/rfqTypes.js'
import { testQuote, testRfq } from '../helpers/rfqFixtures.js'
import { bookOverCommits } from '../helpers/heldBook.js'

const MAKER = `0x${'ab'.repeat(20)}` as const
const TAKER = `0x${'cd'.repeat(20)}` as const
const rfq = (): Rfq => testRfq('rfq_rb', TAKER)
const quote = (nonce: number): QuoteJson => testQuote(MAKER, TAKER, nonce)

/** A book whose one commit waits for `answer`; `writing` resolves with the quote once the commit is asked. */
function heldBook() {
  let answer!: (error?: Error) => void
  let asked!: (q: AcceptedQuote) => void
  const writing = new Promise<AcceptedQuote>(r => (asked = r))
  const { book, announced, ref } = bookOverCommits(
    'rfq_rb',
    q =>
      new Promise<void>((resolve, reject) => {
        answer = e => (e ? reject(e) : resolve())
        asked(q)
      }),
  )
  return { book, writing, answer: (e?: Error) => answer(e), announced, ref }
}

test("the store's word of this node's own quote, read while its commit answer is pending, shows it once", async () => {
  const { book, writing, answer, announced, ref } = heldBook()
  await book.create(rfq())
  const verdict = book.submitQuote('rfq_rb', quote(1), MAKER)
  const mine = await writing
  ref().tell({ type: 'RemoteQuoted', accepted: { ...mine } }) // a reconcile read it back from the store
  await new Promise(r => setTimeout(r, 10))
  answer()
  assert.equal((await verdict).ok, true)
  const view = (await book.describe('rfq_rb'))!
  assert.equal(view.quotes.length, 1, 'one quote of the maker in the book')
  assert.equal(view.quoteCount, 1)
  assert.equal(announced.length, 1, 'announced once')
  const [event] = announced
  assert.ok(event?.type === 'rfq.quoted' && !event.remote, "announced as this node's own: the cluster sends it on")
})

test('a write the store refuses as a duplicate shows the stored quote whose word came while it was pending', async () => {
  const { book, writing, answer, announced, ref } = heldBook()
  await book.create(rfq())
  const verdict = book.submitQuote('rfq_rb', quote(1), MAKER)
  const mine = await writing
  const theirs: AcceptedQuote = {
    ...mine,
    quote: quote(2),
    signature: `0x${'ee'.repeat(65)}`,
    receivedAtMs: Date.now(),
  }
  ref().tell({ type: 'RemoteQuoted', accepted: theirs }) // another node's quote of the same maker, stored first
  await new Promise(r => setTimeout(r, 10))
  assert.equal((await book.describe('rfq_rb'))!.quotes.length, 0, 'nothing shown while the write is pending')
  answer(Object.assign(new Error('duplicate'), { code: 'DUPLICATE_QUOTE' }))
  const v = await verdict
  assert.equal(v.ok ? 'ok' : v.code, 'DUPLICATE_QUOTE')
  const view = (await book.describe('rfq_rb'))!
  assert.deepEqual(
    view.quotes.map(q => q.quote.nonce),
    ['2'],
    'the stored quote is shown',
  )
  assert.equal(announced.length, 1)
})
