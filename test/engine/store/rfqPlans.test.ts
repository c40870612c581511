// Every lookup of an RFQ by id reads one day's partition of `rfqs` (and of `quotes`): the store passes the day the id
// carries (engine/store/rfqKey.ts). Shown by the plans PostgreSQL executes for the store's own functions, logged by
// auto_explain (nested statements included: the fill's judge trigger), both as planned with the values and as
// generic plans pruned at the executor's start. A legacy id, which carries no day, probes every partition and is
// found all the same.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { connect, type Sql } from '../../../engine/store/db.js'
import { ensurePartitions, partitionName } from '../../../engine/store/partitions.js'
import {
  endOfRfq,
  insertRfq,
  loadLiveRfqs,
  persistStatus,
  quotesOfRfqs,
  rfqAccess,
  storeEnds,
} from '../../../engine/store/rfqs.js'
import { cancelPersisted, markFilled, rfqById, seqOfVisible } from '../../../engine/store/rfqQueries.js'
import { createQuoteWriter } from '../../../engine/store/quotes.js'
import { rfqPerformance } from '../../../engine/store/fills.js'
import { baselineForRfq } from '../../../engine/store/baselines.js'
import { ANONYMOUS } from '../../../actors/visibility.js'
import { DAY, quote, rfq, timedId, utcDay } from './rows.js'

const midnight = Math.floor(Date.now() / DAY) * DAY
const MODES = ['force_custom_plan', 'force_generic_plan'] as const

/** The partitions of rfqs and quotes each statement `run` makes PostgreSQL execute reads or writes. */
async function touched(url: string, mode: (typeof MODES)[number], run: (sql: Sql) => Promise<unknown>) {
  const plans: string[] = []
  const sql = connect(url, { max: 1, onnotice: n => plans.push(n.message ?? '') })
  try {
    await sql`load 'auto_explain'`.catch((e: unknown) => {
      throw new Error(`auto_explain (PostgreSQL's contrib) is needed by this suite: ${String(e)}`)
    })
    await sql.unsafe(`set auto_explain.log_min_duration = 0; set auto_explain.log_format = json;
      set auto_explain.log_level = notice; set auto_explain.log_nested_statements = on; set plan_cache_mode = ${mode}`)
    plans.length = 0
    await run(sql)
  } finally {
    await sql.end()
  }
  return plans
    .filter(p => p.includes('"Plan"'))
    .map(p => {
      const names = new Set<string>()
      const walk = (n: unknown): void => {
        if (Array.isArray(n)) n.forEach(walk)
        else if (n && typeof n === 'object')
          for (const [k, v] of Object.entries(n)) k === 'Relation Name' ? names.add(v as string) : walk(v)
      }
      walk(JSON.parse(p.slice(p.indexOf('{'))))
      const of = (t: string) => [...names].filter(r => new RegExp(`^${t}_(p\\d{8}|default)$`).test(r)).sort()
      return { rfqs: of('rfqs'), quotes: of('quotes'), pruned: p.includes('"Subplans Removed"') }
    })
}

