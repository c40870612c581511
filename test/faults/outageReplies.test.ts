// What a client hears while PostgreSQL is down, on the two paths that once answered wrongly: a REST quote
// (POST /api/v1/quotes) is a 503 with Retry-After and the API's outage text, as on every other API route (it was a
// 400 carrying the relay's text), and a relay CANCEL_REQUEST is ERROR UNAVAILABLE saying the cancel could not be
// stored (it said the quote could not). A real engine process on a real PostgreSQL the test stops and starts;
// neither refusal harms the RFQ, and both verbs work once the database is back.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmbeddedPostgres, freePort } from '../../engine/store/embedded.js'
import { spawnEngine } from './process.js'
import { get, newAgent, post } from '../api/agentKit.js'
import { Client, account, makeQuote, sign, waitFor, ZERO } from '../relay/helpers.js'
import type { Rfq } from '../../actors/rfqTypes.js'

const domain = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }

test(
  'during a database outage a REST quote is 503 and a relay cancel is UNAVAILABLE, each with its own text',
  { timeout: 120_000 },
  async () => {
    const pgDir = mkdtempSync(join(tmpdir(), 'pg-'))
    const port = await freePort()
    let server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
    const url = await server.database('rfq')
    const engine = await spawnEngine({
      DATABASE_URL: url,
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      RATE_LIMIT_PER_MIN: '100000',
    })
    try {
      const taker = await newAgent(engine.api, ['taker'])
      const make = async () => {
        const r = await post(
          engine.api,
          '/api/v1/agent/rfqs',
          { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
          taker.headers,
        )
        assert.equal(r.status, 201)
        const d = (await get(engine.api, `/api/v1/rfqs/${r.body.rfqId}`)).body
        return {
          id: r.body.rfqId,
          taker: d.rfq.taker,
          tokenIn: d.rfq.tokenIn.address,
          tokenOut: d.rfq.tokenOut.address,
          expiry: d.rfq.expiry,
        } as Rfq
      }
      const quoted = await make(),
        cancelled = await make()
      const maker = account()
      const q = makeQuote(maker, quoted)
      const body = { rfqId: quoted.id, quote: q, signature: await sign(maker, domain, q) }

      await server.stop()
      const rest = await post(engine.api, '/api/v1/quotes', body)
      assert.equal(rest.status, 503)
      assert.deepEqual(rest.body, {
        error: 'Service unavailable: the database is unreachable; retry shortly',
        code: 'UNAVAILABLE',
      })
      assert.ok(Number(rest.headers.get('retry-after')) >= 1, 'Retry-After says when to try again')

      const c = await Client.open(engine.relayWs)
      c.send('CANCEL_REQUEST', { rfqId: cancelled.id })
      const err = await c.nextOf('ERROR', 10_000)
      assert.deepEqual(err.data, {
        code: 'UNAVAILABLE',
        rfqId: cancelled.id,
        message: 'Service unavailable: the cancel could not be stored right now; retry shortly',
      })

      server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
      const deadline = Date.now() + 20_000
      let again = await post(engine.api, '/api/v1/quotes', body)
      while (again.status === 503 && Date.now() < deadline) {
        await new Promise(r => setTimeout(r, 200))
        again = await post(engine.api, '/api/v1/quotes', body)
      }
      assert.equal(
        again.status,
        200,
        'the refused quote harmed nothing: the same quote is taken once the database is back',
      )
      const live = ((await (await fetch(`${engine.relay}/rfqs`)).json()) as { rfqs: { id: string }[] }).rfqs.map(
        r => r.id,
      )
      assert.ok(live.includes(cancelled.id), 'the refused cancel left the RFQ live')
      c.send('CANCEL_REQUEST', { rfqId: cancelled.id }) // success sends no reply (spec)
      await waitFor(
        async () => (await get(engine.api, `/api/v1/rfqs/${cancelled.id}`)).body.status,
        s => s === 'CANCELLED',
        10_000,
      )
      assert.deepEqual(c.of('ERROR').length, 1, 'the second cancel was not refused')
      await c.close()
      assert.equal(await engine.term(), 0)
    } finally {
      engine.child.kill('SIGKILL')
      await server.stop().catch(() => {})
      rmSync(pgDir, { recursive: true, force: true })
    }
  },
)
