// Retention of RFQs (RFQS_RETENTION_DAYS): a day's rfqs partition goes exactly when it is past its window, after its
// quotes' day and never while it holds an RFQ still open, with the quote writer committing meanwhile (the clock is
// the test's); the league rollups, fills and the performance summary are equal before and after. With ARCHIVE_DIR,
// the partition is archived first, and its archive restores the rows as they were.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabase } from '../../helpers/db.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { createQuoteWriter } from '../../../engine/store/quotes.js'
import { ensurePartitions, partitionName } from '../../../engine/store/partitions.js'
import { runRetention } from '../../../engine/store/retention.js'
import { performanceSummary } from '../../../engine/store/fills.js'
import { restoreArchive } from '../../../engine/store/archive/restore.js'
import { A, DAY, quote, rfq, timedId, utcDay } from './rows.js'

const today = Math.floor(Date.now() / DAY) * DAY + 12 * 3_600_000
const idOf = (d: number, n = 0) => timedId(today - d * DAY, d * 10 + n)

test(
  'RFQ retention drops exactly the days past its window, after their quotes, never one holding an open RFQ',
  { timeout: 60_000 },
  async () => {
    const db = await testDatabase('rret')
    const dir = mkdtempSync(join(tmpdir(), 'rfq-archive-'))
    try {
      const w = createQuoteWriter(db.sql)
      for (let d = 9; d >= 0; d--) {
        await ensurePartitions(db.sql, { now: today - d * DAY, ahead: 0 })
        for (const n of [0, 1]) {
          await insertRfq(db.sql, rfq(idOf(d, n), new Date(today - d * DAY + n)), null)
          await Promise.all([1, 2, 3].map(m => w.write(quote(idOf(d, n), m))))
        }
      }
      // every old RFQ ended (8 days ago's first by its expiry: its best maker is judged into the rollups), but one
      // of 8 days ago is still open: its day stays
      await db.sql`update rfqs set status = 'EXPIRED' where id = ${idOf(8)}`
      await db.sql`update rfqs set status = 'CANCELLED' where id <> ${idOf(8)} and id <> ${idOf(8, 1)}
        and created_day < ${utcDay(today)}::date`
      await db.sql`insert into fills (rfq_id, tx_hash, taker, maker, token_in, token_out, amount_in, amount_out, amount_in_usd,
        is_private, benchmark_available, improvement_bps, taker_points, maker_points, points_version, filled_at)
        values (${idOf(7)}, '0xf1', ${A(1)}, ${A(3)}, ${A(2)}, ${A(3)}, 10, 3, 100, false, true, 12, 1, 1, 'v1',
          ${new Date(today - 7 * DAY)})`
      const kept = async () => ({
        daily: await db.sql`select * from league_daily order by day, role, address`,
        totals: await db.sql`select * from league_totals order by role, address`,
        fills: await db.sql`select * from fills order by 1`,
        summary: await performanceSummary(db.sql, { window: '30d', since: new Date(today - 30 * DAY) }),
      })
      const before = await kept()
      assert.ok(before.daily.length > 0 && before.summary.totalFills === 1)

      // quotes kept: no RFQ day may go, whatever its age
      const waiting = await runRetention(db.sql, { days: 0, rfqsDays: 5, now: today })
      const days = (table: string) => [9, 8, 7, 6].map(d => partitionName(table, utcDay(today - d * DAY)))
      // (the agents' activity log goes by the RFQs' window, whatever the quotes')
      assert.deepEqual([waiting.dropped, waiting.held], [days('agent_activity'), days('rfqs')])

      const original = [
        ...(await db.sql.unsafe(`select * from ${partitionName('rfqs', utcDay(today - 9 * DAY))} order by seq`)),
      ]
      const live = timedId(today, 999)
      await insertRfq(db.sql, rfq(live, new Date(today)), null)
      const writes = Array.from({ length: 200 }, (_, i) => w.write(quote(live, 100 + i)))
      const run = await runRetention(db.sql, { days: 3, rfqsDays: 5, now: today, archiveDir: dir })
      assert.deepEqual(await Promise.allSettled(writes).then(rs => rs.filter(r => r.status === 'rejected')), [])

      const quoteDays = [4, 5, 6, 7, 8, 9].map(d => partitionName('quotes', utcDay(today - d * DAY)))
      const rfqDays = [9, 7, 6].map(d => partitionName('rfqs', utcDay(today - d * DAY)))
      assert.deepEqual(run.dropped.sort(), [...quoteDays, ...rfqDays].sort())
      assert.deepEqual(run.held, [partitionName('rfqs', utcDay(today - 8 * DAY))])
      assert.deepEqual([run.skipped, run.unarchived], [[], []])
      assert.deepEqual(run.archived!.sort(), [...quoteDays, ...rfqDays].sort())
      const left = await db.sql`select id from rfqs order by seq`
      assert.deepEqual(
        left.map(r => r.id),
        [8, 5, 4, 3, 2, 1, 0].flatMap(d => [idOf(d), idOf(d, 1)]).concat(live),
      )
      const tables = await db.sql`select relname from pg_class where relname like 'rfqs_p%' and relkind = 'r'`
      for (const name of rfqDays) assert.ok(!tables.some(t => t.relname === name), `${name} is gone, not only detached`)
      assert.deepEqual(await kept(), before)

      // its archive restores the rows as they were
      const oldest = partitionName('rfqs', utcDay(today - 9 * DAY))
      const restored = await restoreArchive(db.sql, join(dir, `${oldest}.manifest.json`))
      assert.deepEqual(restored, { table: `archive_${oldest}`, rows: 2 })
      assert.deepEqual([...(await db.sql.unsafe(`select * from ${restored.table} order by seq`))], original)

      // once its RFQ has ended, the held day goes at the next run
      await db.sql`update rfqs set status = 'CANCELLED' where id = ${idOf(8, 1)}`
      const next = await runRetention(db.sql, { days: 3, rfqsDays: 5, now: today })
      assert.deepEqual(next.dropped, [partitionName('rfqs', utcDay(today - 8 * DAY))])
      assert.deepEqual(await kept(), before)
    } finally {
      await db.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  },
)
