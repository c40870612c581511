// The group commit reports what it stored: a quote whose (RFQ, maker) row already exists (a replay,
// or another node's quote) is refused with DuplicateQuoteError, never acknowledged, and not counted; the other
// quotes of the same batch are stored and acknowledged. The RFQ's row is written by its first quote only.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { insertRfq, quotesOfRfqs } from '../../../engine/store/rfqs.js'
import { rfqIdTime } from '../../../workers/values/index.js'
import { createQuoteWriter, quoteWriterOver, DuplicateQuoteError, flatBatch } from '../../../engine/store/quotes.js'
import { startQuoteCommitThread } from '../../../engine/store/quoteCommitThread.js'
import { rfqById } from '../../../engine/store/rfqQueries.js'
import { ensurePartitions } from '../../../engine/store/partitions.js'
import { rfqKeyHex } from '../../../engine/store/rfqKey.js'
import { A, DAY, quote, rfq as rfqOn, timedId, utcDay, kindOf } from './rows.js'

const rfq = (id: string) => rfqOn(id, new Date())

test("a batch's flat form: each quote's eleven values in order, exactly its length after a longer batch", () => {
  const expected = (qs: ReturnType<typeof quote>[]) =>
    qs.flatMap(({ rfqId, quote: q, signature, receivedAtMs, arrival }) => [
      rfqId,
      q.maker,
      q.taker === A(0) ? 't' : 'f',
      q.amountIn,
      q.amountOut,
      q.expiry,
      q.nonce,
      q.deadline,
      signature,
      receivedAtMs,
      arrival,
    ])
  const long = Array.from({ length: 40 }, (_, i) => quote(`rfq_l${i}`, i + 1, { arrival: i + 1 }))
  const short = [quote('rfq_s', 7, { taker: A(9), expiry: 123, deadline: 456, nonce: '99' }), quote('rfq_t', 8)]
  for (const batch of [long, short, long.slice(0, 3), short, []])
    assert.deepStrictEqual(flatBatch(batch), expected(batch)) // deepStrictEqual: the same length, no extra cell
})

test('a committer that copies the batch as it is handed gets one array a batch size, written over, blank between commits', async () => {
  const seen: { flat: (string | number)[]; copy: (string | number)[] }[] = []
  const w = quoteWriterOver({
    copiesBatch: true,
    commit: flat => {
      seen.push({ flat, copy: [...flat] })
      return Promise.resolve({ refused: [], how: 'plain' })
    },
    close: () => Promise.resolve(),
  })
  const first = [quote('rfq_a', 1), quote('rfq_b', 2)]
  const second = [quote('rfq_c', 3), quote('rfq_d', 4)]
  await Promise.all(first.map(q => w.write(q)))
  await Promise.all(second.map(q => w.write(q)))
  await Promise.all([quote('rfq_e', 5)].map(q => w.write(q)))
  assert.equal(seen.length, 3)
  assert.equal(seen[0]!.flat, seen[1]!.flat, 'the same array for the same size')
  assert.notEqual(seen[1]!.flat, seen[2]!.flat)
  assert.deepStrictEqual(seen[0]!.copy, flatBatch(first), 'each commit saw its own quotes')
  assert.deepStrictEqual(seen[1]!.copy, flatBatch(second))
  for (const { flat } of seen)
    assert.ok(
      flat.every(cell => cell === ''),
      'no quote held between commits',
    )
  // a committer that does not say it copies (a commit on this thread, which sends later) gets its own array each time
  const own: (string | number)[][] = []
  const here = quoteWriterOver(flat => (own.push(flat), Promise.resolve({ refused: [], how: 'plain' })))
  await Promise.all(first.map(q => here.write(q)))
  await Promise.all(second.map(q => here.write(q)))
  assert.notEqual(own[0], own[1])
  assert.deepStrictEqual([own[0], own[1]], [flatBatch(first), flatBatch(second)])
})

