// Entry point: `make run` / `node dist/engine/main.js`. Reads the config, takes the data directory's
// lock, starts the engine, prints where each surface listens, and shuts down cleanly on SIGINT/SIGTERM
// (exit 0). A start that cannot happen says why in one line: a bad variable (exit 2), another engine
// on the same data directory, a port in use (exit 1). The stack only with DEBUG=1.
import { loadConfig, ConfigError } from './config.js'
import { createLogger } from './log.js'
import { startEngine } from './app.js'
import { acquireInstanceLock, AlreadyRunning } from './ops/instanceLock.js'
import { installLastResort } from './ops/lastResort.js'
import { PortInUse } from './front/uws.js'
import { parseCli } from './ops/cli.js'
import { banner } from './banner.js'
import { preflight } from './preflight.js'
import { DatabaseUnreachable } from './store/unreachable.js'

const USAGE = `Usage: node dist/engine/main.js   (or: make run)

Starts the RFQ engine: the API, the options terminal and the relay (WebSocket and REST), on an embedded
PostgreSQL under DATA_DIR unless DATABASE_URL is set. Configuration is read from the environment only;
every variable, its default and its meaning is in the README's Configuration table. A bad value stops the
start with one line naming it (exit 2); another engine on the same DATA_DIR, a port in use, or a DATABASE_URL
that cannot be reached is one line and exit 1. Ctrl-C or SIGTERM drains and exits 0.`

async function main(): Promise<void> {
  parseCli('engine', USAGE, {})
  const config = loadConfig()
  const log = createLogger(config.LOG_LEVEL, undefined, config.LOG_FORMAT)
  const checked = await preflight(config, log) // bad settings and token lists: before anything is touched
  // before anything touches the data directory: a second engine must not stop the first one's PostgreSQL
  const lock = await acquireInstanceLock('engine', config.DATA_DIR)
  installLastResort(log)
  const engine = await startEngine(config, { log, checked })
  lock.setPorts({ api: engine.ports.api, terminal: engine.ports.terminal, relay: engine.ports.relay })
  let signalled = false
  const shutdown = (signal: string) => {
    if (signalled) return
    signalled = true
    log.info({ signal }, 'shutting down')
    const force = setTimeout(() => {
      log.error('shutdown timed out')
      process.exit(1)
    }, config.SHUTDOWN_TIMEOUT_MS + 5000)
    force.unref()
    engine
      .stop()
      .then(() => lock.release())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'shutdown failed')
          process.exit(1)
        },
      )
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  // last: whoever waits for the banner may signal at once, and the handlers must already be there
  process.stdout.write(banner(config, engine.ports, engine.db.embedded ? 'embedded' : 'url'))
}

main().catch((err: unknown) => {
  const known =
    err instanceof ConfigError ||
    err instanceof AlreadyRunning ||
    err instanceof PortInUse ||
    err instanceof DatabaseUnreachable
  console.error(known ? err.message : `engine failed to start: ${err instanceof Error ? err.message : String(err)}`)
  if (process.env.DEBUG === '1' && err instanceof Error) console.error(err.stack)
  process.exit(err instanceof ConfigError ? 2 : 1)
})
