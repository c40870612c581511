// kill -9 of the engine in the middle of a burst of quotes and fills, then a restart on the same
// database: every quote a client saw broadcast and every fill answered 200 is in the database. The engine
// runs as a real deployment runs it: a node of a venue, on a nats-server with TLS and an nkey per node.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDatabase } from '../helpers/db.js'
import { spawnEngine } from './process.js'
import { startSecureNats } from '../cluster/secureNats.js'
import { newAgent } from '../api/agentKit.js'
import { createAgentRfq } from '../api/agentRfq.js'
import { Client, account, makeQuote, sign, ZERO } from '../relay/helpers.js'
import type { Rfq } from '../../actors/rfqTypes.js'

const domain = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }
const hex = (n: number) => `0x${randomBytes(n).toString('hex')}`

for (const round of [1, 2]) {
  test(
    `kill -9 mid-burst, then restart: nothing acknowledged is lost (round ${round})`,
    { timeout: 90_000 },
    async () => {
      const db = await testDatabase('k')
      const nats = await startSecureNats(['k1'])
      const dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
      const env = {
        ...nats.env('k1'),
        DATA_DIR: dataDir,
        DATABASE_URL: db.url,
        PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
        RATE_LIMIT_PER_MIN: '1000000',
        MAX_ACTIVE_RFQS_PER_WALLET: '50',
      }
      let engine = await spawnEngine(env)
      try {
        const agent = await newAgent(engine.api, ['taker'])
        const rfqs: Rfq[] = []
        for (let i = 0; i < 8; i++) {
          rfqs.push(await createAgentRfq(engine.api, agent, { amountIn: String(1000 + i) }))
        }
        const makers = Array.from({ length: 100 }, () => account())
        const frames = await Promise.all(
          rfqs.flatMap(rfq =>
            makers.map(async m => {
              const q = makeQuote(m, rfq)
              return { rfqId: rfq.id, quote: q, signature: await sign(m, domain, q) }
            }),
          ),
        )
        const observer = await Client.open(engine.relayWs)
        const submitter = await Client.open(engine.relayWs)
        const acknowledgedFills: string[] = []
        let firing = true
        const fills = (async () => {
          while (firing) {
            const txHash = hex(32)
            const r = await fetch(`${engine.api}/api/v1/fills`, {
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
            }).catch(() => undefined) // the engine is being killed: no answer
            if (r?.status === 200) acknowledgedFills.push(txHash)
            await r?.arrayBuffer().catch(() => {}) // the body only frees the socket; a cut one is as good
          }
        })()
        for (const f of frames) submitter.send('QUOTE_SUBMIT', f) // the burst
        // kill once part of the burst is acknowledged and the rest is in flight (by count, not by time)
        const killAt = round === 1 ? 50 : 300
        for (let i = 0; i < 2000 && observer.of('QUOTE_BROADCAST').length < killAt; i++)
          await new Promise(r => setTimeout(r, 2))
        await engine.kill9()
        firing = false
        await fills
        const seen = observer.of('QUOTE_BROADCAST').map(f => `${f.data.rfqId} ${f.data.quote.maker}`)
        assert.ok(seen.length > 0, 'some quotes were acknowledged before the kill')

        engine = await spawnEngine(env) // same data directory, same database, same venue
        const health = (await (await fetch(`${engine.relay}/health`)).json()) as {
          cluster: { nodeId: string; nats: string }
        }
        assert.deepEqual([health.cluster.nodeId, health.cluster.nats], ['k1', 'connected'])
        const stored = new Set((await db.sql`select rfq_id, maker from quote_rows`).map(r => `${r.rfq_id} ${r.maker}`))
        assert.deepEqual(
          seen.filter(k => !stored.has(k)),
          [],
          'every broadcast quote is stored',
        )
        const fillRows = new Set((await db.sql`select tx_hash from fills`).map(r => r.tx_hash as string))
        assert.deepEqual(
          acknowledgedFills.filter(h => !fillRows.has(h)),
          [],
          'every acknowledged fill is stored',
        )
        console.log(
          `kill -9 round ${round}: ${seen.length} of ${frames.length} quotes acknowledged before the kill, all stored (${stored.size} rows); ${acknowledgedFills.length} fills acknowledged, all stored`,
        )
        // the restored RFQs take quotes again
        const again = await Client.open(engine.relayWs)
        const late = account(),
          q = makeQuote(late, rfqs[0]!)
        again.send('QUOTE_SUBMIT', { rfqId: rfqs[0]!.id, quote: q, signature: await sign(late, domain, q) })
        assert.equal((await again.nextOf('QUOTE_BROADCAST')).data.quote.maker, q.maker)
        await again.close()
        assert.equal(await engine.term(), 0)
      } finally {
        engine.child.kill('SIGKILL')
        rmSync(dataDir, { recursive: true, force: true })
        await nats.close()
        await db.drop()
      }
    },
  )
}
