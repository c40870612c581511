// CPU time read from /proc (Linux), the benches' one reader of it: per-quote costs that hold on a machine shared
// with other work better than wall-clock rates do, since a thread's or a process's own CPU is what it cost,
// whoever else ran meanwhile. Threads are read from /proc/<pid>/task/<tid>/schedstat (nanoseconds on the CPU); a
// process tree (PostgreSQL's postmaster and its children) from /proc/<pid>/stat (clock ticks); the machine from
// /proc/stat (every core's busy time: all but idle and iowait). Returns 0s where /proc is missing (not Linux).
import { readFileSync, readdirSync } from 'node:fs'
import type { Sql } from '../../engine/store/db.js'

const TICK_US = 10_000 // USER_HZ is 100 on every Linux ABI Node runs on: /proc/<pid>/stat times are in these

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined // gone between the listing and the read, or not Linux
  }
}

/** µs on the CPU of one thread of a process (tid = pid for its main thread). */
function threadUs(pid: number, tid: number): number {
  const s = read(`/proc/${pid}/task/${tid}/schedstat`)
  return s ? Number(s.split(' ')[0]) / 1000 : 0
}

/**
 * The main thread's µs and the sum of every other live thread's, of process `pid` and its children (the route
 * process); `children: false`, of `pid` alone (a bench whose children are its PostgreSQL server).
 */
export function processThreads(pid: number, { children = true } = {}): { mainUs: number; otherUs: number } {
  let otherUs = 0
  for (const p of children ? [pid, ...childPids(pid)] : [pid])
    for (const t of tasksOf(p)) if (Number(t) !== pid) otherUs += threadUs(p, Number(t))
  return { mainUs: threadUs(pid, pid), otherUs }
}

