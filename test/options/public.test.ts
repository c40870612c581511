// API_KEY unset: everything is public, and a bearer header changes nothing.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { get } from './fixture.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine()
})
after(async () => {
  await t?.stop()
})

test('without API_KEY every options path answers without credentials', async () => {
  for (const path of [
    '/options/tape',
    '/options/ladder?underlying=BTC&expiry=20241227',
    '/options/venues?underlying=BTC',
    '/options/strike-detail?underlying=BTC&expiry=20241227&strike=100000&isCall=true',
    '/health',
  ]) {
    assert.equal((await get(t.terminal, path)).status, 200, path)
    assert.equal((await get(t.terminal, path, { authorization: 'Bearer anything' })).status, 200, path)
  }
  assert.deepEqual((await get(t.terminal, '/options/tape')).body, { trades: [], count: 0 })
})
