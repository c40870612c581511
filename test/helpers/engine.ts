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
  stop(): Promise<void>
}

/** `seed` writes to the fresh database before the engine starts (a route graph, tokens). */
export async function startTestEngine(env: Record<string, string> = {}, { seed }: { seed?: (db: TestDatabase) => Promise<void> } = {}): Promise<TestEngine> {
  const db = await testDatabase('e')
  await seed?.(db)
  const config = loadConfig({
    API_PORT: '0', TERMINAL_PORT: '0', RELAY_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    // tests that exercise scan/refresh by hand get a route finder that does not also follow the chain
    POOL_THREADS: '1', SOR_FOLLOW_INTERVAL_MS: '0', ...env, DATABASE_URL: db.url,
  })
  const engine = await startEngine(config)
  const { api, terminal, relay } = engine.ports
  return {
    engine, db,
    api: `http://127.0.0.1:${api}`,
    terminal: `http://127.0.0.1:${terminal}`,
    relay: `http://127.0.0.1:${relay}`,
    relayWs: `ws://127.0.0.1:${relay}`,
    async stop() {
      await engine.stop()
      await db.drop()
    },
  }
}
