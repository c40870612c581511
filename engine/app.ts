// The composition root: config -> store -> pool -> actors -> fronts. startEngine is what main.ts,
// the tests and the benches all call, so every one of them runs the real wiring.
import type { Logger } from 'pino'
import type { Config } from './config.js'
import { createLogger } from './log.js'
import { createMetrics } from './metrics.js'
import { diskGauges } from './metrics/disk.js'
import { partitionMetrics } from './store/partitionMetrics.js'
import { openDatabase, type Database } from './store/open.js'
import { monitorDatabase } from './store/dbMonitor.js'
import { createLanes } from './pool/lanes.js'
import { ActorSystem } from '../actors/mailbox.js'
import { Router } from './front/router.js'
import { uWS, listen, closeListen, PortInUse, type us_listen_socket, type TemplatedApp } from './front/uws.js'
import { serveHttp } from './front/server.js'
import { rateLimit } from './front/guards.js'
import { FixedWindowLimiter, SlidingWindowLimiter } from './front/limits.js'
import { LimitRegistry } from './front/sharedLimits.js'
import type { EngineContext, Surfaces } from './context.js'
import { mountModules } from './modules.js'
import { uncaughtErrors } from './ops/lastResort.js'
import { terminalAuthorizer } from './options/auth.js'
import { consoleRoutes } from './console/routes.js'
import { preflight, type Preflight } from './preflight.js'
import { noPretenuring } from './ops/pretenuring.js'
import { recoveryLibrary } from '../workers/sig/recover.js'

export interface Engine {
  ports: { api: number; terminal: number; relay: number }
  ctx: EngineContext
  /** what the modules handed back: the RFQ book, the route finder, server-side baselines */
  modules: Awaited<ReturnType<typeof mountModules>>
  db: Database
  stop(): Promise<void>
}

/** The least a shutdown gives the route lane to stop on its own, whatever its drain left of the deadline. */
const LANES_WITHIN_MS = 500

export interface StartOptions {
  log?: Logger
  /** the checks main.ts ran before taking the data directory's lock; absent, they run here */
  checked?: Preflight
}

