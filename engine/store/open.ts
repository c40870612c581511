// The database the engine runs on: DATABASE_URL when given, else an embedded PostgreSQL under
// DATA_DIR. Migrations run before anything else touches it.
import type { Logger } from 'pino'
import { connect, type Sql } from './db.js'
import { migrate } from './migrate.js'
import { ensurePartitions, keepPartitionsAhead, type Upkeep } from './partitions.js'
import { startEmbeddedPostgres } from './embedded.js'
import { databaseUnreachable } from './unreachable.js'

export interface Database {
  sql: Sql
  url: string
  embedded: boolean
  /**
   * Where a pool of its own connects (the quote writer's, on its own thread, whose commits must not queue behind
   * reads): the embedded server's Unix socket, else DATABASE_URL (which may name a socket: `?host=/dir`).
   */
  poolUrl?: string
  /** the partitions' upkeep: made ahead, retention, their sizes for /metrics */
  partitions?: Upkeep
  close(): Promise<void>
}

export interface OpenOptions {
  url?: string
  dataDir: string
  log: Logger
  max?: number
  /** QUOTES_RETENTION_DAYS: 0 keeps every quote */
  quotesRetentionDays?: number
  /** RFQS_RETENTION_DAYS: 0 keeps every RFQ */
  rfqsRetentionDays?: number
  /** ARCHIVE_DIR: set, retention exports each partition there before it drops it */
  archiveDir?: string | undefined
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  let url = opts.url
  let stopServer: (() => Promise<void>) | undefined
  let socketUrl: string | undefined
  if (!url) {
    const server = await startEmbeddedPostgres({
      dataDir: opts.dataDir,
      onLog: line => opts.log.debug({ pg: line.trim() }, 'postgres'),
    })
    url = await server.database('rfq')
    if (server.socketDir) socketUrl = `${url}?host=${encodeURIComponent(server.socketDir)}`
    stopServer = () => server.stop()
    opts.log.info({ port: server.port, dataDir: opts.dataDir }, 'embedded PostgreSQL started')
  }
  const sql = connect(url, { max: opts.max ?? 20 })
  try {
    const applied = await migrate(sql)
    if (applied.length) opts.log.info({ applied }, 'migrations applied')
    const made = await ensurePartitions(sql)
    if (made.length) opts.log.info({ made }, 'partitions made ahead')
  } catch (e) {
    await sql.end({ timeout: 1 })
    await stopServer?.()
    throw opts.url && connectionFailure(e) ? databaseUnreachable(opts.url, e) : e
  }
  const partitions = keepPartitionsAhead(sql, {
    retentionDays: opts.quotesRetentionDays ?? 0,
    rfqsRetentionDays: opts.rfqsRetentionDays ?? 0,
    archiveDir: opts.archiveDir,
    log: opts.log,
  })
  return {
    sql,
    url,
    embedded: !!stopServer,
    partitions,
    poolUrl: socketUrl ?? url,
    async close() {
      partitions.stop()
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
