// The agent API's limits are PostgreSQL's to grant (exact for the venue); while it is down, a node's own windows
// answer, and they know what the database granted before it went: an agent whose key is cached keeps its reads,
// within its limit, through the outage, and the database decides again once it is back. Real engine process,
// real PostgreSQL stopped and started.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startEmbeddedPostgres, freePort } from '../../engine/store/embedded.js'
import { spawnEngine } from './process.js'
import { newAgent, get } from '../api/agentKit.js'
import { waitFor } from '../relay/helpers.js'

test(
  "agent limits through a PostgreSQL outage: the node's windows answer, counting what the database granted",
  { timeout: 90_000 },
  async () => {
    const pgDir = mkdtempSync(join(tmpdir(), 'pg-')),
      dataDir = mkdtempSync(join(tmpdir(), 'engine-'))
    const port = await freePort()
    let server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
    const url = await server.database('rfq')
    const engine = await spawnEngine({ DATA_DIR: dataDir, DATABASE_URL: url, AGENT_RATE_PER_MIN: '4' })
    try {
      const agent = await newAgent(engine.api, ['monitor'])
      const auth = async () => (await get(engine.api, '/api/v1/agent/auth', agent.headers)).status
      assert.deepEqual([await auth(), await auth()], [200, 200], 'granted by the database')
      await server.stop()
      await waitFor(
        async () => (await fetch(`${engine.api}/health`)).status,
        s => s === 503,
        10_000,
      )
      assert.deepEqual(
        [await auth(), await auth(), await auth()],
        [200, 200, 429],
        "two left of four: the node counted the database's grants",
      )
      server = await startEmbeddedPostgres({ dataDir: pgDir, port, fast: true })
      await waitFor(
        async () => (await fetch(`${engine.api}/health`)).status,
        s => s === 200,
        20_000,
      )
      // the API's probe is the engine's (store/dbMonitor.ts): the relay's health, and the agent limits, agree at once
      assert.equal((await fetch(`${engine.relay}/health`)).status, 200)
      // the database granted two; the two granted during the outage were the node's alone
      assert.deepEqual([await auth(), await auth(), await auth()], [200, 200, 429], 'the database decides again')
      assert.equal(await engine.term(), 0)
    } finally {
      engine.child.kill('SIGKILL')
      await server.stop().catch(() => {}) // stopped already if the test got that far
      rmSync(pgDir, { recursive: true, force: true })
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
)
