// What the lane tests read of a route lane from outside: a spinning task's count (spin.task.ts), and the scheduling
// policy and niceness of a process's threads.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A spinning task's count: shared memory for a thread in this process, a file for one in the route process. */
export function spinCounter(lane: 'process' | 'thread'): { counter: SharedArrayBuffer | string; read(): number } {
  if (lane === 'thread') {
    const counter = new SharedArrayBuffer(4),
      count = new Int32Array(counter)
    return { counter, read: () => Atomics.load(count, 0) }
  }
  const counter = join(mkdtempSync(join(tmpdir(), 'spin-')), 'count')
  return {
    counter,
    read() {
      try {
        return Number(readFileSync(counter, 'utf8'))
      } catch {
        return 0 // not written yet
      }
    },
  }
}

/** a process's threads' scheduling policy and niceness, from /proc (Linux: SCHED_IDLE is policy 5) */
export function threadsSched(pid: number | 'self' = 'self'): { policy: number; nice: number }[] {
  return readdirSync(`/proc/${pid}/task`).flatMap(tid => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // field 3 (state) onwards
      return [{ nice: Number(fields[16]), policy: Number(fields[38]) }]
    } catch {
      return [] // a thread that ended meanwhile
    }
  })
}