function tasksOf(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`)
  } catch {
    return [] // the process is gone, or not Linux
  }
}

/** The live processes whose parent is `pid` (the engine's route process, SOR_LANE=process). */
export function childPids(pid: number): number[] {
  let names: string[] = []
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  return names.map(Number).filter(c => Number.isInteger(c) && c !== pid && statOf(c)?.ppid === pid)
}

/** µs on the CPU of `pid`'s live children, all their threads (the engine's route process). */
export function childrenUs(pid: number): number {
  let us = 0
  for (const c of childPids(pid)) for (const t of tasksOf(c)) us += threadUs(c, Number(t))
  return us
}

const VOLUNTARY = /^voluntary_ctxt_switches:\s+(\d+)/m
const INVOLUNTARY = /^nonvoluntary_ctxt_switches:\s+(\d+)/m
/**
 * Each live thread of process `pid` (not its children): µs on a CPU and its context switches, voluntary (it slept:
 * each is a wake-up later) and not (preempted). By thread id.
 */
export function threadsOf(pid: number): Map<number, { cpuUs: number; wakes: number; preempted: number }> {
  const out = new Map<number, { cpuUs: number; wakes: number; preempted: number }>()
  for (const t of tasksOf(pid)) {
    const status = read(`/proc/${pid}/task/${t}/status`)
    const cpuUs = threadUs(pid, Number(t))
    if (!status) continue
    const n = (re: RegExp) => Number(re.exec(status)?.[1] ?? 0)
    out.set(Number(t), { cpuUs, wakes: n(VOLUNTARY), preempted: n(INVOLUNTARY) })
  }
  return out
}

export interface ThreadTimes {
  /** µs on a CPU */
  cpuUs: number
  /** µs runnable but waiting for a CPU (run-queue wait): what other work on the cores cost this thread */
  waitUs: number
}
export interface ThreadRoles {
  main: ThreadTimes
  /** threads at a niceness above 0: the route threads (SOR_THREAD_NICE) */
  niced: ThreadTimes
  /** every other thread: signature workers, V8's GC helpers, libuv */
  other: ThreadTimes
}

/**
 * A process's threads' CPU and run-queue wait by role (schedstat's first two fields; the niceness from stat), its
 * children's threads (the route process: all niced) counted with them.
 */
export function threadRoles(pid: number): ThreadRoles {
  const roles: ThreadRoles = {
    main: { cpuUs: 0, waitUs: 0 },
    niced: { cpuUs: 0, waitUs: 0 },
    other: { cpuUs: 0, waitUs: 0 },
  }
  for (const p of [pid, ...childPids(pid)])
    for (const t of tasksOf(p)) {
      const sched = read(`/proc/${p}/task/${t}/schedstat`)?.split(' '),
        stat = read(`/proc/${p}/task/${t}/stat`)
      if (!sched || !stat) continue
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
      const role = Number(t) === pid ? roles.main : nice > 0 ? roles.niced : roles.other
      role.cpuUs += Number(sched[0]) / 1000
      role.waitUs += Number(sched[1]) / 1000
    }
  return roles
}

/**
 * A process's utime + stime + cutime + cstime in µs (all its threads, the exited ones too, and its reaped
 * children's), and its parent's pid.
 */
function statOf(pid: number): { us: number; ppid: number } | undefined {
  const s = read(`/proc/${pid}/stat`)
  if (!s) return undefined
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ') // fields from the 3rd on: the command may hold spaces
  return { us: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_US, ppid: Number(f[1]) }
}

/** A process tree (PostgreSQL's postmaster and its children) at one moment: each live child's µs and role by pid,
 *  and the root's own (its reaped children's included). */
export interface TreeSnapshot {
  rootUs: number
  children: Map<number, { us: number; role: string }>
}

const ROLE = /^(checkpointer|background writer|walwriter|autovacuum|logical replication|io worker)/
/**
 * The tree of `rootPid` as it is now. A child's role is its title after "postgres: " (a backend's is "user db host
 * state", so every backend is "backend"). Throws when the root is not running.
 */
export function processTree(rootPid: number): TreeSnapshot {
  const root = statOf(rootPid)
  if (!root) throw new Error(`no process with pid ${rootPid}`)
  const children = new Map<number, { us: number; role: string }>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === rootPid) continue
    const s = statOf(pid)
    if (!s || s.ppid !== rootPid) continue
    const title = (read(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ').trim()
    children.set(pid, {
      us: s.us,
      role: ROLE.exec(title.startsWith('postgres: ') ? title.slice(10) : title)?.[1] ?? 'backend',
    })
  }
  return { rootUs: root.us, children }
}

/** treeSince's role for the root's own time and its children's that ended in the phase, whatever they were */
export const ENDED = 'postmaster and ended processes'

/**
 * What the tree spent between two snapshots, by role; the root's own and its ended children's as ENDED. A child that
 * ended in between reaches the root's reaped-children time with its whole life, so what it had spent before `a` is
 * taken back out there: the root is charged only the phase's part. Which role an ended child had is not known after
 * it is reaped; one born and ended in the phase (an autovacuum worker) counts here whole. (Subtracting two sums role
 * by role kept the total right but charged the root with an ended child's whole life and its own role with minus
 * what it had before: a connection that idled out in the relay's throughput phase showed as ~8 µs a quote there.)
 */
export function treeSince(a: TreeSnapshot, b: TreeSnapshot): Map<string, number> {
  let postmaster = b.rootUs - a.rootUs
  for (const [pid, was] of a.children) if (!b.children.has(pid)) postmaster -= was.us
  const out = new Map<string, number>([[ENDED, postmaster]])
  for (const [pid, now] of b.children)
    out.set(now.role, (out.get(now.role) ?? 0) + now.us - (a.children.get(pid)?.us ?? 0))
  return out
}

/** The µs of treeSince's roles together: the tree's whole time between two snapshots. */
export function treeUsSince(a: TreeSnapshot, b: TreeSnapshot): number {
  return totalUs(treeSince(a, b))
}

/** The µs of treeSince's roles together. */
export function totalUs(roles: Map<string, number>): number {
  let us = 0
  for (const part of roles.values()) us += part
  return us
}

/**
 * The postmaster's pid of the server `sql` talks to: the parent of the backend serving this connection. The
 * server must run on this machine, in this pid namespace (an embedded one, or DATABASE_URL's on localhost).
 */
export async function postmasterPid(sql: Sql): Promise<number> {
  const [row] = await sql`select pg_backend_pid() as pid`
  const ppid = statOf(Number(row!.pid))?.ppid
  if (ppid === undefined || !Number.isInteger(ppid) || ppid <= 1)
    throw new Error(`PostgreSQL backend ${row!.pid} is not a process on this machine`)
  return ppid
}

/** Busy µs of the whole machine, summed over its cores. */
export function machineBusyUs(): number {
  const line = read('/proc/stat')?.split('\n')[0]
  if (!line?.startsWith('cpu ')) return 0
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_US
}
