// RfqActor and RfqBook with stand-in storage and signer: the races the actor exists to decide.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { ActorSystem } from '../../actors/mailbox.js'
import { RfqBook, type BookDeps } from '../../actors/book.js'
import { commitFromAsync, signerFromAsync } from '../../actors/asyncDeps.js'
import type { Address, NumberedQuote, QuoteJson, Rfq } from '../../actors/rfqTypes.js'
import { testQuote, testRfq } from '../helpers/rfqFixtures.js'

const maker = (i: number): Address => `0x${i.toString(16).padStart(40, 'a')}`
const rfq = (id = 'rfq_1'): Rfq => testRfq(id, maker(999))
const quote = (m: Address, nonce = 0): QuoteJson => testQuote(m, maker(999), nonce)

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

/** The "signature" is the maker's address itself, recovered after a chosen delay. */
function book(over: Partial<BookDeps> & { delays?: () => number } = {}) {
  const committed: NumberedQuote[] = []
  const statuses: string[] = []
  const deps: BookDeps = {
    recoverSigner: signerFromAsync(async (_q, sig) => {
      await sleep(over.delays?.() ?? 0)
      return sig.startsWith('0x') ? (sig as Address) : null
    }),
    store: {
      insertRfq: async () => {},
      persistStatus: async (_id, c) => {
        statuses.push(c.status)
      },
      commitQuote: commitFromAsync(async q => {
        await sleep(1)
        committed.push(q)
      }),
      storeEnds: async () => {},
    },
    ...over,
  }
  return { book: new RfqBook(new ActorSystem(), deps), committed, statuses }
}

test("a burst of one maker's quotes, recovered out of order, is accepted exactly once", async () => {
  const { book: b, committed } = book({ delays: () => Math.random() * 5 })
  await b.create(rfq())
  const verdicts = await Promise.all(
    Array.from({ length: 50 }, (_, i) => b.submitQuote('rfq_1', quote(maker(1), i), maker(1))),
  )
  assert.equal(verdicts.filter(v => v.ok).length, 1)
  assert.ok(verdicts.filter(v => !v.ok).every(v => !v.ok && v.code === 'DUPLICATE_QUOTE'))
  assert.equal(committed.length, 1)
})

test('property: whatever the interleaving, each maker gets exactly one accepted quote and every other is a duplicate', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 40 }),
      fc.array(fc.nat(4), { minLength: 1 }),
      async (makers, delays) => {
        let i = 0
        const { book: b, committed } = book({ delays: () => delays[i++ % delays.length]! })
        await b.create(rfq())
        const verdicts = await Promise.all(makers.map((m, n) => b.submitQuote('rfq_1', quote(maker(m), n), maker(m))))
        const distinct = new Set(makers)
        assert.equal(verdicts.filter(v => v.ok).length, distinct.size)
        assert.equal(verdicts.filter(v => !v.ok && v.code === 'DUPLICATE_QUOTE').length, makers.length - distinct.size)
        assert.deepEqual(new Set(committed.map(q => q.quote.maker)), new Set([...distinct].map(maker)))
        // each stored quote comes numbered by the actor, 1, 2, ... in the order the makers' slots were taken
        assert.deepEqual(
          committed.map(q => q.arrival).sort((x, y) => x - y),
          [...distinct].map((_, k) => k + 1),
        )
        assert.equal((await b.describe('rfq_1'))!.quoteCount, distinct.size)
      },
    ),
    { numRuns: 40 },
  )
})

test('a quote whose write fails is not accepted, and frees the maker to try again', async () => {
  let fail = true
  const { book: b } = book({
    store: {
      insertRfq: async () => {},
      persistStatus: async () => {},
      storeEnds: async () => {},
      commitQuote: commitFromAsync(async () => {
        if (fail) {
          fail = false
          throw new Error('db down')
        }
      }),
    },
  })
  await b.create(rfq())
  const first = await b.submitQuote('rfq_1', quote(maker(1)), maker(1))
  assert.equal(first.ok, false)
  assert.equal(!first.ok && first.code, 'INTERNAL')
  assert.equal((await b.submitQuote('rfq_1', quote(maker(1), 1), maker(1))).ok, true)
})

test('a cancel racing a fill has exactly one winner, and the RFQ leaves the book', async () => {
  for (let round = 0; round < 20; round++) {
    const { book: b, statuses } = book()
    await b.create(rfq(`rfq_${round}`))
    let fills = 0
    const [c, f] = await Promise.all([
      b.cancel(`rfq_${round}`),
      b.fill(`rfq_${round}`, '0xabc', async () => {
        await sleep(1)
        fills++
        return 'ok'
      }),
    ])
    assert.equal([c.ok, f.ok].filter(Boolean).length, 1, JSON.stringify({ c, f }))
    assert.equal(fills + statuses.filter(s => s === 'CANCELLED').length, 1)
    assert.equal(b.activeRfqs, 0)
    assert.equal(b.activeCount(maker(999)), 0)
  }
})

test('a fill whose commit throws leaves the RFQ open, and the error reaches the caller', async () => {
  const { book: b } = book()
  await b.create(rfq())
  await assert.rejects(
    b.fill('rfq_1', '0xabc', async () => {
      throw new Error('duplicate tx')
    }),
    /duplicate tx/,
  )
  assert.equal((await b.describe('rfq_1'))!.status, 'OPEN')
  assert.equal((await b.cancel('rfq_1')).ok, true, 'still cancellable: the failed fill changed nothing')
})

test('a quote still on the pool when the RFQ is cancelled is refused as not found, never broadcast', async () => {
  const { book: b } = book({ delays: () => 20 })
  const seen: string[] = []
  b.events.subscribe(e => seen.push(e.type))
  await b.create(rfq())
  const pending = b.submitQuote('rfq_1', quote(maker(1)), maker(1))
  await sleep(2)
  assert.equal((await b.cancel('rfq_1')).ok, true)
  const v = await pending
  assert.equal(!v.ok && v.code, 'RFQ_NOT_FOUND')
  assert.deepEqual(seen, ['rfq.created', 'rfq.cancelled'])
})
