// The relay bench's CPU per accepted quote, read from /proc at the start and the end of its throughput phase:
// the engine's main thread, its other threads (signature pool, V8's GC helpers, libuv), the PostgreSQL server's
// processes (and the same by process role: the writer's backends, the WAL writer...), the load generator (this
// process) and the whole machine. The machine's figure holds everything on it, other work included: on a shared
// machine it is an upper bound.
import { availableParallelism } from 'node:os'
import {
  processThreads,
  processTree,
  treeSince,
  totalUs,
  machineBusyUs,
  threadsOf,
  type TreeSnapshot,
} from './procCpu.js'

export interface CpuSnapshot {
  mainUs: number
  otherUs: number
  /** the PostgreSQL server's processes (procCpu.ts treeSince: by role, backend, walwriter, checkpointer...) */
  pg: TreeSnapshot
  loadUs: number
  machineUs: number
  atMs: number
  /** the engine's own threads by id (not the route process's) */
  threads: ReturnType<typeof threadsOf>
  enginePid: number
}

/** `postmaster`: the PostgreSQL server's (procCpu.ts postmasterPid) */
export function cpuSnapshot(enginePid: number, postmaster: number): CpuSnapshot {
  const { mainUs, otherUs } = processThreads(enginePid)
  const u = process.cpuUsage()
  return {
    mainUs,
    otherUs,
    pg: processTree(postmaster),
    loadUs: u.user + u.system,
    machineUs: machineBusyUs(),
    atMs: performance.now(),
    threads: threadsOf(enginePid),
    enginePid,
  }
}

export function cpuPerQuoteLines(
  a: CpuSnapshot,
  b: CpuSnapshot,
  accepted: number,
  ceiling: number,
  rate: number,
): string[] {
  const per = (x: number) => (x / accepted).toFixed(1)
  const cores = availableParallelism()
  const pgRoles = treeSince(a.pg, b.pg),
    pgUs = totalUs(pgRoles)
  const busy = ((b.machineUs - a.machineUs) / ((b.atMs - a.atMs) * 1000 * cores)) * 100
  return [
    `main-thread CPU per accepted quote: ${per(b.mainUs - a.mainUs)} µs`,
    `engine other threads CPU per accepted quote: ${per(b.otherUs - a.otherUs)} µs`,
    `PostgreSQL CPU per accepted quote: ${per(pgUs)} µs`,
    // which thread is which is not in /proc (Node names none): at POOL_THREADS=1 the busiest but the main thread is
    // signature recovery, then the group commit's; the four alike are V8's platform threads (GC helpers)
    `engine threads per accepted quote, busiest first (µs, wake-ups, preemptions): ${[...b.threads]
      .map(([tid, t]) => {
        const was = a.threads.get(tid) ?? { cpuUs: 0, wakes: 0, preempted: 0 }
        return { tid, us: t.cpuUs - was.cpuUs, wakes: t.wakes - was.wakes, preempted: t.preempted - was.preempted }
      })
      .filter(t => t.us / accepted >= 0.05)
      .sort((x, y) => y.us - x.us)
      .map(
        t =>
          `${t.tid === b.enginePid ? 'main ' : ''}${per(t.us)} / ${(t.wakes / accepted).toFixed(3)} / ${(t.preempted / accepted).toFixed(3)}`,
      )
      .join(', ')}`,
    `PostgreSQL CPU by process per accepted quote (µs): ${[...pgRoles]
      .filter(([, us]) => us > 0)
      .sort((x, y) => y[1] - x[1])
      .map(([role, us]) => `${role} ${per(us)}`)
      .join(', ')}`,
    `load generator CPU per accepted quote: ${per(b.loadUs - a.loadUs)} µs`,
    `machine CPU per accepted quote: ${per(b.machineUs - a.machineUs)} µs`,
    `validated quotes/s: ${Math.round(rate)}/s (${((rate / ceiling) * 100).toFixed(0)}% of ceiling)`,
    // how much of the machine the phase used: the rest is idle (admission's BUSY backs the makers off) or not ours
    `machine busy during the throughput phase: ${busy.toFixed(0)}% of ${cores} cores`,
  ]
}

/** A phase's CPU per accepted quote in brief (µs): the engine's main thread and other threads, PostgreSQL, the machine. */
export function cpuBrief(a: CpuSnapshot, b: CpuSnapshot, accepted: number): string {
  const per = (x: number) => (x / Math.max(1, accepted)).toFixed(1)
  return (
    `main thread ${per(b.mainUs - a.mainUs)}, other engine threads ${per(b.otherUs - a.otherUs)}, ` +
    `PostgreSQL ${per(totalUs(treeSince(a.pg, b.pg)))}, machine ${per(b.machineUs - a.machineUs)} µs per accepted quote`
  )
}
