// The time windows (tape ts, 24 h trade counts per expiry, 1-hour volume) on the shipped recording
// replayed with INGEST_REPLAY_REBASE: every venue timestamp moves so the newest trade is "now".
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { runReplay } from '../../engine/ingest/sources/replay.js'
import { createLogger } from '../../engine/log.js'
import { SAMPLE, NEWEST, get, close } from './fixture.js'

let t: TestEngine
let now: number
before(async () => {
  t = await startTestEngine()
  now = Date.now()
  const r = await runReplay({ sql: t.db.sql, log: createLogger('silent'), file: SAMPLE, rebase: true, now })
  assert.equal(r.shiftMs, now - NEWEST)
})
after(async () => {
  await t?.stop()
})

test('rebased: the newest trade is stamped now, the rest keep their spacing; expiries do not move', async () => {
  const r = await get(t.terminal, '/options/tape?limit=1&offset=7')
  assert.equal(r.body.trades[0].trade_ref, '330000001')
  assert.equal(r.body.trades[0].ts, new Date(now - 240_000).toISOString())
  assert.equal(r.body.trades[0].expiry, '2024-12-27T08:00:00.000Z')
  const top = await get(t.terminal, '/options/tape?limit=1')
  assert.equal(top.body.trades[0].ts, new Date(now).toISOString())
})

test('venues: tradeCount24h counts the last 24 hours per expiry', async () => {
  const r = await get(t.terminal, '/options/venues?underlying=BTC')
  assert.deepEqual(
    r.body.expiries.map((e: any) => [e.expiry, e.tradeCount24h]),
    [
      ['2024-12-27T08:00:00.000Z', 5],
      ['2025-03-28T08:00:00.000Z', 1],
    ],
  )
  const eth = await get(t.terminal, '/options/venues?underlying=ETH')
  assert.deepEqual(
    eth.body.expiries.map((e: any) => [e.instruments, e.calls, e.puts, e.tradeCount24h, e.spot]),
    [[2, 1, 1, 2, 3481]],
  )
})

test('strike detail: volume1h and tradeCount1h sum the last hour of trades', async () => {
  const r = await get(t.terminal, '/options/strike-detail?underlying=BTC&expiry=20241227&strike=100000&isCall=true')
  assert.equal(r.body.tradeCount1h, 2)
  assert.ok(close(r.body.volume1h, 1.5 + 0.3), String(r.body.volume1h))
  const quiet = await get(t.terminal, '/options/strike-detail?underlying=BTC&expiry=20241227&strike=95000&isCall=true')
  assert.equal(quiet.body.instrument, 'BTC-20241227-95000-C')
  assert.deepEqual([quiet.body.volume1h, quiet.body.tradeCount1h, quiet.body.lastTrade], [0, 0, null])
})
