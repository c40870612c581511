// The real engine, in-process, on free ports and its own database: what every HTTP/WebSocket test talks to.
import { loadConfig } from '../../engine/config.js'
import { startEngine, type Engine } from '../../engine/app.js'
import { testDatabase, type TestDatabase } from './db.js'

export interface TestEngine {
  engine: Engine
  db: TestDatabase
  api: string
  terminal: string
  relay: string
  relayWs: string
  /** stops the engine and drops its database, unless `keepDatabase` (a restart on the same data follows) */
  stop(opts?: { keepDatabase?: boolean }): Promise<void>
}

/** `db`: start on an existing suite database (a restart of a stopped engine) instead of a fresh one; `seed` writes to
 *  a fresh database before the engine starts (a route graph, tokens). */
export async function startTestEngine(
  env: Record<string, string> = {},
  opts: { db?: TestDatabase; seed?: (db: TestDatabase) => Promise<void> } = {},
): Promise<TestEngine> {
  const db = opts.db ?? (await testDatabase('e'))
  if (!opts.db) await opts.seed?.(db)
  const config = loadConfig({
    API_PORT: '0',
    TERMINAL_PORT: '0',
    RELAY_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    // tests that exercise scan/refresh by hand get a route finder that does not also follow the chain
    POOL_THREADS: '1',
    SOR_FOLLOW_INTERVAL_MS: '0',
    ...env,
    DATABASE_URL: db.url,
  })
  const engine = await startEngine(config)
  const { api, terminal, relay } = engine.ports
  return {
    engine,
    db,
    api: `http://127.0.0.1:${api}`,
    terminal: `http://127.0.0.1:${terminal}`,
    relay: `http://127.0.0.1:${relay}`,
    relayWs: `ws://127.0.0.1:${relay}`,
    async stop(o = {}) {
      await engine.stop()
      if (!o.keepDatabase) await db.drop()
    },
  }
}
