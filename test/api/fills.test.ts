import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { addr, fillBody, baselineBody, post, TEST_ENV, TOKEN_A, TOKEN_B } from './fillsFixtures.js'
import { recordFill } from '../../engine/fills/record.js'
import { DUPLICATE_FILL } from '../../engine/replies/api.js'
import { EventBus } from '../../actors/events.js'
import type { RfqEvent, FillInput } from '../../actors/rfqTypes.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine(TEST_ENV)
})
after(async () => {
  await t?.stop()
})

const MAX = (1n << 256n) - 1n

test('a fill without rfqId records with improvement 0 and points v2', async () => {
  const body = fillBody({ amountInUsd: 10_000 })
  const r = await post(t.api, '/api/v1/fills', body)
  assert.equal(r.status, 200)
  assert.equal(r.body.success, true)
  assert.deepEqual(Object.keys(r.body.fill).sort(), [
    'id',
    'improvementBps',
    'makerPoints',
    'takerPoints',
    'txHash',
    'version',
  ])
  assert.equal(r.body.fill.txHash, body.txHash)
  assert.equal(r.body.fill.improvementBps, 0)
  assert.equal(r.body.fill.makerPoints, 100)
  assert.equal(r.body.fill.takerPoints, 50)
  assert.equal(r.body.fill.version, 'v2')
  assert.equal(typeof r.body.fill.id, 'string')
  const [row] = await t.db
    .sql`select amount_in, amount_out, benchmark_available from fills where tx_hash = ${body.txHash}`
  assert.equal(row!.amount_in, 1_000_000n)
  assert.equal(row!.benchmark_available, false)
})

test('missing fields are all named, in order', async () => {
  const r = await post(t.api, '/api/v1/fills', { taker: addr(1), amountIn: '1' })
  assert.equal(r.status, 400)
  assert.equal(r.body.error, 'Missing required fields: txHash, maker, tokenIn, tokenOut, amountOut, amountInUsd')
})

test('a non-object or empty body is Invalid JSON body; malformed JSON too', async () => {
  for (const b of ['[1]', '"x"', 'null', '{bad']) {
    const r = await post(t.api, '/api/v1/fills', b)
    assert.equal(r.status, 400)
    assert.equal(r.body.error, 'Invalid JSON body')
  }
  const res = await fetch(t.api + '/api/v1/fills', { method: 'POST' })
  assert.equal(res.status, 400)
  assert.equal(((await res.json()) as any).error, 'Invalid JSON body')
})

test('bad taker or maker address', async () => {
  for (const over of [{ taker: '0x123' }, { maker: 'zz' + '1'.repeat(40) }, { taker: 42 }]) {
    const r = await post(t.api, '/api/v1/fills', fillBody(over))
    assert.equal(r.status, 400)
    assert.equal(r.body.error, 'Invalid taker or maker address format')
  }
})

test('amounts must be BigInt strings within uint256', async () => {
  for (const over of [
    { amountIn: '1.5' },
    { amountOut: '-1' },
    { amountIn: 100 },
    { amountOut: '0x10' },
    { amountIn: (MAX + 1n).toString() },
    { amountOut: '1e18' },
  ]) {
    const r = await post(t.api, '/api/v1/fills', fillBody(over))
    assert.equal(r.status, 400, JSON.stringify(over))
    assert.equal(r.body.error, 'amountIn and amountOut must be valid BigInt strings')
  }
})

test('other fields: txHash, token addresses, amountInUsd, visibility', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ txHash: '0x1234' }, 'Missing or invalid txHash (expected 0x + 64 hex chars)'],
    [{ tokenIn: 'WETH' }, 'Invalid tokenIn or tokenOut address format'],
    [{ amountInUsd: '100' }, 'amountInUsd must be a non-negative number'],
    [{ amountInUsd: -1 }, 'amountInUsd must be a non-negative number'],
    [{ visibility: 'secret' }, 'visibility must be public or private'],
    [{ rfqId: 7 }, 'rfqId must be a string (max 128 chars)'],
  ]
  for (const [over, text] of cases) {
    const r = await post(t.api, '/api/v1/fills', fillBody(over))
    assert.equal(r.status, 400, JSON.stringify(over))
    assert.equal(r.body.error, text)
  }
})

test('the same txHash twice: 409 Fill already recorded for this transaction (case-insensitive)', async () => {
  const body = fillBody()
  assert.equal((await post(t.api, '/api/v1/fills', body)).status, 200)
  const again = await post(t.api, '/api/v1/fills', { ...body, txHash: body.txHash.toUpperCase().replace('0X', '0x') })
  assert.equal(again.status, 409)
  assert.equal(again.body.error, 'Fill already recorded for this transaction')
})

