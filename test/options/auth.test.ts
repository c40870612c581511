// API_KEY set: every options path but /health needs `Authorization: Bearer <API_KEY>`; 401 {error} otherwise.
// The scheme is case-insensitive (RFC 7235); wrong keys are throttled per address like agent keys.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { get } from './fixture.js'

let t: TestEngine
// this suite sends many wrong keys on purpose: the throttle has its own engine below
before(async () => {
  t = await startTestEngine({ API_KEY: 'k', AUTH_FAILURES_PER_MIN: '1000' })
})
after(async () => {
  await t?.stop()
})

const PATHS = [
  '/options/tape',
  '/options/ladder?underlying=BTC&expiry=20241227',
  '/options/venues?underlying=BTC',
  '/options/strike-detail?underlying=BTC&expiry=20241227&strike=100000&isCall=true',
]

test('no, wrong or malformed credentials are 401 with {error} on every options path', async () => {
  for (const path of PATHS) {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer wrong' },
      { authorization: 'Bearer kk' },
      { authorization: 'k' },
      { authorization: 'Basic k' },
      { authorization: 'Bearer ' },
    ]) {
      const r = await get(t.terminal, path, headers)
      assert.equal(r.status, 401, `${path} ${JSON.stringify(headers)}`)
      assert.deepEqual(r.body, { error: 'Unauthorized' })
    }
  }
})

test('the right key opens every path', async () => {
  for (const path of PATHS) assert.equal((await get(t.terminal, path, { authorization: 'Bearer k' })).status, 200, path)
})

test('the Bearer scheme is matched case-insensitively (RFC 7235); the key itself is not', async () => {
  for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
    assert.equal((await get(t.terminal, '/options/tape', { authorization: `${scheme} k` })).status, 200, scheme)
  }
  assert.equal((await get(t.terminal, '/options/tape', { authorization: 'Bearer   k' })).status, 200, 'several spaces')
  assert.equal((await get(t.terminal, '/options/tape', { authorization: 'Bearer K' })).status, 401)
  assert.equal((await get(t.terminal, '/options/tape', { authorization: 'Bearerk' })).status, 401)
})

test('wrong keys are throttled per address (AUTH_FAILURES_PER_MIN): past the limit even the right key waits; no header is not a guess', async () => {
  const k = await startTestEngine({ API_KEY: 'k', AUTH_FAILURES_PER_MIN: '3' })
  try {
    for (let i = 0; i < 5; i++)
      assert.equal((await get(k.terminal, '/options/tape')).status, 401, 'no header: not counted')
    assert.equal((await get(k.terminal, '/options/tape', { authorization: 'Bearer k' })).status, 200)
    const statuses: number[] = []
    for (const key of ['a', 'b', 'c', 'd'])
      statuses.push((await get(k.terminal, '/options/tape', { authorization: `Bearer ${key}` })).status)
    assert.deepEqual(statuses, [401, 401, 401, 429])
    const blocked = await get(k.terminal, '/options/tape', { authorization: 'Bearer k' })
    assert.equal(blocked.status, 429, 'a guesser cannot tell the right key from a wrong one while blocked')
    assert.deepEqual(blocked.body, {
      error: 'Too many failed authentications from this address; retry later',
      code: 'AUTH_FAILURES',
    })
    assert.ok(Number(blocked.headers.get('retry-after')) >= 1)
    assert.equal((await get(k.terminal, '/health')).status, 200, '/health needs no key and is never blocked')
  } finally {
    await k.stop()
  }
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
