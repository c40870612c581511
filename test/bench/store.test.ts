// The store bench (bench/store.ts): its rows are what the engine stores and reads back (a past day in a partition of
// its own, attached, its key arbitrating as the engine's does; today's through the parent tables), and the bench runs
// end to end at a tiny size on a real PostgreSQL, printing its five figures and leaving no database behind.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import postgres from 'postgres'
import { testDatabase, adminUrl, type TestDatabase } from '../helpers/db.js'
import { repoRoot } from '../../engine/paths.js'
import { ensurePartitions, partitionName } from '../../engine/store/partitions.js'
import { quotesOfRfqs } from '../../engine/store/rfqs.js'
import { rfqById } from '../../engine/store/rfqQueries.js'
import { loadPastDay, loadToday } from '../../bench/store/rows.js'

describe('the store bench', () => {
  let db: TestDatabase
  before(async () => {
    db = await testDatabase('benchstore')
    await ensurePartitions(db.sql)
  })
  after(async () => {
    await db?.drop()
  })

  test("a past day's rows land in their own attached partition; the engine reads each RFQ's quotes back", async () => {
    const day = await loadPastDay(db.sql, 3, 200, 10)
    assert.deepEqual([day.rfqs, day.quotes], [20, 200])
    const name = partitionName('quotes', day.day)
    const [attached] = await db.sql`
      select count(*)::int as n from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where c.relname = ${name} and i.inhparent = 'quotes'::regclass`
    assert.equal(attached!.n, 1, `${name} is a partition of quotes`)
    const [rows] = await db.sql.unsafe(`select count(*)::int as n from ${name}`)
    assert.equal(rows!.n, 200)
    const rfqPart = partitionName('rfqs', day.day)
    const [rfqRows] = await db.sql`
      select count(*)::int as n from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where c.relname = ${rfqPart} and i.inhparent = 'rfqs'::regclass`
    assert.equal(rfqRows!.n, 1, `${rfqPart} is a partition of rfqs`)
    const [inDay] = await db.sql.unsafe(`select count(*)::int as n from ${rfqPart}`)
    assert.equal(inDay!.n, 20, "the day's RFQs in its own partition")
    const read = await quotesOfRfqs(db.sql, day.sample)
    assert.equal(read.size, day.sample.length)
    for (const [rfqId, quotes] of read) {
      assert.equal(quotes.length, 10, rfqId)
      assert.equal(new Set(quotes.map(q => q.quote.maker)).size, 10, 'ten makers, each once')
      for (const q of quotes) {
        assert.match(q.signature, /^0x[0-9a-f]{128}1[bc]$/)
        assert.match(q.quote.maker, /^0x[0-9a-f]{40}$/)
        assert.match(q.quote.amountOut, /^[1-9][0-9]{17,23}$/)
        assert.equal(new Date(q.receivedAtMs).toISOString().slice(0, 10), day.day)
      }
    }
    const [rfq] = await db.sql`select status, ended_by from rfqs where id = ${day.sample[0]!}`
    assert.deepEqual({ ...rfq }, { status: 'EXPIRED', ended_by: 'expiry' })
    assert.equal((await rfqById(db.sql, day.sample[0]!))?.quoteCount, 10)
    // the store still arbitrates one quote per maker per RFQ in the attached partition
    const [q] = await db.sql.unsafe(`select * from ${name} limit 1`)
    await assert.rejects(
      db.sql.unsafe(`insert into quotes select * from ${name} where rfq_id = $1 and maker = $2`, [q!.rfq_id, q!.maker]),
      (e: { code?: string }) => e.code === '23505',
    )
  })

  test("today's rows go through the parent tables into today's partition", async () => {
    const today = await loadToday(db.sql, 30, 10)
    const [n] = await db.sql.unsafe(`select count(*)::int as n from ${partitionName('quotes', today.day)}`)
    assert.equal(n!.n, 300)
    assert.equal((await quotesOfRfqs(db.sql, today.sample)).size, 30)
  })

  test('the bench runs end to end at a tiny size: five figures, and its database dropped', async () => {
    const { NODE_TEST_CONTEXT: _, ...base } = process.env
    const env = {
      ...base,
      DATABASE_URL: adminUrl(),
      BENCH_STORE_QUOTES: '3000',
      BENCH_STORE_DAYS: '3',
      BENCH_STORE_RELAY_QUOTES: '500',
      BENCH_STORE_READS: '50',
      BENCH_STORE_PACED_SECS: '2',
      BENCH_STORE_ARCHIVE_ROWS: '2000',
    }
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>(resolve => {
      const child = spawn(process.execPath, [join(repoRoot, 'dist/bench/store.js')], { env, stdio: 'pipe' })
      let stdout = '',
        stderr = ''
      child.stdout.on('data', d => (stdout += d))
      child.stderr.on('data', d => (stderr += d))
      child.on('exit', code => resolve({ code, stdout, stderr }))
    })
    assert.equal(out.code, 0, out.stdout + out.stderr)
    for (const line of [
      /^bytes per stored quote: \d+ B$/m,
      /^relay throughput at 3000 stored vs empty: \d+\.\d\d /m,
      /^RFQ detail p99 at 3000 vs empty: \d+\.\d\d .*errors 0\)$/m,
      /^p99 during a partition drop vs paced: \d+\.\d\d \(errors \d+\)/m,
      /^archive export: \d+ rows\/s, restore: \d+ rows\/s$/m,
    ])
      assert.match(out.stdout, line)
    assert.match(out.stdout, /with the drop of quotes_p\d{8} /, 'retention dropped a partition')
    const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} })
    try {
      const left = await admin`select datname from pg_database where datname like 'store\\_%'`
      assert.deepEqual(
        left.map(r => r.datname),
        [],
      )
    } finally {
      await admin.end()
    }
  })
})
