// Entry point of the ingestion process: `make ingest` / `node dist/engine/ingest/main.js`, or the
// engine's child when INGEST_SOURCE is set (engine/ingest/child.ts). Same environment as the engine.
// Exits 0 when a replay is done or on SIGINT/SIGTERM, 1 on failure, 2 on bad configuration.
import { loadConfig, ConfigError, type Config } from '../config.js'
import { createLogger } from '../log.js'
import { openIngestDatabase } from './database.js'
import { runIngestion } from './run.js'
import { parseCli } from '../ops/cli.js'
import { DatabaseUnreachable } from '../store/unreachable.js'

const USAGE = `Usage: node dist/engine/ingest/main.js   (or: make ingest)

Runs the options market-data ingestion: INGEST_SOURCE=deribit (the exchange's API at DERIBIT_BASE_URL),
replay (a recording at INGEST_FILE) or synthetic. It reads the engine's environment (see the README's
Configuration table); make run starts it as a child when INGEST_SOURCE is not off. Exits 0 when a replay
is done or on SIGINT/SIGTERM, 1 on failure, 2 on bad configuration.`

async function main(): Promise<number> {
  parseCli('ingest', USAGE, {})
  let config: Config
  try {
    config = loadConfig()
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message)
      return 2
    }
    throw e
  }
  if (config.INGEST_SOURCE === 'off') {
    console.error('INGEST_SOURCE is off: set INGEST_SOURCE=deribit, replay (with INGEST_FILE) or synthetic')
    return 2
  }
  if (config.INGEST_SOURCE === 'replay' && !config.INGEST_FILE) {
    console.error(
      'INGEST_SOURCE=replay needs INGEST_FILE (a JSON-lines recording, e.g. fixtures/deribit/options-sample.jsonl)',
    )
    return 2
  }
  const log = createLogger(config.LOG_LEVEL, 'rfq-ingest', config.LOG_FORMAT)
  const db = await openIngestDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, log })
  const stop = new AbortController()
  const onSignal = (signal: string) => {
    log.info({ signal }, 'ingest: stopping')
    stop.abort()
  }
  process.on('SIGINT', () => onSignal('SIGINT'))
  process.on('SIGTERM', () => onSignal('SIGTERM'))
  try {
    await runIngestion({ config, sql: db.sql, log, signal: stop.signal })
    return 0
  } catch (err) {
    log.error({ err }, 'ingest: failed')
    return 1
  } finally {
    await db.close()
  }
}

// one line, as the engine says it (the stack only with DEBUG=1)
main().then(
  code => process.exit(code),
  (err: unknown) => {
    console.error(
      err instanceof DatabaseUnreachable
        ? err.message
        : `ingest failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    )
    if (process.env.DEBUG === '1' && err instanceof Error) console.error(err.stack)
    process.exit(1)
  },
)
