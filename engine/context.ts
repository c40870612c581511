// What every surface module receives from the composition root. Modules mount their routes on
// the routers and hand back what other modules need; state lives in their actors.
import type { Logger } from 'pino'
import type { Config } from './config.js'
import type { Metrics } from './metrics.js'
import type { Sql } from './store/db.js'
import type { WorkerPool } from './pool/workerPool.js'
import type { RouteLane } from './pool/lanes.js'
import type { ActorSystem } from '../actors/mailbox.js'
import type { Router } from './front/router.js'
import type { TemplatedApp } from './front/uws.js'
import type { LimitRegistry } from './front/sharedLimits.js'

export interface Surfaces {
  /** RFQ, benchmark, route finder, league REST (API_PORT) */
  api: Router
  /** options market data (TERMINAL_PORT) */
  terminal: Router
  /** relay REST (RELAY_PORT); the relay's WebSocket is mounted on relayApp */
  relay: Router
  relayApp: TemplatedApp
}

export interface EngineContext {
  config: Config
  log: Logger
  metrics: Metrics
  sql: Sql
  /** where the quote writer's thread connects (engine/store/open.ts poolUrl); on `sql`, on this thread, when absent */
  quoteWriterUrl?: string
  /** signature recovery's lane of worker threads (engine/pool/lanes.ts) */
  sigPool: WorkerPool
  /** route searches' lane: apart, so a quote batch never waits behind a search */
  routePool: RouteLane
  actors: ActorSystem
  surfaces: Surfaces
  /** started at, for uptime */
  startedAt: number
  /** every per-key limiter by name: a cluster shares their counts (engine/front/sharedLimits.ts) */
  limits: LimitRegistry
  /** PostgreSQL answered its last ping (engine/store/dbMonitor.ts): for cheap health answers */
  databaseUp: () => boolean
  /** asks PostgreSQL now (the API's /health); what it sees is databaseUp's from then on (dbMonitor.ts) */
  probeDatabase: () => Promise<boolean>
  /** work to run at shutdown, after the fronts stop accepting and mailboxes drain, before Postgres closes */
  onShutdown(fn: () => Promise<void> | void): void
}
