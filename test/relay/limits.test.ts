// Rate limit per IP on every message type (PING included), and the relay's own keepalive: idle
// clients get a PING, and a client that stops answering is closed.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { loadConfig } from '../../engine/config.js'
import { Client } from './helpers.js'

let t: TestEngine
const clients: Client[] = []
const open = async () => {
  const c = await Client.open(t.relayWs)
  clients.push(c)
  return c
}

before(async () => {
  t = await startTestEngine({ RATE_LIMIT_PER_MIN: '5', RELAY_PING_INTERVAL_MS: '300' })
})
after(async () => {
  await Promise.all(clients.map(c => c.close()))
  await t.stop()
})

test('RATE_LIMIT_PER_MIN defaults to 30', () => {
  assert.equal(loadConfig({}).RATE_LIMIT_PER_MIN, 30)
})

test('past N messages a minute per IP (PING counts, across sockets): one ERROR, then dropped until the window resets', async () => {
  const a = await open(),
    b = await open()
  for (let i = 0; i < 3; i++) a.send('PING', {})
  for (let i = 0; i < 2; i++) b.send('PING', {})
  for (let i = 0; i < 3; i++) await a.nextOf('PONG')
  for (let i = 0; i < 2; i++) await b.nextOf('PONG')
  a.send('PING', {})
  assert.deepEqual((await a.nextOf('ERROR')).data, {
    message: 'Rate limit exceeded (max 5 msg/min)',
    code: 'RATE_LIMITED',
  })
  a.send('PING', {})
  a.send('HELLO', {})
  await new Promise(r => setTimeout(r, 150))
  assert.equal(a.of('PONG').length, 3)
  assert.equal(a.of('ERROR').length, 1, 'dropped silently after the first refusal')
})

test('an idle client is pinged; one that never answers is closed, one that answers PONG stays', async () => {
  const silent = await open(),
    polite = await open()
  polite.ws.on('message', raw => {
    if (JSON.parse((raw as Buffer).toString()).type === 'PING')
      polite.ws.send(JSON.stringify({ type: 'PONG', data: {} }))
  })
  assert.deepEqual(await silent.nextOf('PING', 3000), { type: 'PING', data: {} })
  const code = await silent.closed
  assert.equal(code, 4000)
  assert.equal(polite.closeCode, null)
  assert.ok(polite.of('PING').length >= 1)
})
