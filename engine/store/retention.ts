// Retention: the day partitions of quotes past QUOTES_RETENTION_DAYS, then those of rfqs past RFQS_RETENTION_DAYS,
// are detached, then dropped. No row is deleted one by one and no lock is held long: a detach waits at most
// LOCK_TIMEOUT_MS for the relay's writes to let go of the parent table (then it is tried again at the next run), and
// the drop of a detached table locks nothing the relay uses. What must outlive the raw rows is not in them: league
// and reliability rollups (league_daily, league_totals) are counted when an RFQ ends, which is days before its
// partition can go, and fills are a table of their own that retention never touches. With ARCHIVE_DIR set, each
// partition is first exported there (archive/export.ts) and is detached only once its archive is whole; a failed
// export keeps it for the next run.
//
// An RFQ day goes only after its quotes (quotes hold no foreign key to their RFQ: migration 101 says why, so this
// order keeps the reference): its quote partition must be gone, and no quote of that day may wait in the default
// partition. And never while it holds an RFQ still open (OPEN or QUOTED): the TTL cleanup ends those first.
// The agents' activity log (agent_activity, by the day of each entry) goes by the RFQs' window too.
import type { Sql } from './db.js'
import { exportPartition } from './archive/export.js'

const LOCK = 7318202 // the partitions' lock: one node at a time makes or drops them
const LOCK_TIMEOUT_MS = 200
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10)

export interface RetentionRun {
  dropped: string[]
  /** detached later: the relay held the table past the lock timeout */
  skipped: string[]
  /** RFQ days kept past their window: an RFQ still open, or quotes of the day still stored */
  held?: string[]
  at: Date
  /** the partitions exported before their drop (ARCHIVE_DIR), and those kept because their export failed */
  archived?: string[]
  unarchived?: { partition: string; error: string }[]
}

export interface RetentionOptions {
  /** QUOTES_RETENTION_DAYS: 0 keeps every quote */
  days: number
  /** RFQS_RETENTION_DAYS: 0 keeps every RFQ */
  rfqsDays?: number
  now?: number
  archiveDir?: string | undefined
}

/** The partitions whose whole day is older than their table's window before `now` (UTC): detached, then dropped. */
export async function runRetention(
  sql: Sql,
  { days, rfqsDays = 0, now = Date.now(), archiveDir }: RetentionOptions,
): Promise<RetentionRun> {
  const run: RetentionRun = {
    dropped: [],
    skipped: [],
    at: new Date(now),
    ...(rfqsDays > 0 ? { held: [] } : {}),
    ...(archiveDir ? { archived: [], unarchived: [] } : {}),
  }
  if (days <= 0 && rfqsDays <= 0) return run
  const conn = await sql.reserve()
  try {
    const [got] = await conn`select pg_try_advisory_lock(${LOCK}) as got`
    if (!got!.got) return run // another node is making or dropping partitions
    try {
      const past = async (table: string, keep: number) => {
        const keepFrom = dayOf(now - keep * 86_400_000) // the oldest day kept
        const names = await conn<{ name: string }[]>`
          select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
          join pg_class p on p.oid = i.inhparent
          where p.relname = ${table} and c.relname ~ ${`^${table}_p[0-9]{8}$`} order by c.relname`
        return names
          .map(({ name }) => ({ name, day: name.slice(-8).replace(/(\d{4})(\d{2})(\d{2})/, '$1-$2-$3') }))
          .filter(p => p.day < keepFrom)
      }
      const drop = async (table: string, name: string) => {
        if (archiveDir) {
          try {
            await exportPartition(sql, name, archiveDir)
            run.archived!.push(name)
          } catch (e) {
            run.unarchived!.push({ partition: name, error: (e as Error).message })
            return
          }
        }
        try {
          await conn.unsafe(`set lock_timeout = ${LOCK_TIMEOUT_MS}`)
          await conn.unsafe(`alter table ${table} detach partition ${name}`)
        } catch (e) {
          if ((e as { code?: string }).code !== '55P03') throw e // lock_not_available: the relay was busy
          run.skipped.push(name)
          return
        } finally {
          await conn.unsafe('reset lock_timeout')
        }
        await conn.unsafe(`drop table ${name}`)
        run.dropped.push(name)
      }
      if (days > 0) for (const p of await past('quotes', days)) await drop('quotes', p.name)
      if (rfqsDays > 0)
        for (const p of await past('rfqs', rfqsDays)) {
          const [blocked] = await conn`
            select to_regclass(${`quotes_p${p.day.replaceAll('-', '')}`}) is not null
              or exists (select 1 from quotes_default where rfq_day = ${p.day}::date)
              or exists (select 1 from ${conn(p.name)} where status in ('OPEN', 'QUOTED')) as held`
          if (blocked!.held) run.held!.push(p.name)
          else await drop('rfqs', p.name)
        }
      // the agents' activity log keeps the RFQs' window: an entry mostly names an RFQ
      if (rfqsDays > 0) for (const p of await past('agent_activity', rfqsDays)) await drop('agent_activity', p.name)
    } finally {
      await conn`select pg_advisory_unlock(${LOCK})`
    }
  } finally {
    conn.release()
  }
  return run
}
