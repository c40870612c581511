// Retention: the quote partitions of days past QUOTES_RETENTION_DAYS are detached, then dropped. No row is deleted
// one by one and no lock is held long: a detach waits at most LOCK_TIMEOUT_MS for the relay's group commits to let go
// of the parent table (then it is tried again at the next run), and the drop of a detached table locks nothing the
// relay uses. What must outlive the raw quotes is not in them: league and reliability rollups (league_daily,
// league_totals) are counted when an RFQ ends, which is days before its partition can go, and fills are a table of
// their own that retention never touches. With ARCHIVE_DIR set, each partition is first exported there
// (archive/export.ts) and is detached only once its archive is whole; a failed export keeps it for the next run.
import type { Sql } from './db.js'
import { exportPartition } from './archive/export.js'

const LOCK = 7318202 // the partitions' lock: one node at a time makes or drops them
const LOCK_TIMEOUT_MS = 200
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10)

export interface RetentionRun {
  dropped: string[]
  skipped: string[]
  at: Date
  /** the partitions exported before their drop (ARCHIVE_DIR), and those kept because their export failed */
  archived?: string[]
  unarchived?: { partition: string; error: string }[]
}

/** The quote partitions whose whole day is older than `days` days before `now` (UTC): detached, then dropped. */
export async function runRetention(
  sql: Sql,
  { days, now = Date.now(), archiveDir }: { days: number; now?: number; archiveDir?: string | undefined },
): Promise<RetentionRun> {
  const run: RetentionRun = {
    dropped: [],
    skipped: [],
    at: new Date(now),
    ...(archiveDir ? { archived: [], unarchived: [] } : {}),
  }
  if (days <= 0) return run
  const keepFrom = dayOf(now - days * 86_400_000) // the oldest day kept
  await sql.reserve().then(async conn => {
    try {
      const [got] = await conn`select pg_try_advisory_lock(${LOCK}) as got`
      if (!got!.got) return // another node is making or dropping partitions
      try {
        const old = await conn`
          select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
          where p.relname = 'quotes' and c.relname ~ '^quotes_p[0-9]{8}$' order by c.relname`
        for (const { name } of old) {
          const day = `${name.slice(8, 12)}-${name.slice(12, 14)}-${name.slice(14, 16)}`
          if (day >= keepFrom) continue
          if (archiveDir) {
            try {
              await exportPartition(sql, name, archiveDir)
              run.archived!.push(name)
            } catch (e) {
              run.unarchived!.push({ partition: name, error: (e as Error).message })
              continue
            }
          }
          try {
            await conn.unsafe(`set lock_timeout = ${LOCK_TIMEOUT_MS}`)
            await conn.unsafe(`alter table quotes detach partition ${name}`)
          } catch (e) {
            if ((e as { code?: string }).code !== '55P03') throw e // lock_not_available: the relay was busy
            run.skipped.push(name)
            continue
          } finally {
            await conn.unsafe('reset lock_timeout')
          }
          await conn.unsafe(`drop table ${name}`)
          run.dropped.push(name)
        }
      } finally {
        await conn`select pg_advisory_unlock(${LOCK})`
      }
    } finally {
      conn.release()
    }
  })
  return run
}
