// The partitioned tables as an operator sees them on /metrics (issue 30, point 5): partitions, rows and bytes per
// table family, the oldest partition's age and the last retention run, read from a real PostgreSQL's catalog by the
// partitions' upkeep, and exported by Prometheus' conventions (Debian's promtool prints nothing for them).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { memoryLog } from '../../helpers/memoryLog.js'
import { findBinary } from '../../helpers/prometheus.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { ensurePartitions, keepPartitionsAhead, partitionName } from '../../../engine/store/partitions.js'
import { readPartitionStats } from '../../../engine/store/partitionStats.js'
import { partitionMetrics } from '../../../engine/store/partitionMetrics.js'
import { createMetrics } from '../../../engine/metrics.js'
import { DAY, rfq, utcDay } from './rows.js'

const today = Math.floor(Date.now() / DAY) * DAY + 12 * 3_600_000 // noon UTC, today
const day = utcDay

/** `n` quotes (makers `from`..) for an RFQ made `daysAgo` days before today, in its day's partition */
async function quotes(db: TestDatabase, id: string, daysAgo: number, n: number, from = 1) {
  await db.sql`
    insert into quotes (rfq_day, arrival, taker_open, rfq_id, maker, amount_in, amount_out, expiry, nonce, deadline,
      signature, received_at)
    select ${day(today - daysAgo * DAY)}::date, m, true, rfq_key(${id}), decode(lpad(to_hex(m), 40, '0'), 'hex'), 10, m, 1,
      m, 2, decode(repeat('11', 65), 'hex'), now()
    from generate_series(${from}::int, ${from + n - 1}::int) m`
}

const sample = (text: string, series: string) => {
  const line = text.split('\n').find(l => l.startsWith(series + ' '))
  assert.ok(line, `${series} is exported`)
  return Number(line.slice(series.length + 1))
}

test('the partitions, rows, bytes and oldest day of quotes are read from the catalog', async () => {
  const db = await testDatabase('pm')
  try {
    for (let d = -4; d <= 0; d++) {
      await ensurePartitions(db.sql, { now: today + d * DAY, ahead: 0 })
      await insertRfq(db.sql, rfq(`rfq_d${-d}`, new Date(today + d * DAY)), null)
      await quotes(db, `rfq_d${-d}`, -d, 100)
    }
    await db.sql`analyze quotes`
    const children = await db.sql`select inhrelid from pg_inherits where inhparent = 'quotes'::regclass`
    const [before] = await readPartitionStats(db.sql, ['quotes'])
    assert.equal(before!.table, 'quotes')
    assert.equal(before!.partitions, children.length)
    assert.equal(before!.rows, 500)
    assert.equal(before!.oldestDay, day(today - 4 * DAY))
    assert.ok(before!.bytes > 0)

    await quotes(db, 'rfq_d0', 0, 2000, 1000)
    await db.sql`analyze quotes`
    const [after] = await readPartitionStats(db.sql, ['quotes'])
    assert.equal(after!.rows, 2500)
    assert.ok(after!.bytes > before!.bytes, 'a day grown by 2,000 quotes weighs more')
    assert.equal(after!.partitions, before!.partitions)
  } finally {
    await db.drop()
  }
})

test(
  '/metrics shows them (quotes and rfqs) and the last retention run, as promtool accepts',
  { timeout: 60_000 },
  async () => {
    const db = await testDatabase('pm')
    const { log } = memoryLog()
    try {
      for (let d = -4; d <= 0; d++) await ensurePartitions(db.sql, { now: today + d * DAY, ahead: 0 })
      // retention of 2 days for quotes and 3 for RFQs, run by the upkeep as in the engine: today's clock, so the
      // quotes of the days 3 and 4 before go, and the RFQs (and agent activity) of the day 4 before
      const upkeep = keepPartitionsAhead(db.sql, { retentionDays: 2, rfqsRetentionDays: 3, log })
      try {
        while (!upkeep.lastRetention || !upkeep.stats.length) await new Promise(r => setTimeout(r, 20))
        assert.deepEqual(upkeep.lastRetention.dropped.sort(), [
          partitionName('agent_activity', day(today - 4 * DAY)),
          ...[4, 3].map(d => partitionName('quotes', day(today - d * DAY))),
          partitionName('rfqs', day(today - 4 * DAY)),
        ])
        const metrics = createMetrics()
        const scrapedAt = today + 3_600_000
        partitionMetrics(metrics, upkeep, () => scrapedAt)
        const text = await metrics.registry.metrics()
        const children = await db.sql`select inhrelid from pg_inherits where inhparent = 'quotes'::regclass`
        assert.equal(sample(text, 'store_partitions{table="quotes"}'), children.length)
        assert.equal(sample(text, 'store_rows{table="quotes"}'), 0)
        assert.ok(sample(text, 'store_bytes{table="quotes"}') > 0)
        const oldest = Date.parse(`${day(today - 2 * DAY)}T00:00:00Z`)
        assert.equal(sample(text, 'store_oldest_partition_age_seconds{table="quotes"}'), (scrapedAt - oldest) / 1000)
        const rfqParts = await db.sql`select inhrelid from pg_inherits where inhparent = 'rfqs'::regclass`
        assert.equal(sample(text, 'store_partitions{table="rfqs"}'), rfqParts.length)
        assert.equal(
          sample(text, 'store_oldest_partition_age_seconds{table="rfqs"}'),
          (scrapedAt - Date.parse(`${day(today - 3 * DAY)}T00:00:00Z`)) / 1000,
        )
        assert.equal(sample(text, 'store_retention_dropped_partitions_total'), 4)
        assert.equal(
          sample(text, 'store_retention_last_run_timestamp_seconds'),
          upkeep.lastRetention.at.getTime() / 1000,
        )
        assert.equal(
          execFileSync(findBinary('promtool', 'PROMTOOL_BIN'), ['check', 'metrics'], { input: text }).length,
          0,
        )
      } finally {
        upkeep.stop()
      }
    } finally {
      await db.drop()
    }
  },
)
