// CPU time read from /proc (Linux), for per-quote costs that hold on a machine shared with other work better than
// wall-clock rates do: a thread's or a process's own CPU is what it cost, whoever else ran meanwhile.
// Threads are read from /proc/<pid>/task/<tid>/schedstat (nanoseconds on the CPU); a process group (PostgreSQL's
// postmaster and its children) from /proc/<pid>/stat's utime + stime (clock ticks) of each process; the machine
// from /proc/stat (every core's busy time: all but idle and iowait). Returns 0s where /proc is missing (not Linux).
import { readFileSync, readdirSync } from 'node:fs'

const TICK_US = 10_000 // USER_HZ is 100 on every Linux ABI Node runs on

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** µs on the CPU of one thread of a process (tid = pid for its main thread). */
function threadUs(pid: number, tid: number): number {
  const s = read(`/proc/${pid}/task/${tid}/schedstat`)
  return s ? Number(s.split(' ')[0]) / 1000 : 0
}

/** The main thread's µs and the sum of every other live thread's, of process `pid`. */
export function processThreads(pid: number): { mainUs: number; otherUs: number } {
  let tids: string[] = []
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return { mainUs: 0, otherUs: 0 }
  }
  let otherUs = 0
  for (const t of tids) if (Number(t) !== pid) otherUs += threadUs(pid, Number(t))
  return { mainUs: threadUs(pid, pid), otherUs }
}

/** utime + stime of a process (all its threads, the exited ones too), in µs; and its parent's pid. */
function statOf(pid: number): { us: number; ppid: number } | undefined {
  const s = read(`/proc/${pid}/stat`)
  if (!s) return undefined
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ') // fields from the 3rd on: the command may hold spaces
  return { us: (Number(f[11]) + Number(f[12])) * TICK_US, ppid: Number(f[1]) }
}

/**
 * CPU µs of a process and all its children (a postmaster's backends, checkpointer, WAL writer...). A child that
 * exits between two readings takes its time with it; the bench's engine keeps its connections, so few do.
 */
export function processTreeUs(rootPid: number): number {
  const root = statOf(rootPid)
  if (!root) return 0
  let us = root.us
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === rootPid) continue
    const s = statOf(pid)
    if (s && s.ppid === rootPid) us += s.us
  }
  return us
}

/** Busy µs of the whole machine, summed over its cores. */
export function machineBusyUs(): number {
  const line = read('/proc/stat')?.split('\n')[0]
  if (!line?.startsWith('cpu ')) return 0
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number)
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_US
}
