// Retention drops exactly the quote partitions past the window (the test sets the clock), while a writer keeps
// committing quotes; what is kept is not touched: the league rollups and the fills are equal before and after.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { testDatabase } from '../../helpers/db.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { createQuoteWriter } from '../../../engine/store/quotes.js'
import { ensurePartitions, partitionName } from '../../../engine/store/partitions.js'
import { runRetention } from '../../../engine/store/retention.js'
import { A, DAY, quote, rfq, utcDay } from './rows.js'

const day = utcDay

test(
  'retention drops exactly the days past the window while the writer commits; rollups and fills stay equal',
  { timeout: 60_000 },
  async () => {
    const db = await testDatabase('ret')
    try {
      const today = Math.floor(Date.now() / DAY) * DAY + 12 * 3_600_000
      const w = createQuoteWriter(db.sql)
      for (let d = -9; d <= 0; d++) {
        await ensurePartitions(db.sql, { now: today + d * DAY, ahead: 0 })
        await insertRfq(db.sql, rfq(`rfq_d${-d}`, new Date(today + d * DAY)), null)
        await Promise.all([1, 2, 3].map(m => w.write(quote(`rfq_d${-d}`, m))))
      }
      // an RFQ of 8 days ago ends EXPIRED: its best quote's maker is judged into the rollups, which must outlive the quote
      await db.sql`update rfqs set status = 'EXPIRED' where id = 'rfq_d8'`
      await db.sql`insert into fills (rfq_id, tx_hash, taker, maker, token_in, token_out, amount_in, amount_out, amount_in_usd, is_private,
        benchmark_available, improvement_bps, taker_points, maker_points, points_version, filled_at)
      values ('rfq_d7', '0xf1', ${A(1)}, ${A(3)}, ${A(2)}, ${A(3)}, 10, 3, 100, false, false, 0, 1, 1, 'v1', ${new Date(today - 7 * DAY)})`
      const kept = async () => ({
        daily: await db.sql`select * from league_daily order by day, role, address`,
        totals: await db.sql`select * from league_totals order by role, address`,
        fills: await db.sql`select * from fills order by 1`,
      })
      const before = await kept()
      assert.ok(before.daily.length > 0, 'the expiry judged a maker')
      assert.equal(before.fills.length, 1)

      // the relay keeps serving: quotes for today's RFQ commit while old days are dropped
      await insertRfq(db.sql, rfq('rfq_live', new Date(today)), null)
      const writes = Array.from({ length: 200 }, (_, i) => w.write(quote('rfq_live', 100 + i)))
      const run = await runRetention(db.sql, { days: 5, now: today })
      assert.deepEqual(await Promise.allSettled(writes).then(rs => rs.filter(r => r.status === 'rejected')), [])

      const expected = [6, 7, 8, 9].map(d => partitionName('quotes', day(today - d * DAY))).sort()
      assert.deepEqual(run.dropped.sort(), expected)
      assert.deepEqual(run.skipped, [])
      const left = await db.sql`select distinct rfq_id from quote_rows order by rfq_id`
      assert.deepEqual(
        left.map(r => r.rfq_id),
        ['rfq_d0', 'rfq_d1', 'rfq_d2', 'rfq_d3', 'rfq_d4', 'rfq_d5', 'rfq_live'],
      )
      const tables = await db.sql`select relname from pg_class where relname like 'quotes_p%' and relkind = 'r'`
      for (const name of expected)
        assert.ok(!tables.some(t => t.relname === name), `${name} is gone, not only detached`)
      assert.deepEqual(await kept(), before)
      assert.deepEqual((await runRetention(db.sql, { days: 5, now: today })).dropped, [], 'a second run is a no-op')
      assert.deepEqual(
        (await runRetention(db.sql, { days: 0, now: today + 30 * DAY })).dropped,
        [],
        '0 keeps everything',
      )
    } finally {
      await db.drop()
    }
  },
)
