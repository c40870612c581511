// GET /options/underlyings: each underlying of the replayed recording with its trade count and last trade
// time, checked against the tape read through its own path.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { createLogger } from '../../engine/log.js'
import { runReplay } from '../../engine/ingest/sources/replay.js'
import { SAMPLE, get } from './fixture.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine()
})
after(async () => {
  await t?.stop()
})

test('empty before any trade; then every underlying with its count and last trade time, by name', async () => {
  assert.deepEqual((await get(t.terminal, '/options/underlyings')).body, { underlyings: [] })
  await runReplay({ sql: t.db.sql, log: createLogger('silent'), file: SAMPLE })
  const tape = (await get(t.terminal, '/options/tape?limit=500')).body.trades as { underlying: string; ts: string }[]
  const expected = [...new Set(tape.map(x => x.underlying))].sort().map(u => ({
    underlying: u,
    tradeCount: tape.filter(x => x.underlying === u).length,
    lastTradeAt: tape
      .filter(x => x.underlying === u)
      .map(x => x.ts)
      .sort()
      .at(-1),
  }))
  assert.ok(expected.length >= 2)
  const r = await get(t.terminal, '/options/underlyings')
  assert.equal(r.status, 200)
  assert.deepEqual(
    r.body.underlyings.map((x: { lastTradeAt: string }) => ({
      ...x,
      lastTradeAt: new Date(x.lastTradeAt).toISOString(),
    })),
    expected.map(x => ({ ...x, lastTradeAt: new Date(x.lastTradeAt!).toISOString() })),
  )
})

test('with API_KEY set it needs the key like every other terminal path', async () => {
  const k = await startTestEngine({ API_KEY: 'secret' })
  try {
    assert.equal((await get(k.terminal, '/options/underlyings')).status, 401)
    assert.equal((await get(k.terminal, '/options/underlyings', { authorization: 'Bearer secret' })).status, 200)
  } finally {
    await k.stop()
  }
})
