// Entry point: `make run` / `node dist/engine/main.js`. Reads the config, starts the engine,
// prints where each surface listens, and shuts down cleanly on SIGINT/SIGTERM (exit 0).
import { loadConfig, ConfigError } from './config.js'
import { createLogger } from './log.js'
import { startEngine } from './app.js'

async function main(): Promise<void> {
  let config
  try {
    config = loadConfig()
  } catch (e) {
    if (e instanceof ConfigError) { console.error(e.message); process.exit(2) }
    throw e
  }
  const log = createLogger(config.LOG_LEVEL)
  const engine = await startEngine(config, { log })
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST
  process.stdout.write([
    `terminal (options data)  http://${host}:${engine.ports.terminal}`,
    `api (rfq/fills/sor/league) http://${host}:${engine.ports.api}`,
    `relay (websocket + rest) ws://${host}:${engine.ports.relay}  http://${host}:${engine.ports.relay}`,
    '',
  ].join('\n'))
  let signalled = false
  const shutdown = (signal: string) => {
    if (signalled) return
    signalled = true
    log.info({ signal }, 'shutting down')
    const force = setTimeout(() => { log.error('shutdown timed out'); process.exit(1) }, config.SHUTDOWN_TIMEOUT_MS + 5000)
    force.unref()
    engine.stop().then(() => process.exit(0), err => { log.error({ err }, 'shutdown failed'); process.exit(1) })
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
}

main().catch(err => {
  console.error(err instanceof Error ? err.stack ?? err.message : err)
  process.exit(1)
})
