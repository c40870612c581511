// The tape's JSON is built by PostgreSQL (store/options.ts tapeBody). It must say exactly what the
// row-by-row shaping (tapeReference.ts: tape() + tradeView) says: same fields, same order, numbers that parse to the
// same doubles (tiny, huge, negative, many digits) and timestamps as Date#toISOString writes them. The
// reference rounds in Node (workers/options/precision.ts), the documents in SQL (migration 092's option_round):
// these tests are what keeps the two sides of the precision rule one rule.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { runReplay } from '../../engine/ingest/sources/replay.js'
import { createLogger } from '../../engine/log.js'
import { tapeBody, type TapeFilter } from '../../engine/store/options.js'
import { tape, tradeView } from './tapeReference.js'
import { roundHalfAway } from '../../workers/options/precision.js'
import { SAMPLE } from './fixture.js'

let db: TestDatabase
before(async () => {
  db = await testDatabase('tapejson')
  await runReplay({ sql: db.sql, log: createLogger('silent'), file: SAMPLE })
})
after(async () => {
  await db?.drop()
})

const page = (over: Partial<TapeFilter> = {}): TapeFilter => ({
  underlying: null,
  liqClass: null,
  venue: null,
  limit: 50,
  offset: 0,
  ...over,
})

async function assertSame(f: TapeFilter): Promise<number> {
  const reference = await tape(db.sql, f)
  const built = JSON.parse((await tapeBody(db.sql, f)).toString('utf8'))
  assert.deepEqual(Object.keys(built), ['trades', 'count'])
  const trades = built.trades
  assert.deepEqual(trades, JSON.parse(JSON.stringify(reference.rows.map(tradeView))))
  // key order too: clients that diff raw responses see the same text layout
  for (const [i, t] of trades.entries()) assert.deepEqual(Object.keys(t), Object.keys(tradeView(reference.rows[i]!)))
  assert.equal(built.count, reference.total)
  return trades.length
}

test('the replayed recording: every filter and page gives the same trades and count both ways', async () => {
  assert.equal(await assertSame(page()), 8)
  await assertSame(page({ underlying: 'BTC' }))
  await assertSame(page({ underlying: 'ETH', liqClass: 2 }))
  await assertSame(page({ liqClass: 1 }))
  await assertSame(page({ venue: 'VENUE_A', limit: 2, offset: 3 }))
  assert.equal(await assertSame(page({ offset: 100 })), 0) // past the end: [] and the total
  assert.equal(await assertSame(page({ venue: 'VENUE_B' })), 0) // nothing at all: [] and 0
})

test('the tape is compact JSON, byte for byte what JSON.stringify writes for the other endpoints', async () => {
  const text = (await tapeBody(db.sql, page())).toString('utf8')
  assert.equal(text, JSON.stringify(JSON.parse(text)))
})

// -0 is stored as 0 by neither path's fault (JSON.stringify writes -0 as 0): left out, as are
// subnormals, which PostgreSQL refuses as input
const double = fc.oneof(
  fc
    .double({ min: -1e300, max: 1e300, noNaN: true })
    .filter(d => d === 0 || Math.abs(d) > 1e-300)
    .map(d => (d === 0 ? 0 : d)),
  fc.double({ min: 1e-9, max: 1e-3, noNaN: true }),
  fc.double({ min: 1e14, max: 1e22, noNaN: true }),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(n => n / 10_000),
)

test('property: option_round (SQL) and roundHalfAway (Node) agree on any double, every precision', async () => {
  await fc.assert(
    fc.asyncProperty(double, fc.integer({ min: 0, max: 6 }), async (x, d) => {
      const [row] = await db.sql`select option_round(${x}::float8, ${d}::int) as r`
      assert.equal(row!.r, roundHalfAway(x, d), `${x} at ${d} decimals`)
    }),
    { numRuns: 300 },
  )
  const [edge] =
    await db.sql`select option_round('NaN', 2) as nan, option_round('Infinity', 2) as inf, option_round(null, 2) as nul,
    option_round(1.005, 2) as half, option_round(-1.005, 2) as neg, option_round(0.1::float8 + 0.2::float8, 4) as noise`
  assert.deepEqual({ ...edge }, { nan: null, inf: null, nul: null, half: 1.01, neg: -1.01, noise: 0.3 })
})

test('property: any stored doubles and millisecond timestamps read back identically', async () => {
  const [inst] = await db.sql`select id from option_instruments order by id limit 1`
  let n = 0
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        price: double,
        amount: double,
        premium: fc.option(double),
        iv: fc.option(double),
        spot: fc.option(double),
        ts: fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2200, 0, 1) }),
      }),
      async r => {
        const ref = `prop-${n++}`
        await db.sql`
        insert into option_trades (venue, trade_ref, instrument_id, instrument, underlying, is_call, strike, expiry_ts, price, amount,
          premium_usd, iv, spot_ref, side, counterparty, liquidity_guess, source, ts)
        select 'VENUE_B', ${ref}, i.id, i.name, 'PROP', i.is_call, i.strike, i.expiry_ts, ${r.price}, ${r.amount}, ${r.premium}, ${r.iv},
          ${r.spot}, 'buy', null, 'UNKNOWN', 'replay', ${new Date(r.ts)}
        from option_instruments i where i.id = ${inst!.id}`
        assert.equal(await assertSame(page({ underlying: 'PROP', limit: 1 })), 1)
        await db.sql`delete from option_trades where trade_ref = ${ref}`
      },
    ),
    { numRuns: 60 },
  )
})
