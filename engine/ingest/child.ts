// `make run` with INGEST_SOURCE set: the engine starts the ingestion as its child process, on the
// engine's own database (its URL rebuilt from the live connection, so an embedded server works
// too), restarts it after a crash (at most 5 times in 10 minutes), and stops it at shutdown.
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { Sql } from '../store/db.js'
import { repoRoot } from '../paths.js'
import { FailureWindow } from '../../workers/retry/failureWindow.js'

const RESTART_DELAY_MS = 5_000
const RESTARTS = { intensity: 5, periodMs: 600_000 } as const

export interface IngestChild {
  readonly pid: number | undefined
  stop(): Promise<void>
}

export interface IngestChildDeps {
  config: Config
  sql: Sql
  log: Logger
  onShutdown(fn: () => Promise<void>): void
}

export function startIngestChild(ctx: IngestChildDeps): IngestChild {
  const entry = join(repoRoot, 'dist/engine/ingest/main.js')
  // the engine's validated config, not only process.env: an in-process engine (tests) gets its config as an object
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const [k, v] of Object.entries(ctx.config)) if (v !== undefined) env[k] = String(v)
  env.DATABASE_URL = databaseUrl(ctx.sql)
  delete env.NODE_TEST_CONTEXT // the child is not a test file
  const crashes = new FailureWindow(RESTARTS.intensity, RESTARTS.periodMs)
  let child: ChildProcess | undefined
  let stopping = false
  let timer: NodeJS.Timeout | undefined

  const start = () => {
    child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'inherit', 'inherit'] })
    ctx.log.info({ pid: child.pid, source: ctx.config.INGEST_SOURCE }, 'ingestion child started')
    child.once('exit', (code, signal) => {
      if (stopping) return
      if (code === 0) return ctx.log.info({ source: ctx.config.INGEST_SOURCE }, 'ingestion child finished')
      if (crashes.record(Date.now()) || code === 2) {
        return ctx.log.error({ code, signal }, 'ingestion child failed; not restarting (see its log above)')
      }
      ctx.log.warn({ code, signal, inMs: RESTART_DELAY_MS }, 'ingestion child exited; restarting')
      timer = setTimeout(start, RESTART_DELAY_MS)
      timer.unref()
    })
  }
  start()

  const handle: IngestChild = {
    get pid() {
      return child?.pid
    },
    async stop() {
      stopping = true
      clearTimeout(timer)
      const c = child
      if (!c || c.exitCode !== null || c.signalCode !== null) return
      const exited = new Promise<void>(resolve => c.once('exit', () => resolve()))
      c.kill('SIGTERM')
      const forced = setTimeout(() => c.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(forced)
    },
  }
  ctx.onShutdown(() => handle.stop())
  return handle
}

function databaseUrl(sql: Sql): string {
  const o = sql.options as unknown as {
    host: string[]
    port: number[]
    user: string
    pass: string | null
    database: string
  }
  const auth = encodeURIComponent(o.user) + (o.pass ? ':' + encodeURIComponent(o.pass) : '')
  return `postgres://${auth}@${o.host[0]}:${o.port[0]}/${encodeURIComponent(o.database)}`
}
