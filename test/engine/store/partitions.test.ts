// Quotes partitioned by their RFQ's creation day (UTC): the upgrade in place from the unpartitioned layout keeps
// every row, each in its day's partition; a quote for an RFQ created just before midnight lands in that day's
// partition whenever it comes; two nodes racing the same (RFQ, maker) across midnight store exactly one; the
// partitions are made ahead once however many nodes ask at the same moment.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { connect } from '../../../engine/store/db.js'
import { migrate, migrationsDir } from '../../../engine/store/migrate.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { rfqById } from '../../../engine/store/rfqQueries.js'
import { createQuoteWriter, DuplicateQuoteError } from '../../../engine/store/quotes.js'
import { ensurePartitions, partitionName } from '../../../engine/store/partitions.js'
import { A, DAY, insertOldRfq, quote, rfq } from './rows.js'

const midnight = Math.floor(Date.now() / DAY) * DAY // today 00:00 UTC

describe("quotes partitioned by their RFQ's day", () => {
  let db: TestDatabase
  before(async () => {
    db = await testDatabase('qp')
  })
  after(() => db.drop())
  const partitionOf = async (rfqId: string) =>
    (await db.sql`select distinct tableoid::regclass::text as p from quotes where rfq_id = rfq_key(${rfqId})`).map(
      r => r.p as string,
    )

  test("a quote for an RFQ created just before midnight lands in that day's partition", async () => {
    const yesterday = new Date(midnight - DAY).toISOString().slice(0, 10)
    await ensurePartitions(db.sql, { now: midnight - DAY })
    await insertRfq(db.sql, rfq('rfq_late', new Date(midnight - 100)), null) // 23:59:59.900 yesterday
    await createQuoteWriter(db.sql).write(quote('rfq_late', 10)) // written today
    assert.deepEqual(await partitionOf('rfq_late'), [partitionName('quotes', yesterday)])
  })

  test('two nodes racing the same (RFQ, maker) across midnight store exactly one', async () => {
    await insertRfq(db.sql, rfq('rfq_race', new Date(midnight - 1)), null)
    const other = connect(db.url, { max: 2 }) // another node's own pool
    try {
      for (let maker = 20; maker < 30; maker++) {
        const results = await Promise.allSettled([
          createQuoteWriter(db.sql).write(quote('rfq_race', maker)),
          createQuoteWriter(other).write(quote('rfq_race', maker)),
        ])
        assert.equal(results.filter(r => r.status === 'fulfilled').length, 1)
        const refused = results.find(r => r.status === 'rejected') as PromiseRejectedResult
        assert.ok(refused.reason instanceof DuplicateQuoteError)
      }
    } finally {
      await other.end()
    }
    const [row] = await db.sql`select count(*)::int as n from quote_rows where rfq_id = 'rfq_race'`
    assert.deepEqual([row!.n, (await rfqById(db.sql, 'rfq_race'))?.quoteCount], [10, 10])
  })

  test('partitions (rfqs, quotes and agent_activity alike) are made ahead once, whoever asks at the same time', async () => {
    const now = midnight + 40 * DAY
    const other = connect(db.url, { max: 1 })
    try {
      const made = await Promise.all([
        ensurePartitions(db.sql, { now, ahead: 2 }),
        ensurePartitions(other, { now, ahead: 2 }),
      ])
      const days = ['agent_activity', 'quotes', 'rfqs'].flatMap(table =>
        [0, 1, 2].map(i => partitionName(table, new Date(now + i * DAY).toISOString().slice(0, 10))),
      )
      assert.deepEqual([...made[0], ...made[1]].sort(), days)
      assert.deepEqual(await ensurePartitions(db.sql, { now, ahead: 2 }), [])
    } finally {
      await other.end()
    }
  })
})

test("the upgrade from the unpartitioned layout keeps every quote, each in its RFQ's day", async () => {
  const db = await testDatabase('qu') // migrated whole: the previous migrations are replayed on a fresh one
  const old = mkdtempSync(join(tmpdir(), 'mig-'))
  try {
    await db.sql.unsafe('drop schema public cascade; create schema public')
    for (const f of readdirSync(migrationsDir).filter(f => f < '100_'))
      copyFileSync(join(migrationsDir, f), join(old, f))
    await migrate(db.sql, old)
    const days = [-3, -1, 0].map(d => new Date(midnight + d * DAY + 3_600_000))
    days.push(new Date(midnight - 1))
    for (const [i, at] of days.entries()) {
      await insertOldRfq(db.sql, rfq(`rfq_old${i}`, at)) // the layout before migration 101: no created_day
      for (let m = 0; m < 5; m++) {
        await db.sql`insert into quotes (rfq_id, maker, taker, token_in, token_out, amount_in, amount_out, expiry, nonce, deadline, signature, received_at)
          values (${`rfq_old${i}`}, ${A(m)}, ${A(1)}, ${A(2)}, ${A(3)}, ${String(10n ** 30n + BigInt(m))}, 20, 1, 1, 2, ${`0x${'ab'.repeat(64)}1b`}, ${at})`
      }
      await db.sql`update rfqs set quote_count = 5, status = 'QUOTED' where id = ${`rfq_old${i}`}` // as the writer did
    }
    const cols = db.sql`rfq_id, maker, taker, token_in, token_out, amount_in::text, amount_out::text, expiry, nonce::text, deadline,
      signature, received_at`
    const before = await db.sql`select ${cols} from quotes order by rfq_id, id`
    assert.equal(before.length, 20)
    assert.deepEqual(
      await migrate(db.sql),
      readdirSync(migrationsDir)
        .filter(f => f >= '100_')
        .sort(),
    )
    const after = await db.sql`select ${cols} from quote_rows order by rfq_id, arrival` // migration 103's layout
    assert.deepEqual(after, before)
    const [kind] = await db.sql`select relkind from pg_class where relname = 'quotes'`
    assert.equal(kind!.relkind, 'p')
    const placed =
      await db.sql`select q.rfq_id, q.tableoid::regclass::text as p, (r.created_at at time zone 'utc')::date::text as day
      from quotes q join rfqs r on q.rfq_id = rfq_key(r.id)`
    for (const r of placed) assert.equal(r.p, partitionName('quotes', r.day))
    // the writer goes on where the old layout stopped: a stored (RFQ, maker) is still a duplicate, and the next quote
    // comes numbered as the actor of the restored RFQ numbers it (its five stored quotes' makers, then this one)
    await assert.rejects(createQuoteWriter(db.sql).write(quote('rfq_old3', 0)), DuplicateQuoteError)
    await createQuoteWriter(db.sql).write(quote('rfq_old3', 9, { arrival: 6 }))
    const order = await db.sql`select maker, arrival from quote_rows where rfq_id = 'rfq_old3' order by arrival`
    assert.deepEqual(
      order.map(r => [r.maker, r.arrival]),
      [0, 1, 2, 3, 4, 9].map((m, i) => [A(m), i + 1]),
      'arrival numbers go on from the old order',
    )
  } finally {
    await db.drop()
    rmSync(old, { recursive: true, force: true })
  }
})