test('20 concurrent posts of one txHash: exactly one 200, nineteen 409, one row, rollups counted once', async () => {
  const body = fillBody({ taker: addr(0x777), maker: addr(0x778), amountInUsd: 500 })
  const results = await Promise.all(Array.from({ length: 20 }, () => post(t.api, '/api/v1/fills', body)))
  assert.equal(results.filter(r => r.status === 200).length, 1)
  const conflicts = results.filter(r => r.status === 409)
  assert.equal(conflicts.length, 19)
  for (const c of conflicts) assert.equal(c.body.error, 'Fill already recorded for this transaction')
  const [n] = await t.db.sql`select count(*)::int as n from fills where tx_hash = ${body.txHash}`
  assert.equal(n!.n, 1)
  const [roll] = await t.db
    .sql`select fills, notional_usd::float8 as notional_usd from league_totals where address = ${addr(0x778)} and role = 'maker'`
  assert.deepEqual({ ...roll }, { fills: 1, notional_usd: 500 })
})

test('improvement from a stored baseline, exact near 2^256', async () => {
  const b = baselineBody({ amountIn: MAX.toString(), baselineAmountOut: (1n << 255n).toString() })
  assert.equal((await post(t.api, '/api/v1/rfq/baseline', b)).status, 200)
  const r = await post(
    t.api,
    '/api/v1/fills',
    fillBody({ rfqId: b.rfqId, amountIn: MAX.toString(), amountOut: MAX.toString() }),
  )
  assert.equal(r.status, 200)
  assert.equal(r.body.fill.improvementBps, 10000) // (2^256-1)/2^255 - 1 = 0.99999... -> 10000.00 bps
  const b2 = baselineBody({ baselineAmountOut: (MAX - 1n).toString() })
  await post(t.api, '/api/v1/rfq/baseline', b2)
  const r2 = await post(t.api, '/api/v1/fills', fillBody({ rfqId: b2.rfqId, amountOut: MAX.toString() }))
  assert.equal(r2.body.fill.improvementBps, 0) // one wei in 2^256
  const [row] = await t.db
    .sql`select amount_out, improvement_bps::text as imp from fills where tx_hash = ${r2.body.fill.txHash}`
  assert.equal(row!.amount_out, MAX)
  assert.equal(row!.imp, '0.00')
})

test('improvement for tiny amounts: 1 wei against a 3 wei baseline is -6666.67 bps', async () => {
  const b = baselineBody({ amountIn: '1', baselineAmountOut: '3' })
  await post(t.api, '/api/v1/rfq/baseline', b)
  const r = await post(t.api, '/api/v1/fills', fillBody({ rfqId: b.rfqId, amountIn: '1', amountOut: '1' }))
  assert.equal(r.body.fill.improvementBps, -6666.67)
  const b2 = baselineBody({ amountIn: '1', baselineAmountOut: '2' })
  await post(t.api, '/api/v1/rfq/baseline', b2)
  const r2 = await post(
    t.api,
    '/api/v1/fills',
    fillBody({ rfqId: b2.rfqId, amountIn: '1', amountOut: '3', amountInUsd: 10_000 }),
  )
  assert.equal(r2.body.fill.improvementBps, 5000)
  assert.equal(r2.body.fill.makerPoints, 150) // improvement capped at +100 bps: 100 * 1.5
})

test('self-trades and zero-notional fills earn no points', async () => {
  const self = await post(
    t.api,
    '/api/v1/fills',
    fillBody({ taker: addr(9), maker: addr(9).toUpperCase().replace('0X', '0x'), amountInUsd: 1e6 }),
  )
  assert.deepEqual([self.body.fill.takerPoints, self.body.fill.makerPoints], [0, 0])
  const zero = await post(t.api, '/api/v1/fills', fillBody({ amountInUsd: 0 }))
  assert.deepEqual([zero.body.fill.takerPoints, zero.body.fill.makerPoints], [0, 0])
})

test('private routing multiplies points by 1.25', async () => {
  const r = await post(t.api, '/api/v1/fills', fillBody({ amountInUsd: 10_000, visibility: 'private' }))
  assert.deepEqual([r.body.fill.takerPoints, r.body.fill.makerPoints], [62.5, 125])
})