export async function startEngine(config: Config, opts: StartOptions = {}): Promise<Engine> {
  const log = opts.log ?? createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT)
  noPretenuring() // before the relay allocates: ops/pretenuring.ts says why
  const { tokenList } = opts.checked ?? (await preflight(config, log)) // bad settings and lists stop the start before any side effect
  const metrics = createMetrics()
  const db = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    log,
    quotesRetentionDays: config.QUOTES_RETENTION_DAYS,
    rfqsRetentionDays: config.RFQS_RETENTION_DAYS,
    archiveDir: config.ARCHIVE_DIR,
  })
  const lanes = createLanes(config, why => log.error({ why }, 'route process ended: starting another'))
  // withinMs: how long the route lane may take to stop on its own before it is stopped hard (its default otherwise)
  const closeLanes = (withinMs?: number) => Promise.all([lanes.sig.close(), lanes.route.close(withinMs)])
  const actors = new ActorSystem({
    onError: (name, err) => log.warn({ actor: name, err }, 'actor handler failed'),
    onEscalate: (name, err) => log.error({ actor: name, err }, 'actor stopped after repeated failures'),
  })
  metrics.gauge('actors', 'live actors', () => actors.size)
  metrics.gauge('actor_mailbox_depth', 'messages waiting in all mailboxes', () => actors.totalDepth)
  metrics.gauge('worker_pool_queue_size', 'signature batches waiting for a worker thread', () => lanes.sig.queueSize)
  metrics.gauge('route_pool_queue_size', 'route searches waiting for a route thread', () => lanes.route.queueSize)
  metrics.counter(
    'process_uncaught_errors_total',
    'errors only the last-resort handler caught (each one a bug)',
    uncaughtErrors,
  )

  const apps = { api: uWS.App(), terminal: uWS.App(), relay: uWS.App() }
  const surfaces: Surfaces = { api: new Router(), terminal: new Router(), relay: new Router(), relayApp: apps.relay }
  const shutdownHooks: (() => Promise<void> | void)[] = []
  const dbMonitor = monitorDatabase(db.sql, { log })
  diskGauges(metrics.registry, config.DATA_DIR)
  metrics.gauge('database_up', '1 while PostgreSQL answers its pings', () => (dbMonitor.up ? 1 : 0))
  if (db.partitions) partitionMetrics(metrics, db.partitions)
  const ctx: EngineContext = {
    config,
    log,
    metrics,
    sql: db.sql,
    ...(db.poolUrl ? { quoteWriterUrl: db.poolUrl } : {}),
    sigPool: lanes.sig,
    routePool: lanes.route,
    actors,
    surfaces,
    startedAt: Date.now(),
    onShutdown: fn => {
      shutdownHooks.push(fn)
    },
    databaseUp: () => dbMonitor.up,
    probeDatabase: dbMonitor.probe,
    limits: new LimitRegistry(),
  }

  let modules: Engine['modules']
  try {
    modules = await mountModules(ctx, { tokenList })
  } catch (e) {
    await closeLanes()
    await db.close()
    throw e
  }

  // Every door has a per-IP rate limit: the API's public routes (the spec's 100/min), the terminal and the
  // relay's REST polling. Agent endpoints have per-agent limits of their own; health and metrics are for
  // operators' probes.
  const limiters = [
    ctx.limits.register('api', new FixedWindowLimiter(config.PUBLIC_RATE_LIMIT_PER_MIN, 60_000)),
    ctx.limits.register('terminal', new FixedWindowLimiter(config.TERMINAL_RATE_LIMIT_PER_MIN, 60_000)),
    ctx.limits.register('relay.rest', new FixedWindowLimiter(config.RELAY_REST_RATE_LIMIT_PER_MIN, 60_000)),
  ] as const
  // wrong terminal keys per address, throttled like agent keys (engine/front/agentAuth.ts)
  const terminalFailures = ctx.limits.register(
    'terminal.auth.failures',
    new SlidingWindowLimiter(config.AUTH_FAILURES_PER_MIN, 60_000),
  )
  const sweeper = setInterval(() => {
    limiters.forEach(l => l.sweep())
    terminalFailures.sweep()
  }, 30_000)
  sweeper.unref()
  const inflight = { n: 0 }
  const common = {
    bodyLimit: config.BODY_LIMIT_BYTES,
    corsOrigin: config.CORS_ORIGIN,
    trustProxy: config.TRUST_PROXY,
    trustProxyHops: config.TRUST_PROXY_HOPS,
    metrics,
    log,
    inflight,
    streamBufferLimit: config.SSE_MAX_BUFFER_BYTES,
  }
  const probe = (path: string) => path === '/health' || path === '/metrics' || path === '/api/v1/health'
  const limited = (limiter: FixedWindowLimiter, skip: (path: string) => boolean) => [
    rateLimit(limiter, { skip: r => skip(r.path) }),
  ]
  serveHttp(apps.api, {
    ...common,
    name: 'api',
    router: surfaces.api,
    guards: limited(limiters[0], p => probe(p) || p.startsWith('/api/v1/agent/')),
  })
  serveHttp(apps.terminal, {
    ...common,
    name: 'terminal',
    router: surfaces.terminal,
    guards: limited(limiters[1], probe),
    authorize: terminalAuthorizer(config.API_KEY, terminalFailures),
  })
  serveHttp(apps.relay, { ...common, name: 'relay', router: surfaces.relay, guards: limited(limiters[2], probe) })

  const sockets: us_listen_socket[] = []
  const bind = async (app: TemplatedApp, port: number, variable: string) => {
    const l = await listen(app, config.HOST, port).catch((e: unknown) => {
      throw e instanceof PortInUse ? new PortInUse(e.host, e.port, variable) : e
    })
    sockets.push(l.socket)
    return l.port
  }
  let ports: Engine['ports']
  try {
    ports = {
      api: await bind(apps.api, config.API_PORT, 'API_PORT'),
      terminal: await bind(apps.terminal, config.TERMINAL_PORT, 'TERMINAL_PORT'),
      relay: await bind(apps.relay, config.RELAY_PORT, 'RELAY_PORT'),
    }
  } catch (e) {
    sockets.forEach(closeListen)
    await closeLanes()
    await db.close()
    throw e
  }
  consoleRoutes(ctx, ports) // the web console needs the bound ports: mounted now
  log.info(
    {
      api: ports.api,
      terminal: ports.terminal,
      relay: ports.relay,
      database: db.embedded ? 'embedded' : 'DATABASE_URL',
      signatures: recoveryLibrary, // the system libsecp256k1, or why the npm package's older one recovers instead
    },
    'engine listening',
  )

  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(sweeper)
      dbMonitor.stop()
      sockets.forEach(closeListen) // stop accepting
      const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_MS
      while (inflight.n > 0 && Date.now() < deadline) await new Promise(r => setTimeout(r, 5))
      await actors.drain(Math.max(0, deadline - Date.now())) // let mailboxes empty
      log.debug('mailboxes drained')
      for (const hook of shutdownHooks.reverse()) {
        try {
          await hook()
        } catch (err) {
          log.error({ err }, 'shutdown hook failed')
        }
      }
      for (const app of Object.values(apps)) (app as { close?: () => void }).close?.() // drops open sockets
      log.debug('fronts closed')
      // the route lane gets what is left of the deadline, at least LANES_WITHIN_MS: a route process starved of CPU
      // (SCHED_IDLE on busy cores) may not stop on its own in time, and a shutdown must end before main.ts's
      // hard stop (SHUTDOWN_TIMEOUT_MS + 5 s) with time left for PostgreSQL's
      await closeLanes(Math.max(LANES_WITHIN_MS, deadline - Date.now()))
      log.debug('worker pools closed')
      await db.close()
      log.info('engine stopped')
    })())

  return { ports, ctx, modules, db, stop }
}
