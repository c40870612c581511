// The database the engine runs on: DATABASE_URL when given, else an embedded PostgreSQL under
// DATA_DIR. Migrations run before anything else touches it.
import type { Logger } from 'pino'
import { connect, type Sql } from './db.js'
import { migrate } from './migrate.js'
import { startEmbeddedPostgres } from './embedded.js'
import { databaseUnreachable } from './unreachable.js'

export interface Database {
  sql: Sql
  url: string
  embedded: boolean
  close(): Promise<void>
}

export async function openDatabase(opts: {
  url?: string
  dataDir: string
  log: Logger
  max?: number
}): Promise<Database> {
  let url = opts.url
  let stopServer: (() => Promise<void>) | undefined
  if (!url) {
    const server = await startEmbeddedPostgres({
      dataDir: opts.dataDir,
      onLog: line => opts.log.debug({ pg: line.trim() }, 'postgres'),
    })
    url = await server.database('rfq')
    stopServer = () => server.stop()
    opts.log.info({ port: server.port, dataDir: opts.dataDir }, 'embedded PostgreSQL started')
  }
  const sql = connect(url, { max: opts.max ?? 20 })
  try {
    const applied = await migrate(sql)
    if (applied.length) opts.log.info({ applied }, 'migrations applied')
  } catch (e) {
    await sql.end({ timeout: 1 })
    await stopServer?.()
    throw opts.url && connectionFailure(e) ? databaseUnreachable(opts.url, e) : e
  }
  return {
    sql,
    url,
    embedded: !!stopServer,
    async close() {
      await sql.end({ timeout: 5 })
      await stopServer?.()
    },
  }
}

/** A failure to reach or log in to the server, as opposed to a migration that failed on a reachable one. */
export function connectionFailure(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? ''
  return /^E[A-Z]+$/.test(code) || code === 'CONNECT_TIMEOUT' || ['28P01', '28000', '3D000'].includes(code)
}
