// The CPU a PostgreSQL server spends, read from /proc: its postmaster and every process it started (backends,
// the WAL writer, the checkpointer, autovacuum...). A backend that exited meanwhile is counted too: once reaped,
// its time is in the postmaster's cutime/cstime. The server must run on this machine, in this pid namespace.
import { readdirSync, readFileSync } from 'node:fs'
import type { Sql } from '../../engine/store/db.js'

const TICKS_PER_SEC = 100 // Linux USER_HZ: /proc/<pid>/stat times are in these

/** Fields after "pid (comm) ": [0] is the state (field 3), [1] the ppid (4), [11..14] utime, stime, cutime, cstime. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  } // gone between the listing and the read
}

/** The postmaster's pid of the server `sql` talks to: the parent of the backend serving this connection. */
export async function postmasterPid(sql: Sql): Promise<number> {
  const [row] = await sql`select pg_backend_pid() as pid`
  const ppid = Number(statFields(Number(row!.pid))?.[1])
  if (!Number.isInteger(ppid) || ppid <= 1)
    throw new Error(`PostgreSQL backend ${row!.pid} is not a process on this machine`)
  return ppid
}

/**
 * User + system CPU microseconds of a PostgreSQL server: the postmaster (with its reaped children's times) and
 * its live children. Read twice around a phase; the difference is what the server spent in it.
 */
export function postgresCpuMicros(postmaster: number): number {
  const own = statFields(postmaster)
  if (!own) throw new Error(`no PostgreSQL postmaster with pid ${postmaster}`)
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const f = statFields(Number(name))
    if (f && Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])
  }
  return (ticks / TICKS_PER_SEC) * 1e6
}
