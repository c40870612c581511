// The heal on a cluster: two engine processes on one nats-server and a real PostgreSQL the test stops and starts.
// Both nodes hold the RFQ (one created it, the other holds its replica and took its quote); it expires while the
// database is down, so both fail to store its end and both keep it. When the database returns each offers it again,
// with no restart: the store takes the first and the second finds it stored, so the RFQ is EXPIRED once, by the
// engine, at its own expiry, and its maker is judged on nothing.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { startEmbeddedPostgres, freePort } from '../../engine/store/embedded.js'
import { startSecureNats } from './secureNats.js'
import { spawnEngine, type EngineProc } from '../faults/process.js'
import { get, newAgent } from '../api/agentKit.js'
import { createAgentRfq } from '../api/agentRfq.js'
import { Client, account, makeQuote, sign, waitFor, ZERO } from '../relay/helpers.js'

const domain = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const metric = async (n: EngineProc, name: string) =>
  Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(await (await fetch(`${n.api}/metrics`)).text())?.[1])

test(
  'nodes that all held an RFQ which expired during an outage store its end once when the database returns',
  { timeout: 120_000 },
  async () => {
    const pgDir = mkdtempSync(join(tmpdir(), 'pg-'))
    const port = await freePort()
    let server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
    const url = await server.database('rfq')
    const nats = await startSecureNats(['h1', 'h2'])
    const dirs: string[] = []
    const nodes: EngineProc[] = []
    let sql: ReturnType<typeof postgres> | undefined
    try {
      for (const id of ['h1', 'h2']) {
        const dir = mkdtempSync(join(tmpdir(), `heal-${id}-`))
        dirs.push(dir)
        nodes.push(
          await spawnEngine({
            DATA_DIR: dir,
            DATABASE_URL: url,
            ...nats.env(id),
            FILL_VERIFY: 'off',
            PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
            RATE_LIMIT_PER_MIN: '100000',
          }),
        )
      }
      const [a, b] = nodes as [EngineProc, EngineProc]
      for (const n of nodes)
        await waitFor(
          async () => (await get(n.relay, '/health')).body.cluster?.peers?.length,
          len => len === 1,
          10_000,
        )
      const taker = await newAgent(a.api, ['taker'])
      const rfq = await createAgentRfq(a.api, taker, { ttlSeconds: 10 })
      const maker = account()
      const c = await Client.open(b.relayWs) // quoted at the node that did not create it
      const q = makeQuote(maker, rfq)
      c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature: await sign(maker, domain, q) })
      await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
      await c.close()
      for (const n of nodes)
        await waitFor(
          async () => (await get(n.relay, `/quotes?rfqId=${rfq.id}`)).body?.count,
          count => count === 1,
        )

      await server.stop()
      while (Date.now() < rfq.expiry * 1000 + 1500) await sleep(100)
      for (const n of nodes)
        assert.equal(await metric(n, 'rfq_ends_unstored'), 1, 'each node keeps the end it could not store')

      server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
      for (const n of nodes)
        await waitFor(
          () => metric(n, 'rfq_ends_unstored'),
          v => v === 0,
          20_000,
        )
      sql = postgres(url, { max: 1, onnotice: () => {} })
      const [row] = await sql`select status, ended_at, ended_by from rfqs where id = ${rfq.id}`
      assert.deepEqual(
        [row!.status, row!.ended_by, row!.ended_at.toISOString()],
        ['EXPIRED', 'engine', new Date(rfq.expiry * 1000).toISOString()],
      )
      assert.equal(
        (await sql`select 1 from league_totals where address = ${maker.address.toLowerCase()}`).length,
        0,
        'no maker judged',
      )
      for (const n of nodes) assert.equal(n.child.exitCode, null, 'healed by the running nodes: no restart')
      for (const n of nodes) assert.equal((await get(n.relay, `/quotes?rfqId=${rfq.id}`)).body.status, 'EXPIRED')
    } finally {
      await Promise.all(nodes.filter(n => n.child.exitCode === null).map(n => n.term()))
      await sql?.end()
      await nats.close()
      await server.stop().catch(() => {}) // stopped already if the test got that far
      for (const d of [pgDir, ...dirs]) rmSync(d, { recursive: true, force: true })
    }
  },
)
