// A fresh, migrated database for a bench: on DATABASE_URL's server, or on an embedded server of the
// bench's own under .data/bench-<name> (tuned for loading, not durability). drop() removes it all
// (unless BENCH_KEEP_DB is set: then the database and its server are left for inspection). Its URL names the embedded
// server's Unix socket (`?host=`, as libpq spells it) unless BENCH_DB_TCP is set.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { startEmbeddedPostgres } from '../../engine/store/embedded.js'
import { connect, type Sql } from '../../engine/store/db.js'
import { migrate } from '../../engine/store/migrate.js'
import { repoRoot } from '../../engine/paths.js'

export interface BenchDatabase {
  sql: Sql
  url: string
  drop(): Promise<void>
  /** another fresh, migrated database on the same server, dropped by its own drop() (before this one's) */
  sibling(tag: string): Promise<Omit<BenchDatabase, 'sibling'>>
}

export async function benchDatabase(bench: string, { max = 4 } = {}): Promise<BenchDatabase> {
  const pg = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir: join(repoRoot, `.data/bench-${bench}`), fast: true })
  const name = `${bench}_${randomBytes(4).toString('hex')}`
  const adminUrl = process.env.DATABASE_URL ?? pg!.adminUrl
  const admin = connect(adminUrl, { max: 1 })
  await admin.unsafe(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = '/' + name
  // the engine reaches the bench's own server over its Unix socket, as it reaches its embedded one (BENCH_DB_TCP: TCP)
  if (pg?.socketDir && !process.env.BENCH_DB_TCP) url.searchParams.set('host', pg.socketDir)
  const sql = connect(url.toString(), { max })
  await migrate(sql)
  return {
    sql,
    url: url.toString(),
    async sibling(tag) {
      const other = `${name}_${tag}`
      await admin.unsafe(`create database ${other}`)
      const u = new URL(url)
      u.pathname = '/' + other
      const s = connect(u.toString(), { max })
      await migrate(s)
      return {
        sql: s,
        url: u.toString(),
        async drop() {
          await s.end({ timeout: 5 })
          if (!process.env.BENCH_KEEP_DB) await admin.unsafe(`drop database if exists ${other} with (force)`)
        },
      }
    },
    async drop() {
      await sql.end({ timeout: 5 }) // a query left hanging by a failed run is cut off, then the database dropped
      if (process.env.BENCH_KEEP_DB) {
        // for EXPLAIN sessions after the run; the server keeps running
        console.log(`BENCH_KEEP_DB: kept ${url.toString()}`)
        await admin.end()
        return
      }
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.end()
      await pg?.stop()
    },
  }
}