describe('lookups by RFQ id', () => {
  let db: TestDatabase
  const day = utcDay(midnight - DAY)
  const at = (n: number) => midnight - DAY + 3_600_000 + n // yesterday, with RFQs of the days around it stored too
  before(async () => {
    db = await testDatabase('rplan')
    await ensurePartitions(db.sql, { now: midnight - 3 * DAY, ahead: 4 })
    for (const d of [-3, -2, -1, 0])
      for (let n = 0; n < 3; n++)
        await insertRfq(db.sql, rfq(timedId(midnight + d * DAY + n, 900 + n), new Date(midnight + d * DAY + n)), null)
  })
  after(() => db.drop())

  for (const mode of MODES)
    test(`each reads its day's one partition of rfqs and of quotes (${mode})`, async () => {
      const ids = [0, 1, 2, 3].map(n => timedId(at(n), n + (mode === MODES[0] ? 0 : 10)))
      for (const [n, id] of ids.entries()) await insertRfq(db.sql, rfq(id, new Date(at(n))), null)
      await createQuoteWriter(db.sql).write(quote(ids[0]!, 5))
      const calls: [string, (sql: Sql) => Promise<unknown>][] = [
        ['rfqById', sql => rfqById(sql, ids[0]!)],
        ['seqOfVisible', sql => seqOfVisible(sql, ids[0]!, ANONYMOUS)],
        ['rfqAccess', sql => rfqAccess(sql, ids[0]!)],
        ['endOfRfq', sql => endOfRfq(sql, ids[0]!)],
        ['loadLiveRfqs (a cluster node adopting one)', sql => loadLiveRfqs(sql, Date.now(), { id: ids[0]! })],
        ['quotesOfRfqs', sql => quotesOfRfqs(sql, [ids[0]!])],
        ['the quote writer', sql => createQuoteWriter(sql).write(quote(ids[0]!, 6))],
        // (no fill or baseline stored: their plans still show the one rfqs partition their join would read)
        ['rfqPerformance', sql => rfqPerformance(sql, ids[0]!)],
        ['baselineForRfq', sql => baselineForRfq(sql, ids[0]!)],
        ['markFilled (and its judge trigger)', sql => markFilled(sql, ids[0]!, '0x' + 'ab'.repeat(32), 0)],
        ['persistStatus', sql => persistStatus(sql, ids[1]!, { status: 'CANCELLED', at: new Date() })],
        ['cancelPersisted', sql => cancelPersisted(sql, ids[2]!)],
        ['storeEnds', sql => storeEnds(sql, [{ rfqId: ids[3]!, at: new Date() }])],
      ]
      for (const [name, call] of calls) {
        const plans = await touched(db.url, mode, call)
        const reading = plans.filter(p => p.rfqs.length)
        assert.ok(reading.length, `${name}: no plan read rfqs`)
        // a generic plan names no day: its partitions are pruned when the executor starts, with the parameters
        if (mode === 'force_generic_plan')
          assert.ok(
            reading.some(p => p.pruned),
            `${name}: not pruned at execution`,
          )
        for (const p of plans) {
          assert.deepEqual(p.rfqs.length ? p.rfqs : [], p.rfqs.length ? [partitionName('rfqs', day)] : [], name)
          assert.deepEqual(p.quotes.length ? p.quotes : [], p.quotes.length ? [partitionName('quotes', day)] : [], name)
        }
      }
      assert.equal((await rfqById(db.sql, ids[0]!))?.status, 'FILLED')
      assert.equal((await rfqById(db.sql, ids[1]!))?.status, 'CANCELLED')
      assert.equal((await quotesOfRfqs(db.sql, [ids[0]!])).get(ids[0]!)?.length, 2)
    })

  test('a legacy id (no time) probes every partition, and is found: detail, quotes, cancel, fill', async () => {
    const legacy = () => 'rfq_' + randomBytes(16).toString('hex')
    const [a, b, c] = [legacy(), legacy(), legacy()]
    for (const id of [a, b, c]) await insertRfq(db.sql, rfq(id, new Date(midnight - 2 * DAY + 5)), null)
    await createQuoteWriter(db.sql).write(quote(a, 1))
    const plans = await touched(db.url, 'force_custom_plan', sql => rfqById(sql, a))
    assert.ok(
      plans.some(p => p.rfqs.length > 1),
      'every partition probed',
    )
    assert.equal((await rfqById(db.sql, a))?.id, a)
    assert.equal((await quotesOfRfqs(db.sql, [a])).get(a)?.length, 1)
    assert.ok(await cancelPersisted(db.sql, b))
    assert.equal(await markFilled(db.sql, c, '0x' + 'cd'.repeat(32), 0), true)
    const rows =
      await db.sql`select id, status, tableoid::regclass::text as p from rfqs where id in ${db.sql([a, b, c])}
      order by id`
    assert.deepEqual(
      rows.map(r => [r.id, r.status, r.p]),
      [
        [a, 'QUOTED', partitionName('rfqs', utcDay(midnight - 2 * DAY))],
        [b, 'CANCELLED', partitionName('rfqs', utcDay(midnight - 2 * DAY))],
        [c, 'FILLED', partitionName('rfqs', utcDay(midnight - 2 * DAY))],
      ].sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
    )
  })

  test('an RFQ created at 23:59:59.9 UTC, quoted after midnight, lands in its day and is read back', async () => {
    const created = midnight - 100
    const id = timedId(created, 77)
    await insertRfq(db.sql, rfq(id, new Date(created)), null)
    const late = { ...quote(id, 3), receivedAtMs: midnight + 5_000 }
    await createQuoteWriter(db.sql).write(late)
    const [r] = await db.sql`select tableoid::regclass::text as p, created_day::text as d from rfqs where id = ${id}`
    const [q] = await db.sql`select tableoid::regclass::text as p from quotes where rfq_id = rfq_key(${id})`
    const yesterday = utcDay(created)
    assert.deepEqual(
      [r!.p, r!.d, q!.p],
      [partitionName('rfqs', yesterday), yesterday, partitionName('quotes', yesterday)],
    )
    assert.equal((await rfqById(db.sql, id))?.quoteCount, 1)
    assert.deepEqual(
      (await quotesOfRfqs(db.sql, [id])).get(id)?.map(x => x.receivedAtMs),
      [midnight + 5_000],
    )
  })

  test("an id whose day is not its creation's is refused before it is stored", async () => {
    await assert.rejects(insertRfq(db.sql, rfq(timedId(midnight), new Date(midnight - 1)), null), /names day/)
  })
})
