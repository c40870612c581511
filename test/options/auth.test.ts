// API_KEY set: every options path but /health needs `Authorization: Bearer <API_KEY>`; 401 {error} otherwise.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { get } from './fixture.js'

let t: TestEngine
before(async () => { t = await startTestEngine({ API_KEY: 'k' }) })
after(async () => { await t?.stop() })

const PATHS = ['/options/tape', '/options/ladder?underlying=BTC&expiry=20241227', '/options/venues?underlying=BTC',
  '/options/strike-detail?underlying=BTC&expiry=20241227&strike=100000&isCall=true']

test('no, wrong or malformed credentials are 401 with {error} on every options path', async () => {
  for (const path of PATHS) {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong' }, { authorization: 'Bearer kk' }, { authorization: 'k' }, { authorization: 'Basic k' }, { authorization: 'Bearer ' }]) {
      const r = await get(t.terminal, path, headers)
      assert.equal(r.status, 401, `${path} ${JSON.stringify(headers)}`)
      assert.deepEqual(r.body, { error: 'Unauthorized' })
    }
  }
})

test('the right key opens every path', async () => {
  for (const path of PATHS) assert.equal((await get(t.terminal, path, { authorization: 'Bearer k' })).status, 200, path)
})

test('the key is checked before the parameters', async () => {
  assert.equal((await get(t.terminal, '/options/ladder')).status, 401)
  assert.equal((await get(t.terminal, '/options/ladder', { authorization: 'Bearer k' })).status, 400)
})

test('/health needs no key', async () => {
  const r = await get(t.terminal, '/health')
  assert.equal(r.status, 200)
  assert.deepEqual(r.body, { status: 'ok' })
})
