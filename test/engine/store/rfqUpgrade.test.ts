// The upgrade in place of `rfqs` to its day partitions (migration 101), on a database filled by the migrations before
// it: every RFQ and quote is kept, each RFQ in its creation day's partition, with every index the earlier migrations
// made (partial ones included) now a partitioned index; the sequence, the end triggers and the judge go on; a legacy
// id (no time in it) is found as before. The agents' activity log moves to its day partitions alike (migration 102).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabase } from '../../helpers/db.js'
import { migrate, migrationsDir } from '../../../engine/store/migrate.js'
import { insertRfq, quotesOfRfqs } from '../../../engine/store/rfqs.js'
import { rfqById } from '../../../engine/store/rfqQueries.js'
import { logActivity, recentActivity } from '../../../engine/store/agents.js'
import { rfqIdTime } from '../../../workers/values/index.js'
import { partitionName } from '../../../engine/store/partitions.js'
import { A, DAY, insertOldRfq, rfq, timedId, utcDay } from './rows.js'

const midnight = Math.floor(Date.now() / DAY) * DAY

test('the upgrade from the unpartitioned rfqs layout and the wide quotes keeps every RFQ, quote and index', async () => {
  const db = await testDatabase('ru')
  const old = mkdtempSync(join(tmpdir(), 'mig-'))
  try {
    await db.sql.unsafe('drop schema public cascade; create schema public')
    for (const f of readdirSync(migrationsDir).filter(f => f < '101_'))
      copyFileSync(join(migrationsDir, f), join(old, f))
    await migrate(db.sql, old)
    const ats = [-20, -3, -1, 0].map(d => midnight + d * DAY + 3_600_000).concat(midnight - 100) // 23:59:59.9
    for (const [i, at] of ats.entries()) {
      const id = `rfq_${String(i).repeat(32)}` // the legacy form: no time in it
      await insertOldRfq(db.sql, rfq(id, new Date(at)))
      for (let m = 0; m < 3; m++)
        await db.sql`insert into quotes (rfq_day, rfq_id, maker, taker, token_in, token_out, amount_in, amount_out, expiry,
          nonce, deadline, signature, received_at) values (${utcDay(at)}, ${id}, ${A(m)}, ${A(1)}, ${A(2)}, ${A(3)},
          ${String(10n ** 30n + BigInt(m))}, 20, 1, 1, 2, ${`0x${'ab'.repeat(64)}1b`}, ${new Date(at + DAY / 2)})`
      await db.sql`update rfqs set quote_count = 3, status = 'QUOTED', share_token_hash = ${'h' + i} where id = ${id}`
    }
    await db.sql`update rfqs set status = 'CANCELLED', cancelled_at = now() where id = ${`rfq_${'0'.repeat(32)}`}`
    // the agents' activity log too (migration 102), an entry on each of the RFQs' days
    await db.sql`insert into agents (id, name, owner_wallet, agent_wallet, roles, key_hash)
      values ('ag1', 'a', ${A(1)}, ${A(1)}, '{taker}', 'k')`
    for (const [i, at] of ats.entries())
      await logActivity(db.sql, { agentId: 'ag1', action: 'rfq.create', rfqId: `rfq_${String(i).repeat(32)}` }).then(
        () => db.sql`update agent_activity set at = ${new Date(at)} where id = (select max(id) from agent_activity)`,
      )
    const activity = () => db.sql`select to_jsonb(a) as a from agent_activity a order by id`
    const beforeActivity = await activity()
    // quote_count stays as stored (migration 104 keeps it for the previous release's nodes during a rolling upgrade)
    const rows = () => db.sql`select to_jsonb(r) - 'created_day' as r from rfqs r order by seq`
    // the quotes as they were stored, and (migration 103: bytes, the RFQ's taker and pair) as quote_rows shows them
    const quotes = () => db.sql`select to_jsonb(q) - 'id' as q from quotes q order by rfq_id, id`
    const quoteRows = () => db.sql`select to_jsonb(q) - 'arrival' as q from quote_rows q order by rfq_id, arrival`
    const indexes = () => db.sql`select indexname as name, replace(indexdef, ' ONLY ', ' ') as def from pg_indexes
      where tablename = 'rfqs' and indexname not in ('rfqs_pkey', 'rfqs_seq_key') order by 1`
    const [beforeRows, beforeQuotes, beforeIndexes] = [await rows(), await quotes(), await indexes()]
    assert.deepEqual([beforeRows.length, beforeQuotes.length, beforeIndexes.length], [5, 15, 6])

    assert.deepEqual(
      await migrate(db.sql),
      readdirSync(migrationsDir)
        .filter(f => f >= '101_')
        .sort(),
    )

    assert.deepEqual(await rows(), beforeRows)
    assert.deepEqual(await quoteRows(), beforeQuotes)
    const arrivals =
      await db.sql`select rfq_id, array_agg(arrival order by arrival)::text as a from quote_rows group by 1`
    assert.deepEqual(new Set(arrivals.map(r => r.a)), new Set(['{1,2,3}']))
    assert.deepEqual(await indexes(), beforeIndexes)
    assert.deepEqual(await activity(), beforeActivity)
    const entries = await db.sql`select tableoid::regclass::text as p, (at at time zone 'utc')::date::text as day
      from agent_activity`
    for (const e of entries) assert.equal(e.p, partitionName('agent_activity', e.day as string))
    assert.deepEqual(
      (await recentActivity(db.sql, 'ag1', 3)).map(e => e.rfqId),
      [4, 3, 2].map(i => `rfq_${String(i).repeat(32)}`),
    )
    const parted =
      await db.sql`select c.relkind, (select count(*)::int from pg_inherits i where i.inhparent = c.oid) as n
      from pg_class c where relname in ('rfqs', 'rfqs_open_expiry', 'rfqs_live_share_hash') order by relname`
    assert.ok(
      parted.every(p => ['p', 'I'].includes(p.relkind as string) && (p.n as number) >= 5),
      JSON.stringify(parted),
    )
    const [pk] = await db.sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'rfqs_pkey'`
    assert.equal(pk!.def, 'PRIMARY KEY (id, created_day)')
    const placed =
      await db.sql`select id, tableoid::regclass::text as p, (created_at at time zone 'utc')::date::text as day
      from rfqs`
    for (const r of placed) assert.equal(r.p, partitionName('rfqs', r.day as string))

    // what stands on the table goes on: a legacy id's reads, the sequence, the end defaults and the judge
    const legacy = `rfq_${'4'.repeat(32)}`
    assert.equal((await rfqById(db.sql, legacy))?.quoteCount, 3)
    assert.equal((await quotesOfRfqs(db.sql, [legacy])).get(legacy)?.length, 3)
    const fresh = timedId(Date.now())
    await insertRfq(db.sql, rfq(fresh, new Date(rfqIdTime(fresh)!)), null)
    assert.ok((await rfqById(db.sql, fresh))!.seq > Math.max(...beforeRows.map(r => (r.r as { seq: number }).seq)))
    await db.sql`update rfqs set status = 'EXPIRED' where id = ${legacy}`
    const [ended] = await db.sql`select ended_by from rfqs where id = ${legacy}`
    assert.equal(ended!.ended_by, 'expiry')
    const judged = await db.sql`select address, judged, failed from league_daily where role = 'maker'`
    assert.deepEqual(
      judged.map(r => ({ ...r })),
      [{ address: A(0), judged: 1, failed: 1 }],
    )
  } finally {
    await db.drop()
    rmSync(old, { recursive: true, force: true })
  }
})