test('EXACT_OUT RFQs compare the input paid: baselineIn / rfqIn - 1', async () => {
  const id = 'rfq-exact-out-1'
  await t.db.sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility)
    values (${id}, ${addr(1)}, ${TOKEN_A}, ${TOKEN_B}, 1, null, 1000, 0, 'public')`
  await post(t.api, '/api/v1/rfq/baseline', baselineBody({ rfqId: id, amountIn: '100', baselineAmountOut: '1000' }))
  const r = await post(t.api, '/api/v1/fills', fillBody({ rfqId: id, amountIn: '99', amountOut: '1000' }))
  assert.equal(r.body.fill.improvementBps, 101.01)
})

test('recordFill publishes fill.recorded after commit when it owns the transaction', async () => {
  const events = new EventBus<RfqEvent>()
  const seen: RfqEvent[] = []
  events.subscribe(e => seen.push(e))
  const input = toInput(fillBody({ rfqId: 'rfq-ev' }))
  const recorded = await recordFill(t.db.sql, input, { events })
  assert.ok(recorded.ok)
  const { fill } = recorded
  assert.deepEqual(seen, [
    {
      type: 'fill.recorded',
      visibility: 'public',
      fill: { id: fill.id, txHash: fill.txHash, rfqId: 'rfq-ev', improvementBps: 0, takerPoints: 5, makerPoints: 10 },
    },
  ])
  // a duplicate is an outcome with a code, not an HTTP error: the surface decides 409 and the text
  assert.deepEqual(await recordFill(t.db.sql, input, { events }), { ok: false, code: 'DUPLICATE_FILL' })
  assert.equal(seen.length, 1)
  const again = await post(t.api, '/api/v1/fills', fillBody({ rfqId: 'rfq-ev', txHash: input.txHash }))
  assert.deepEqual([again.status, again.body.error, again.body.code], [409, DUPLICATE_FILL, 'DUPLICATE_FILL'])
})

test('inside a caller transaction: a duplicate is refused without aborting it; the caller rolls back its own writes', async () => {
  const id = 'rfq-agent-fill'
  await t.db
    .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility) values (${id}, ${addr(1)}, ${TOKEN_A}, ${TOKEN_B}, 0, 1, 0, 'public')`
  const input = toInput(fillBody({ rfqId: id }))
  await recordFill(t.db.sql, input)
  await assert.rejects(
    t.db.sql.begin(async tx => {
      await tx`update rfqs set status = 'FILLED', fill_tx_hash = ${input.txHash} where id = ${id}`
      const again = await recordFill(tx, input)
      assert.deepEqual(again, { ok: false, code: 'DUPLICATE_FILL' })
      await tx`select 1` // the transaction is still usable after the refusal
      throw new Error('roll back')
    }),
    /roll back/,
  )
  const [r] = await t.db.sql`select status from rfqs where id = ${id}`
  assert.equal(r!.status, 'OPEN')
})

function toInput(b: Record<string, unknown>): FillInput {
  return {
    txHash: b.txHash as `0x${string}`,
    taker: b.taker as `0x${string}`,
    maker: b.maker as `0x${string}`,
    tokenIn: b.tokenIn as `0x${string}`,
    tokenOut: b.tokenOut as `0x${string}`,
    amountIn: BigInt(b.amountIn as string),
    amountOut: BigInt(b.amountOut as string),
    amountInUsd: b.amountInUsd as number,
    visibility: 'public',
    rfqId: (b.rfqId as string | undefined) ?? null,
  }
}

test('USD amounts are capped (400 beyond 1e12) and the league rollups sum them as exact numerics', async () => {
  const over = await post(t.api, '/api/v1/fills', fillBody({ amountInUsd: 1.7e308 }))
  assert.deepEqual([over.status, over.body.error], [400, 'amountInUsd must be at most 1000000000000 (USD)'])
  const maker = addr(0x9911)
  for (let i = 0; i < 2; i++)
    assert.equal((await post(t.api, '/api/v1/fills', fillBody({ maker, amountInUsd: 1e12 - 0.5 }))).status, 200)
  const [roll] = await t.db
    .sql`select notional_usd::text as n, pg_typeof(notional_usd)::text as type from league_totals where address = ${maker} and role = 'maker'`
  assert.deepEqual({ ...roll }, { n: '1999999999999.0', type: 'numeric' })
  assert.equal((await fetch(`${t.api}/api/v1/league?period=all`)).status, 200)
  assert.equal((await fetch(`${t.api}/api/v1/rfq/performance-summary?window=30d`)).status, 200)
})
