// The store arbitrates every end (migration 097, engine/store/rfqs.ts): several nodes writing the same end store it
// once and judge its maker once; the heal stores only what is still open; the TTL cleanup takes only what is past its
// own expiry by more than RFQ_TTL_SECS; a write that ends an RFQ without saying how gets its status's reading; and a
// fill recorded after an RFQ was stored EXPIRED is its end for the league too.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { connect, type Sql } from '../../engine/store/db.js'
import { persistStatus, storeEnds, sweepEnded } from '../../engine/store/rfqs.js'
import { markFilled } from '../../engine/store/rfqQueries.js'
import { insertQuoteRow } from '../engine/store/rows.js'

let db: TestDatabase
before(async () => {
  db = await testDatabase('ends')
})
after(async () => {
  await db.drop()
})

const nowSec = () => Math.floor(Date.now() / 1000)
const hex = (n: number) => '0x' + randomBytes(n).toString('hex')

async function rfq(expiry: number, maker?: string): Promise<string> {
  const id = 'rfq_' + randomBytes(16).toString('hex')
  await db.sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility) values (${id}, ${hex(20)}, ${hex(20)}, ${hex(20)}, 0, 5, ${expiry}, 'public')`
  if (maker) {
    await insertQuoteRow(db.sql, id, maker, { amountIn: 5n, amountOut: 7n, expiry, deadline: expiry })
    await db.sql`update rfqs set status = 'QUOTED' where id = ${id}`
  }
  return id
}

const row = async (id: string) => ({
  ...(await db.sql`select status, ended_at, ended_by from rfqs where id = ${id}`)[0],
})
const judged = async (maker: string) => ({
  ...(await db.sql`select judged, failed from league_totals where role = 'maker' and address = ${maker}`)[0],
})

test('nodes writing the same expiry at once store it once and judge its maker once', async () => {
  const maker = hex(20),
    expiry = nowSec() - 1,
    id = await rfq(expiry, maker)
  const nodes: Sql[] = [connect(db.url, { max: 1 }), connect(db.url, { max: 1 }), connect(db.url, { max: 1 })]
  try {
    const at = new Date(expiry * 1000)
    const results = await Promise.all(nodes.map(n => persistStatus(n, id, { status: 'EXPIRED', at, by: 'expiry' })))
    assert.equal(results.filter(r => r === undefined).length, 1, 'one write wins')
    assert.deepEqual(
      results.filter(r => r !== undefined),
      [{ lost: 'EXPIRED' }, { lost: 'EXPIRED' }],
    )
  } finally {
    await Promise.all(nodes.map(n => n.end()))
  }
  assert.deepEqual(await row(id), { status: 'EXPIRED', ended_at: new Date(expiry * 1000), ended_by: 'expiry' })
  assert.deepEqual(await judged(maker), { judged: 1, failed: 1 })
})

test('the heal stores EXPIRED by the engine where the RFQ is still open, once, and judges no one', async () => {
  const maker = hex(20),
    at = new Date((nowSec() - 5) * 1000)
  const open = await rfq(nowSec() - 5, maker),
    cancelled = await rfq(nowSec() + 60, maker)
  await persistStatus(db.sql, cancelled, { status: 'CANCELLED', at: new Date() })
  const ends = [
    { rfqId: open, at },
    { rfqId: cancelled, at },
    { rfqId: 'rfq_never_stored', at },
  ]
  const stored = await Promise.all([storeEnds(db.sql, ends), storeEnds(db.sql, ends)])
  assert.deepEqual(
    stored.sort((a, b) => a - b),
    [0, 1],
    'two nodes offering the same ends: one stores, the other finds nothing open',
  )
  assert.deepEqual(await row(open), { status: 'EXPIRED', ended_at: at, ended_by: 'engine' })
  assert.equal((await row(cancelled)).status, 'CANCELLED', 'an end stored otherwise stands')
  assert.deepEqual(await judged(maker), {}, "the engine's end and the taker's cancel judge no maker")
})

test('the TTL cleanup ends only what is open more than RFQ_TTL_SECS past its own expiry', async () => {
  const now = nowSec(),
    ttl = 60
  const stale = await rfq(now - ttl - 1),
    recent = await rfq(now - ttl + 5),
    live = await rfq(now + 1)
  // older than the TTL, before its expiry; its day moves with it (the day's check: in the first hour of a UTC day, an
  // hour back is yesterday, and the row moves to that day's partition)
  await db.sql`update rfqs set created_at = now() - interval '1 hour',
    created_day = ((now() - interval '1 hour') at time zone 'utc')::date where id = ${live}`
  assert.ok((await sweepEnded(db.sql, ttl, now * 1000)) >= 1)
  assert.deepEqual(await row(stale), {
    status: 'EXPIRED',
    ended_at: new Date((now - ttl - 1) * 1000),
    ended_by: 'engine',
  })
  assert.equal((await row(recent)).status, 'OPEN', 'its actor may still store it: left to it for RFQ_TTL_SECS')
  assert.equal((await row(live)).status, 'OPEN', 'the TTL never ends an RFQ before its own expiry')
  assert.equal(await sweepEnded(db.sql, ttl, now * 1000), 0, 'a second sweep is a no-op')
})

test("an end written without saying how gets its status's reading, and a fill after an engine's end is the taker's", async () => {
  const expiry = nowSec() - 3
  const a = await rfq(expiry),
    b = await rfq(expiry + 100)
  await db.sql`update rfqs set status = 'EXPIRED' where id = ${a}`
  assert.deepEqual(await row(a), { status: 'EXPIRED', ended_at: new Date(expiry * 1000), ended_by: 'expiry' })
  const at = new Date(Date.now() - 1000)
  await db.sql`update rfqs set status = 'CANCELLED', cancelled_at = ${at} where id = ${b}`
  assert.deepEqual(await row(b), { status: 'CANCELLED', ended_at: at, ended_by: 'taker' })
  const c = await rfq(expiry + 100)
  await storeEnds(db.sql, [{ rfqId: c, at }])
  await db.sql`update rfqs set status = 'FILLED', filled_at = now() where id = ${c}`
  assert.equal((await row(c)).ended_by, 'taker')
})

test("a fill mined before the expiry and recorded after it was stored EXPIRED takes back its maker's failure", async () => {
  const maker = hex(20),
    expiry = nowSec() - 2,
    id = await rfq(expiry, maker)
  await persistStatus(db.sql, id, { status: 'EXPIRED', at: new Date(expiry * 1000), by: 'expiry' })
  assert.deepEqual(await judged(maker), { judged: 1, failed: 1 })
  assert.equal(await markFilled(db.sql, id, hex(32), expiry - 1), true)
  assert.deepEqual(await judged(maker), { judged: 1, failed: 0 }, 'judged once, as the fill it was')
  const [day] =
    await db.sql`select sum(judged)::int as judged, sum(failed)::int as failed from league_daily where role = 'maker' and address = ${maker}`
  assert.deepEqual({ ...day }, { judged: 1, failed: 0 }, 'the daily rows agree with the totals')
  assert.deepEqual((({ status, ended_by }) => ({ status, ended_by }))(await row(id)), {
    status: 'FILLED',
    ended_by: 'taker',
  })

  // the fill's time from the RFQ's own expiry, not a second clock reading: a second's tick between two readings
  // (a busy machine) made the fill no longer before the expiry
  const other = hex(20),
    lateExpiry = nowSec() - 2,
    late = await rfq(lateExpiry, other)
  await storeEnds(db.sql, [{ rfqId: late, at: new Date() }])
  assert.deepEqual(await judged(other), {}, "an engine's end judges no one")
  assert.equal(await markFilled(db.sql, late, hex(32), lateExpiry - 1), true)
  assert.deepEqual(await judged(other), { judged: 1, failed: 0 }, "a fill after an engine's end is judged as a fill")
})
