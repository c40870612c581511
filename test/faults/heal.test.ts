// The stored status heals: a real engine process on a real PostgreSQL the test stops and starts. An RFQ that
// expires while the database is down ends at once for every reader; its end is stored (EXPIRED, by the engine: the
// venue could not record a fill then) once the database returns, by the same process, with no restart, and long
// before the TTL cleanup (RFQ_TTL_SECS 60) could have done it. A cancel during the outage is refused and harms
// nothing. The maker judged on no engine's end; a second writer of the same end (another node) changes nothing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { startEmbeddedPostgres, freePort } from '../../engine/store/embedded.js'
import { connect } from '../../engine/store/db.js'
import { storeEnds } from '../../engine/store/rfqs.js'
import { spawnEngine } from './process.js'
import { get, newAgent, post } from '../api/agentKit.js'
import { createAgentRfq } from '../api/agentRfq.js'
import { Client, account, makeQuote, sign, ZERO } from '../relay/helpers.js'

const domain = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }
const hex = (n: number) => `0x${randomBytes(n).toString('hex')}`
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

test(
  'an RFQ that expires while PostgreSQL is down has its end stored once it returns, by the same process',
  { timeout: 120_000 },
  async () => {
    const pgDir = mkdtempSync(join(tmpdir(), 'pg-')),
      dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    const port = await freePort()
    let server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
    const url = await server.database('rfq')
    const engine = await spawnEngine({
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      RATE_LIMIT_PER_MIN: '100000',
    })
    let sql: ReturnType<typeof postgres> | undefined
    try {
      const taker = await newAgent(engine.api, ['taker'])
      const make = async (ttlSeconds: number) => {
        return createAgentRfq(engine.api, taker, { ttlSeconds })
      }
      const soon = await make(10),
        later = await make(300)
      const maker = account()
      const c = await Client.open(engine.relayWs)
      const q = makeQuote(maker, soon)
      c.send('QUOTE_SUBMIT', { rfqId: soon.id, quote: q, signature: await sign(maker, domain, q) })
      await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === soon.id)
      await c.close()
      const fill = await post(engine.api, '/api/v1/fills', {
        txHash: hex(32),
        taker: hex(20),
        maker: maker.address.toLowerCase(),
        tokenIn: hex(20),
        tokenOut: hex(20),
        amountIn: '1',
        amountOut: '2',
        amountInUsd: 1000,
      })
      assert.equal(fill.status, 200, 'the maker has a fill, so the league lists it')

      await server.stop()
      const cancel = await post(engine.api, `/api/v1/rfqs/${later.id}/cancel`, {}, taker.headers)
      assert.equal(
        cancel.status,
        503,
        'a cancel is durable before it is acknowledged: refused while the database is down',
      )
      while (Date.now() < soon.expiry * 1000 + 1500) await sleep(100)
      const listed = ((await (await fetch(`${engine.relay}/rfqs`)).json()) as { rfqs: { id: string }[] }).rfqs.map(
        r => r.id,
      )
      assert.ok(
        !listed.includes(soon.id) && listed.includes(later.id),
        "ended for the relay's readers at its expiry, during the outage",
      )

      server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
      sql = postgres(url, { max: 3, onnotice: () => {} })
      const row = async (id: string) => (await sql!`select status, ended_at, ended_by from rfqs where id = ${id}`)[0]!
      const deadline = Date.now() + 20_000
      while (
        (await row(soon.id).catch(() => ({ status: 'unreadable' /* the store is still down */ }))).status !==
          'EXPIRED' &&
        Date.now() < deadline
      )
        await sleep(100)
      const healed = await row(soon.id)
      assert.deepEqual(
        [healed.status, healed.ended_by, healed.ended_at?.toISOString()],
        ['EXPIRED', 'engine', new Date(soon.expiry * 1000).toISOString()],
        'stored by the engine, at its own expiry',
      )
      assert.equal(engine.child.exitCode, null, 'the same process healed it: no restart')
      assert.deepEqual(
        { ...(await row(later.id)) },
        { status: 'OPEN', ended_at: null, ended_by: null },
        'the refused cancel changed nothing',
      )
      assert.match(await (await fetch(`${engine.api}/metrics`)).text(), /^rfq_ends_healed_total 1$/m)

      // another node that also held it offers the same end: the store has it already, so nothing changes
      const other = connect(url, { max: 2 })
      const again = await Promise.all([
        storeEnds(other, [{ rfqId: soon.id, at: new Date() }]),
        storeEnds(other, [{ rfqId: soon.id, at: new Date() }]),
      ])
      await other.end()
      assert.deepEqual(again, [0, 0])
      assert.equal((await row(soon.id)).ended_at?.toISOString(), new Date(soon.expiry * 1000).toISOString())

      const league = await get(
        engine.api,
        `/api/v1/league?role=maker&period=all&search=${maker.address.toLowerCase().slice(2)}`,
      )
      assert.deepEqual(
        league.body.entries.map((e: { cancelRate: number; reliability: number }) => [e.cancelRate, e.reliability]),
        [[0, 1.1]],
        'an end the venue could not serve is not held against the maker',
      )
      assert.equal(
        (await post(engine.api, `/api/v1/rfqs/${later.id}/cancel`, {}, taker.headers)).status,
        200,
        'the RFQ the refused cancel left live is cancelled now',
      )
      assert.equal(await engine.term(), 0)
    } finally {
      engine.child.kill('SIGKILL')
      await sql?.end()
      await server.stop().catch(() => {}) // stopped already if the test got that far
      rmSync(pgDir, { recursive: true, force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
)
