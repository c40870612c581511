// The ingest process writes where the engine reads: DATABASE_URL when set; otherwise the engine's
// embedded PostgreSQL under DATA_DIR. When that server is already running (the engine is up), we
// connect to it (its port is line 4 of postmaster.pid) instead of starting, or stopping, a second one.
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Logger } from 'pino'
import { connect } from '../store/db.js'
import { migrate } from '../store/migrate.js'
import { openDatabase, type Database } from '../store/open.js'

export async function openIngestDatabase({ url, dataDir, log }: { url?: string; dataDir: string; log: Logger }): Promise<Database> {
  const running = url ? undefined : runningEmbeddedPort(dataDir)
  if (!url && running === undefined) return openDatabase({ dataDir, log, max: 4 })
  const target = url ?? `postgres://postgres:postgres@127.0.0.1:${running}/rfq`
  const sql = connect(target, { max: 4 })
  await migrate(sql)
  return { sql, url: target, embedded: false, close: () => sql.end({ timeout: 5 }) }
}

function runningEmbeddedPort(dataDir: string): number | undefined {
  const pidFile = resolve(dataDir, 'pg', 'postmaster.pid')
  if (!existsSync(pidFile)) return undefined
  const lines = readFileSync(pidFile, 'utf8').split('\n')
  const pid = Number(lines[0]), port = Number(lines[3])
  try { process.kill(pid, 0) } catch { return undefined }
  return Number.isInteger(port) && port > 0 ? port : undefined
}
