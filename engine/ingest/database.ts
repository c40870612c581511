// The ingest process writes where the engine reads: DATABASE_URL when set; otherwise the engine's embedded
// PostgreSQL under DATA_DIR. When that server is already running (the engine is up), we connect to it with what
// the engine wrote to its data directory (port, password: engine/store/embedded.ts runningEmbeddedUrl) instead of
// starting, or stopping, a second one. A database it cannot reach is one line naming where and what to do.
import type { Logger } from 'pino'
import { connect } from '../store/db.js'
import { migrate } from '../store/migrate.js'
import { connectionFailure, openDatabase, type Database } from '../store/open.js'
import { runningEmbeddedUrl } from '../store/embedded.js'
import { databaseUnreachable, DatabaseUnreachable } from '../store/unreachable.js'

export async function openIngestDatabase({
  url,
  dataDir,
  log,
}: {
  url?: string
  dataDir: string
  log: Logger
}): Promise<Database> {
  const running = url ? undefined : runningEmbeddedUrl(dataDir)
  if (!url && running === undefined) return openDatabase({ dataDir, log, max: 4 })
  const target = url ?? running!
  const sql = connect(target, { max: 4 })
  try {
    await migrate(sql)
  } catch (e) {
    await sql.end({ timeout: 1 })
    if (!connectionFailure(e)) throw e
    if (url) throw databaseUnreachable(url, e)
    throw new DatabaseUnreachable(
      `the engine's embedded PostgreSQL under DATA_DIR=${dataDir} did not let us in ` +
        `(${(e as Error).message.split('\n')[0]}): is the engine's data directory this one? Or set DATABASE_URL`,
    )
  }
  log.info(
    { database: url ? 'DATABASE_URL' : `the engine's embedded PostgreSQL (${dataDir})` },
    'ingest: database connected',
  )
  return { sql, url: target, embedded: false, close: () => sql.end({ timeout: 5 }) }
}
