// The engine as a whole, over real HTTP on loopback against a real PostgreSQL.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { testDatabase } from '../helpers/db.js'
import { repoRoot } from '../../engine/paths.js'
import { ok } from '../../engine/front/request.js'

// node --test marks its children with NODE_TEST_CONTEXT; a grandchild that inherits it behaves as a test file.
const { NODE_TEST_CONTEXT: _, ...baseEnv } = process.env

let t: TestEngine

before(async () => {
  t = await startTestEngine({ PUBLIC_RATE_LIMIT_PER_MIN: '5', BODY_LIMIT_BYTES: '1024' })
  t.engine.ctx.surfaces.api.post('/test/echo', req => ok({ got: req.body }))
})
after(() => t.stop())

test('each surface answers its health route', async () => {
  const terminal = await fetch(`${t.terminal}/health`)
  assert.equal(terminal.status, 200)
  assert.deepEqual(await terminal.json(), { status: 'ok' })
  const api = await fetch(`${t.api}/api/v1/health`)
  assert.equal(api.status, 200)
  assert.equal(((await api.json()) as any).status, 'ok')
  const relay = await fetch(`${t.relay}/health`)
  assert.notEqual(relay.status, 500)
})

test('unknown path is 404 with an error body; wrong method is 405 with Allow', async () => {
  const nf = await fetch(`${t.terminal}/nope`)
  assert.equal(nf.status, 404)
  assert.deepEqual(await nf.json(), { error: 'Not found' })
  const wrong = await fetch(`${t.terminal}/health`, { method: 'POST', body: '{}' })
  assert.equal(wrong.status, 405)
  assert.equal(wrong.headers.get('allow'), 'GET')
  assert.equal(typeof ((await wrong.json()) as any).error, 'string')
})

test('malformed JSON is 400 Invalid JSON body; a body over the cap is 413', async () => {
  const bad = await fetch(`${t.api}/test/echo`, {
    method: 'POST',
    body: '{"a":',
    headers: { 'content-type': 'application/json' },
  })
  assert.equal(bad.status, 400)
  assert.deepEqual(await bad.json(), { error: 'Invalid JSON body' })
  const good = await fetch(`${t.api}/test/echo`, { method: 'POST', body: '{"a":[1,2]}' })
  assert.deepEqual(await good.json(), { got: { a: [1, 2] } })
  const big = await fetch(`${t.api}/test/echo`, { method: 'POST', body: JSON.stringify({ x: 'y'.repeat(2000) }) })
  assert.equal(big.status, 413)
})

test('CORS preflight is answered for browser clients', async () => {
  const r = await fetch(`${t.api}/test/echo`, {
    method: 'OPTIONS',
    headers: { origin: 'http://example.test', 'access-control-request-method': 'POST' },
  })
  assert.equal(r.status, 204)
  assert.equal(r.headers.get('access-control-allow-origin'), '*')
})

test('the public limiter answers 429 with Retry-After in seconds', async () => {
  const statuses: number[] = []
  let retryAfter: string | null = null
  for (let i = 0; i < 8; i++) {
    const r = await fetch(`${t.api}/test/echo`, { method: 'POST', body: '{}' })
    statuses.push(r.status)
    if (r.status === 429) {
      retryAfter = r.headers.get('retry-after')
      assert.equal(((await r.json()) as any).error, 'Rate limit exceeded')
    } else await r.arrayBuffer()
  }
  assert.ok(statuses.includes(429), `statuses ${statuses.join(' ')}`)
  assert.ok(retryAfter && Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `retry-after ${retryAfter}`)
  // health is for probes and stays reachable
  assert.equal((await fetch(`${t.api}/health`)).status, 200)
})

test('metrics are exposed in Prometheus text format', async () => {
  const r = await fetch(`${t.api}/metrics`)
  assert.equal(r.status, 200)
  const text = await r.text()
  assert.match(text, /http_requests_total\{surface="terminal",route="\/health",method="GET",status="200"\} \d+/)
  assert.match(text, /actor_mailbox_depth \d+/)
})

test('SIGTERM stops the process with exit code 0', async () => {
  const db = await testDatabase('sig')
  const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/main.js')], {
    // a data directory of its own: a `make run` in this checkout holds .data's lock
    env: {
      ...baseEnv,
      API_PORT: '0',
      TERMINAL_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'warn',
      POOL_THREADS: '1',
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', c => {
    out += c
  })
  child.stderr.on('data', c => {
    out += c
  })
  await new Promise<void>((resolve, reject) => {
    const iv = setInterval(() => {
      if (/relay .*ws:\/\//.test(out)) {
        clearInterval(iv)
        resolve()
      }
    }, 20)
    child.once('exit', code => {
      clearInterval(iv)
      reject(new Error(`exited early ${code}: ${out}`))
    })
  })
  const port = /terminal \(options data\)\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1]
  assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 200)
  child.kill('SIGTERM')
  const code = await new Promise(resolve => child.once('exit', c => resolve(c)))
  assert.equal(code, 0, out)
  await db.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

test('a bad config value stops the start naming the variable', async () => {
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/main.js')], {
    env: { ...baseEnv, API_PORT: 'eighty' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr.on('data', c => {
    err += c
  })
  const code = await new Promise(resolve => child.once('exit', c => resolve(c)))
  assert.equal(code, 2)
  assert.match(err, /API_PORT/)
})
