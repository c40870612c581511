// PostgreSQL stopped and started under load, with a real engine process on a real server the test
// controls: while it is down every database-backed answer is 503 with Retry-After within 5 s (never a
// 500, never a hang), health says degraded, a relay quote gets ERROR UNAVAILABLE; when it returns the
// same process serves again, nothing acknowledged was lost, and SIGTERM still exits 0. The engine runs as a
// real deployment runs it: a node of a venue (a second node beside it, on a nats-server with TLS and an nkey per
// node), and the second node heals too.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { startEmbeddedPostgres, freePort } from '../../engine/store/embedded.js'
import { VERSION } from '../../engine/version.js'
import { spawnEngine } from './process.js'
import { startSecureNats } from '../cluster/secureNats.js'
import { newAgent, post } from '../api/agentKit.js'
import { Client, account, makeQuote, sign, waitFor, ZERO } from '../relay/helpers.js'
import type { Rfq } from '../../actors/rfqTypes.js'

const domain = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }
const hex = (n: number) => `0x${randomBytes(n).toString('hex')}`

interface Outcome {
  kind: 'read' | 'fill'
  status: number
  ms: number
  retryAfter: string | null
  txHash?: string
  at: number
}

test('PostgreSQL stopped and started under load', { timeout: 120_000 }, async () => {
  const pgDir = mkdtempSync(join(tmpdir(), 'pg-')),
    dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
  const port = await freePort()
  let server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
  const url = await server.database('rfq')
  const nats = await startSecureNats(['o1', 'o2'])
  const common = { DATABASE_URL: url, PUBLIC_RATE_LIMIT_PER_MIN: '1000000', RATE_LIMIT_PER_MIN: '100000' }
  const engine = await spawnEngine({ ...common, ...nats.env('o1'), DATA_DIR: dataDir })
  const other = await spawnEngine({ ...common, ...nats.env('o2'), DATA_DIR: mkdtempSync(join(tmpdir(), 'engine-')) })
  try {
    const agent = await newAgent(engine.api, ['taker'])
    const created = await post(
      engine.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
      agent.headers,
    )
    assert.equal(created.status, 201)
    const detail = (await (await fetch(`${engine.api}/api/v1/rfqs/${created.body.rfqId}`)).json()) as any
    const rfq = {
      id: created.body.rfqId,
      taker: detail.rfq.taker,
      tokenIn: detail.rfq.tokenIn.address,
      tokenOut: detail.rfq.tokenOut.address,
      expiry: detail.rfq.expiry,
    } as Rfq

    // load: reads and fills, each timed
    const outcomes: Outcome[] = []
    let loading = true
    const one = async (kind: 'read' | 'fill') => {
      const t0 = Date.now()
      const txHash = hex(32)
      const res =
        kind === 'read'
          ? await fetch(`${engine.api}/api/v1/rfqs?limit=5`)
          : await fetch(`${engine.api}/api/v1/fills`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                txHash,
                taker: hex(20),
                maker: hex(20),
                tokenIn: hex(20),
                tokenOut: hex(20),
                amountIn: '1',
                amountOut: '2',
                amountInUsd: 1,
              }),
            })
      await res.arrayBuffer()
      outcomes.push({
        kind,
        status: res.status,
        ms: Date.now() - t0,
        retryAfter: res.headers.get('retry-after'),
        txHash: kind === 'fill' ? txHash : undefined,
        at: t0,
      })
    }
    const loops = [0, 1, 2, 3].map(async i => {
      while (loading) {
        await one(i % 2 ? 'fill' : 'read')
        await new Promise(r => setTimeout(r, 40))
      }
    })

    await new Promise(r => setTimeout(r, 800))
    const downAt = Date.now()
    await server.stop()
    await new Promise(r => setTimeout(r, 2500))
    const health = await fetch(`${engine.api}/health`)
    assert.equal(health.status, 503)
    assert.deepEqual(await health.json(), {
      status: 'degraded',
      database: 'down',
      error: 'Database unavailable',
      version: VERSION,
    })
    const relayHealth = await fetch(`${engine.relay}/health`)
    assert.equal(relayHealth.status, 503)
    assert.equal(((await relayHealth.json()) as { status: string }).status, 'degraded')
    const c = await Client.open(engine.relayWs)
    const maker = account(),
      q = makeQuote(maker, rfq)
    c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature: await sign(maker, domain, q) })
    const err = await c.nextOf('ERROR', 10_000)
    assert.equal(err.data.code, 'UNAVAILABLE')
    await c.close()
    await new Promise(r => setTimeout(r, 500))

    server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
    const upAt = Date.now()
    let healed = 0
    while (Date.now() - upAt < 20_000) {
      const r = await fetch(`${engine.api}/api/v1/rfqs?limit=1`)
      await r.arrayBuffer()
      if (r.status === 200) {
        healed = Date.now() - upAt
        break
      }
      await new Promise(r => setTimeout(r, 100))
    }
    await new Promise(r => setTimeout(r, 500))
    loading = false
    await Promise.all(loops)
    assert.ok(healed > 0, 'the same process serves again once the database is back')
    // the other node heals by itself too, and still hears the first one's word
    await waitFor(
      async () => (await fetch(`${other.api}/api/v1/rfqs?limit=1`)).status,
      s => s === 200,
      20_000,
    )
    const later = await post(
      engine.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
      agent.headers,
    )
    assert.equal(later.status, 201)
    await waitFor(
      async () =>
        ((await (await fetch(`${other.relay}/rfqs`)).json()) as { rfqs: { id: string }[] }).rfqs.some(
          r => r.id === later.body.rfqId,
        ),
      ok => ok,
      5000,
    )

    const during = outcomes.filter(o => o.at >= downAt && o.at < upAt)
    assert.ok(during.length > 10, `requests during the outage: ${during.length}`)
    assert.deepEqual(
      outcomes.filter(o => o.status >= 500 && o.status !== 503),
      [],
      'never a 500',
    )
    assert.ok(
      during.every(o => (o.status === 503 ? o.retryAfter !== null : true)),
      'every 503 carries Retry-After',
    )
    assert.deepEqual(
      outcomes.filter(o => o.ms >= 5000).map(o => `${o.kind} ${o.status} ${o.ms} ms at +${o.at - downAt} ms`),
      [],
      'every answer within 5 s',
    )
    assert.ok(during.some(o => o.status === 503))

    const acknowledged = outcomes.filter(o => o.kind === 'fill' && o.status === 200).map(o => o.txHash!)
    const sql = postgres(url, { max: 1, onnotice: () => {} })
    const stored = new Set((await sql`select tx_hash from fills`).map(r => r.tx_hash as string))
    await sql.end()
    assert.deepEqual(
      acknowledged.filter(h => !stored.has(h)),
      [],
      'every acknowledged fill is stored',
    )
    assert.equal(await engine.term(), 0, 'shutdown after a database restart exits 0')
    assert.equal(await other.term(), 0)
    const s503 = during.filter(o => o.status === 503)
    console.log(
      `outage figures: ${outcomes.length} requests, ${during.length} during the outage (${s503.length} answered 503, slowest ${Math.max(...during.map(o => o.ms))} ms), ` +
        `${acknowledged.length} fills acknowledged and all stored, healed ${healed} ms after the database returned`,
    )
  } finally {
    engine.child.kill('SIGKILL')
    other.child.kill('SIGKILL')
    await nats.close()
    await server.stop().catch(() => {}) // stopped already if the test got that far
    rmSync(pgDir, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  }
})
