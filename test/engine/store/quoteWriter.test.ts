// The group commit reports what it stored: a quote whose (RFQ, maker) row already exists (a replay,
// or another node's quote) is refused with DuplicateQuoteError, never acknowledged, and does not bump
// quote_count; the other quotes of the same batch are stored and acknowledged.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { insertRfq, quotesOfRfqs } from '../../../engine/store/rfqs.js'
import { rfqIdTime } from '../../../workers/values/index.js'
import { createQuoteWriter, DuplicateQuoteError, RfqClosedError } from '../../../engine/store/quotes.js'
import { A, quote, rfq as rfqOn, timedId } from './rows.js'

const rfq = (id: string) => rfqOn(id, new Date())

describe('quote writer (group commit)', () => {
  let db: TestDatabase
  before(async () => {
    db = await testDatabase('qw')
  })
  after(() => db.drop())

  test('a batch with a stored (RFQ, maker) acknowledges the new quotes and refuses the duplicate', async () => {
    await insertRfq(db.sql, rfq('rfq_a'), null)
    const first = createQuoteWriter(db.sql)
    await first.write(quote('rfq_a', 10))
    const second = createQuoteWriter(db.sql) // another writer: another node, or a replay after restart
    const results = await Promise.allSettled([
      second.write(quote('rfq_a', 10)),
      second.write(quote('rfq_a', 11)),
      second.write(quote('rfq_a', 12)),
    ])
    assert.equal(results[0].status, 'rejected')
    assert.ok(results[0].reason instanceof DuplicateQuoteError)
    assert.deepEqual(
      results.slice(1).map(r => r.status),
      ['fulfilled', 'fulfilled'],
    )
    const [row] = await db.sql`select quote_count, status from rfqs where id = 'rfq_a'`
    assert.equal(row!.quote_count, 3)
    assert.equal(row!.status, 'QUOTED')
    const [{ n }] = (await db.sql`select count(*)::int as n from quote_rows where rfq_id = 'rfq_a'`) as unknown as [
      { n: number },
    ]
    assert.equal(n, 3)
  })

  test('flush waits for every write; stats count commits and quotes', async () => {
    await insertRfq(db.sql, rfq('rfq_b'), null)
    const w = createQuoteWriter(db.sql)
    const writes = Array.from({ length: 50 }, (_, i) => w.write(quote('rfq_b', 100 + i)))
    await w.flush()
    await Promise.all(writes)
    assert.equal(w.stats.quotes, 50)
    assert.ok(w.stats.commits >= 1 && w.stats.commits <= 50)
    assert.ok(w.stats.maxBatch >= 1)
  })

  test('one commit refusing part of its batch answers each quote: stored, duplicate, RFQ closed or unknown', async () => {
    await insertRfq(db.sql, rfq('rfq_c'), null)
    await insertRfq(db.sql, rfq('rfq_d'), null)
    await db.sql`update rfqs set status = 'CANCELLED', cancelled_at = now() where id = 'rfq_d'`
    await createQuoteWriter(db.sql).write(quote('rfq_c', 10))
    const w = createQuoteWriter(db.sql)
    const batch = [
      quote('rfq_c', 10),
      quote('rfq_c', 11),
      quote('rfq_d', 12),
      quote('rfq_nope', 13),
      quote('rfq_c', 14),
    ]
    const results = await Promise.allSettled(batch.map(q => w.write(q))) // one tick: one batch
    assert.equal(w.stats.commits, 1)
    const kinds = results.map(r =>
      r.status === 'fulfilled'
        ? 'stored'
        : r.reason instanceof DuplicateQuoteError
          ? 'duplicate'
          : r.reason instanceof RfqClosedError
            ? 'closed'
            : String(r.reason),
    )
    assert.deepEqual(kinds, ['duplicate', 'stored', 'closed', 'closed', 'stored'])
    const rows =
      await db.sql`select rfq_id, maker from quote_rows where rfq_id in ('rfq_c', 'rfq_d', 'rfq_nope') order by rfq_id, maker`
    assert.deepEqual(
      rows.map(r => `${r.rfq_id} ${r.maker}`),
      ['rfq_c ' + A(10), 'rfq_c ' + A(11), 'rfq_c ' + A(14)],
    )
    const counts = await db.sql`select id, quote_count, status from rfqs where id in ('rfq_c', 'rfq_d') order by id`
    assert.deepEqual(
      counts.map(r => [r.id, r.quote_count, r.status]),
      [
        ['rfq_c', 3, 'QUOTED'],
        ['rfq_d', 0, 'CANCELLED'],
      ],
    )
  })

  test("a quote whose fields hold an array literal's quotes and commas is stored as sent", async () => {
    const id = 'rfq_"odd,\\id}'
    await insertRfq(db.sql, rfq(id), null)
    const q = quote(id, 20)
    await createQuoteWriter(db.sql).write(q)
    const [row] = await db.sql`select rfq_id, amount_in::text, received_at from quote_rows where rfq_id = ${id}`
    assert.equal(row!.rfq_id, id)
    assert.equal(row!.amount_in, '10')
    assert.equal((row!.received_at as Date).getTime(), q.receivedAtMs)
    // a hand-made id's key (17 bytes: migration 103) finds its RFQ again for the count
    const [counted] = await db.sql`select quote_count from rfqs where id = ${id}`
    assert.equal(counted!.quote_count, 1)
    // a plain word goes into the array unquoted, except the one PostgreSQL reads as a null element
    for (const word of ['NULL', 'plain_id_7']) {
      await insertRfq(db.sql, rfq(word), null)
      await createQuoteWriter(db.sql).write(quote(word, 21))
      const [stored] = await db.sql`select count(*)::int as n from quote_rows where rfq_id = ${word}`
      assert.equal(stored!.n, 1, word)
    }
  })

  test('quotes are numbered in the order they were stored, across commits, and read back in that order', async () => {
    const id = timedId(Date.now(), 7)
    await insertRfq(db.sql, rfqOn(id, new Date(rfqIdTime(id)!)), null)
    const w = createQuoteWriter(db.sql)
    const late = (maker: number, ms: number) => ({ ...quote(id, maker), receivedAtMs: Date.now() - ms })
    // each later quote is stamped earlier, and makers are out of order: only the arrival number gives this order
    await Promise.all([late(30, 10), late(10, 20), late(20, 30)].map(q => w.write(q)))
    await w.flush()
    await Promise.all([late(5, 40), late(40, 50)].map(q => w.write(q)))
    const rows = await db.sql`select maker, arrival from quote_rows where rfq_id = ${id} order by arrival`
    assert.deepEqual(
      rows.map(r => [r.maker, r.arrival]),
      [30, 10, 20, 5, 40].map((m, i) => [A(m), i + 1]),
    )
    assert.deepEqual(
      (await quotesOfRfqs(db.sql, [id])).get(id)?.map(q => q.quote.maker),
      [30, 10, 20, 5, 40].map(A),
    )
  })
})