describe('quote writer (group commit)', () => {
  let db: TestDatabase
  before(async () => {
    db = await testDatabase('qw')
  })
  after(() => db.drop())

  test("the writer's RFQ key is the store's rfq_key for every kind of id", async () => {
    // the writer sends each quote's key (rfqKey.ts); a key the store would not make hides the quote from every reader
    const ids = [
      timedId(Date.now(), 1), // an engine id: rfq_ + 44 hex
      'rfq_0123456789abcdef0123456789abcdef', // an engine id made before ids carried their time
      'rfq_', // no hex at all
      'rfq_abc', // an odd count of digits
      'rfq_ABCD', // upper case: not the engine's
      'rfq_abzz',
      'rfq_ab\n',
      ' rfq_ab',
      'rfq_"odd,\\id}',
      'NULL',
      'plain_id_7',
      'ünïcødé ✓',
    ]
    const rows = await db.sql<{ id: string; key: string }[]>`
      select id, encode(rfq_key(id), 'hex') as key from unnest(${ids}::text[]) as id`
    assert.equal(rows.length, ids.length)
    for (const row of rows) assert.equal(rfqKeyHex(row.id), row.key, JSON.stringify(row.id))
    assert.equal(rfqKeyHex(ids[0]!), ids[0]!.slice(4)) // what the engine's own ids are stored under: their hex
  })

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
    assert.equal(first.stats.rechecked, 0) // nothing stored yet: the plain statement took it
    assert.equal(second.stats.rechecked, second.stats.commits) // each commit met the stored maker and ran checked
    assert.deepEqual(
      results.slice(1).map(r => r.status),
      ['fulfilled', 'fulfilled'],
    )
    const row = await rfqById(db.sql, 'rfq_a')
    assert.equal(row!.quoteCount, 3)
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
    assert.deepEqual(results.map(kindOf), ['duplicate', 'stored', 'closed', 'closed', 'stored'])
    assert.equal(w.stats.rechecked, 1)
    const rows =
      await db.sql`select rfq_id, maker from quote_rows where rfq_id in ('rfq_c', 'rfq_d', 'rfq_nope') order by rfq_id, maker`
    assert.deepEqual(
      rows.map(r => `${r.rfq_id} ${r.maker}`),
      ['rfq_c ' + A(10), 'rfq_c ' + A(11), 'rfq_c ' + A(14)],
    )
    const counts = await Promise.all(['rfq_c', 'rfq_d'].map(id => rfqById(db.sql, id)))
    assert.deepEqual(
      counts.map(r => [r!.id, r!.quoteCount, r!.status]),
      [
        ['rfq_c', 3, 'QUOTED'],
        ['rfq_d', 0, 'CANCELLED'],
      ],
    )
  })

  test('a batch meeting no stored maker is written by the plain statement: each quote answered, OPEN RFQs QUOTED', async () => {
    await insertRfq(db.sql, rfq('rfq_e'), null)
    await insertRfq(db.sql, rfq('rfq_f'), null)
    await insertRfq(db.sql, rfq('rfq_g'), null)
    await createQuoteWriter(db.sql).write(quote('rfq_f', 30)) // rfq_f: QUOTED before the batch
    await db.sql`update rfqs set status = 'FILLED' where id = 'rfq_g'`
    const w = createQuoteWriter(db.sql)
    const batch = [
      quote('rfq_e', 31),
      quote('rfq_f', 32),
      quote('rfq_g', 33),
      quote('rfq_e', 34),
      quote('rfq_none', 35),
    ]
    const results = await Promise.allSettled(batch.map(q => w.write(q))) // one tick: one batch
    assert.deepEqual([w.stats.commits, w.stats.rechecked], [1, 0])
    assert.deepEqual(results.map(kindOf), ['stored', 'stored', 'closed', 'stored', 'closed'])
    const rows = await Promise.all(['rfq_e', 'rfq_f', 'rfq_g'].map(id => rfqById(db.sql, id)))
    assert.deepEqual(
      rows.map(r => [r!.id, r!.quoteCount, r!.status]),
      [
        ['rfq_e', 2, 'QUOTED'],
        ['rfq_f', 2, 'QUOTED'],
        ['rfq_g', 0, 'FILLED'],
      ],
    )
    const makers = await db.sql`select maker from quote_rows where rfq_id = 'rfq_e' order by maker`
    assert.deepEqual(
      makers.map(r => r.maker),
      [A(31), A(34)],
    )
  })

  test('after a commit meets a stored maker, the next 16 go checked at once, then the plain statement again', async () => {
    await insertRfq(db.sql, rfq('rfq_h'), null)
    await createQuoteWriter(db.sql).write(quote('rfq_h', 40))
    const w = createQuoteWriter(db.sql)
    await assert.rejects(w.write(quote('rfq_h', 40)), DuplicateQuoteError)
    assert.deepEqual([w.stats.rechecked, w.stats.checked], [1, 0])
    for (let i = 0; i < 17; i++) await w.write(quote('rfq_h', 41 + i)) // one commit each
    assert.deepEqual([w.stats.commits, w.stats.rechecked, w.stats.checked], [18, 1, 16])
    await assert.rejects(w.write(quote('rfq_h', 41)), DuplicateQuoteError) // plain again: it meets one, rechecks
    assert.deepEqual([w.stats.rechecked, w.stats.checked], [2, 16])
    assert.equal((await rfqById(db.sql, 'rfq_h'))!.quoteCount, 18)
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
    // a hand-made id's key (17 bytes: migration 103) finds its RFQ again, for the count and the move to QUOTED
    const counted = await rfqById(db.sql, id)
    assert.deepEqual([counted!.quoteCount, counted!.status], [1, 'QUOTED'])
    // a plain word goes into the array unquoted, except the one PostgreSQL reads as a null element
    for (const word of ['NULL', 'plain_id_7']) {
      await insertRfq(db.sql, rfq(word), null)
      await createQuoteWriter(db.sql).write(quote(word, 21))
      const [stored] = await db.sql`select count(*)::int as n from quote_rows where rfq_id = ${word}`
      assert.equal(stored!.n, 1, word)
    }
  })

  test("the previous release's bump of rfqs.quote_count still runs (a rolling upgrade), and no reader counts by it", async () => {
    await insertRfq(db.sql, rfq('rfq_roll'), null)
    await createQuoteWriter(db.sql).write(quote('rfq_roll', 10))
    // what a 0.11 node's commit does to the row beside its insert, while this release's first node has migrated
    await db.sql`update rfqs set quote_count = quote_count + 7 where id = 'rfq_roll'`
    assert.equal((await rfqById(db.sql, 'rfq_roll'))?.quoteCount, 1)
  })

  test('quotes keep the numbers their actor gave them, and are read back in time order, then by number', async () => {
    const id = timedId(Date.now(), 7)
    await insertRfq(db.sql, rfqOn(id, new Date(rfqIdTime(id)!)), null)
    const w = createQuoteWriter(db.sql)
    const at = Date.now()
    const numbered = (maker: number, arrival: number, ms = at) => ({
      ...quote(id, maker, { arrival }),
      receivedAtMs: ms,
    })
    // within one millisecond only the number orders them (makers out of order); across commits too
    await Promise.all([numbered(30, 1), numbered(10, 2), numbered(20, 3)].map(q => w.write(q)))
    await w.flush()
    // a later number stamped earlier (another node's clock, or a quote numbered before a slower one's commit)
    await Promise.all([numbered(5, 4), numbered(40, 5, at - 10)].map(q => w.write(q)))
    const rows = await db.sql`select maker, arrival from quote_rows where rfq_id = ${id} order by arrival`
    assert.deepEqual(
      rows.map(r => [r.maker, r.arrival]),
      [30, 10, 20, 5, 40].map((m, i) => [A(m), i + 1]),
    )
    assert.deepEqual(
      (await quotesOfRfqs(db.sql, [id])).get(id)?.map(q => q.quote.maker),
      [40, 30, 10, 20, 5].map(A),
    )
    assert.deepEqual(
      [(await rfqById(db.sql, id))?.quoteCount, (await db.sql`select status from rfqs where id = ${id}`)[0]?.status],
      [5, 'QUOTED'],
    )
  })

  // the writer sends hex without its 0x, the time in ms and the RFQ's key (quotes.ts): what is read back is what was sent
  for (const way of ['here', 'thread'] as const)
    test(`a stored quote reads back as written: key, maker, signature, amounts, time to the ms (${way})`, async () => {
      const ids = [timedId(Date.now(), way === 'here' ? 91 : 92), `rfq_hand made ${way}`]
      for (const id of ids) await insertRfq(db.sql, rfqOn(id, new Date(rfqIdTime(id) ?? Date.now())), null)
      const at = Date.now() - 1234
      const sent = ids.map((id, i) => ({
        ...quote(id, 60 + i, {
          signature: `0x${'ab'.repeat(32)}${'0c'.repeat(32)}1b`,
          amountIn: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
          nonce: '9007199254740993',
        }),
        receivedAtMs: at + i + 0.75, // a fractional ms is kept whole, as a Date keeps it
      }))
      const w = way === 'here' ? createQuoteWriter(db.sql) : quoteWriterOver(startQuoteCommitThread(db.url, 2))
      try {
        await Promise.all(sent.map(q => w.write(q)))
      } finally {
        await w.close()
      }
      for (const [i, q] of sent.entries()) {
        const [row] = await db.sql`
          select maker, signature, amount_in::text, nonce::text, received_at from quote_rows where rfq_id = ${q.rfqId}`
        assert.deepEqual(
          [row?.maker, row?.signature, row?.amount_in, row?.nonce, (row?.received_at as Date).getTime()],
          [q.quote.maker, q.signature, q.quote.amountIn, q.quote.nonce, at + i],
        )
        const [key] = await db.sql`select count(*)::int as n from quotes where rfq_id = rfq_key(${q.rfqId})`
        assert.equal(key?.n, 1) // under the key the store's own function makes
      }
    })

  // both ways: on the writer's thread the statements run as generic plans (quoteCommitWorker.ts), whose partitions
  // are pruned as each commit starts, by its day parameters
  for (const [way, seed] of [
    ['here', 81],
    ['thread', 84],
  ] as const)
    test(`a batch spanning days (and a legacy id) stores each quote in its RFQ's day, plain and checked (${way})`, async () => {
      const now = Date.now()
      await ensurePartitions(db.sql, { now: now - 2 * DAY, ahead: 3 })
      // the statements' texts are made per count of days (quoteCommitSql.ts): two days here, then none (a legacy id is
      // among them: no day filter)
      const ids = [timedId(now - DAY, seed), timedId(now, seed + 1), timedId(now - 2 * DAY, seed + 2)]
      const legacy = `rfq_days_legacy_${way}`
      for (const id of ids) await insertRfq(db.sql, rfqOn(id, new Date(rfqIdTime(id)!)), null)
      await insertRfq(db.sql, rfq(legacy), null)
      const w = way === 'here' ? createQuoteWriter(db.sql) : quoteWriterOver(startQuoteCommitThread(db.url, 2))
      try {
        const dayOf = async (id: string) =>
          (await db.sql`select rfq_day::text as day from quote_rows where rfq_id = ${id}`).map(r => r.day as string)
        // plain: two days, then three days and a legacy id in one batch
        let results = await Promise.allSettled([quote(ids[0]!, 50), quote(ids[1]!, 50)].map(q => w.write(q)))
        assert.deepEqual(results.map(kindOf), ['stored', 'stored'])
        results = await Promise.allSettled(
          [quote(ids[0]!, 51), quote(ids[1]!, 51), quote(ids[2]!, 51), quote(legacy, 51)].map(q => w.write(q)),
        )
        assert.deepEqual(results.map(kindOf), ['stored', 'stored', 'stored', 'stored'])
        assert.deepEqual([w.stats.commits, w.stats.rechecked], [2, 0])
        // checked: a maker already stored for the older RFQ, beside new quotes of both days
        results = await Promise.allSettled(
          [quote(ids[0]!, 50), quote(ids[0]!, 52), quote(ids[1]!, 52)].map(q => w.write(q)),
        )
        assert.deepEqual(results.map(kindOf), ['duplicate', 'stored', 'stored'])
        assert.equal(w.stats.rechecked, 1)
        for (const [i, id] of ids.entries())
          assert.deepEqual(
            [...new Set(await dayOf(id))],
            [utcDay(rfqIdTime(id)!)],
            `RFQ ${i}: its quotes in its own day's partition`,
          )
        const counts = await Promise.all([...ids, legacy].map(async id => (await rfqById(db.sql, id))!))
        assert.deepEqual(
          counts.map(r => [r.quoteCount, r.status]),
          [
            [3, 'QUOTED'],
            [3, 'QUOTED'],
            [1, 'QUOTED'],
            [1, 'QUOTED'],
          ],
        )
      } finally {
        await w.close()
      }
    })
})
