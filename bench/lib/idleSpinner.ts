// A process that only burns CPU at the lowest priority Linux has (SCHED_IDLE, niceness 19), `busyMs` of every 10 ms:
// no memory traffic, no system calls but its sleep. The relay bench runs one during its control windows
// (BENCH_CONTROL_SPIN) to ask whether the route searches slow the relay by what they do (their memory, their
// messages) or merely by keeping a core busy that would otherwise halt: on a VM the guest's scheduler ranks its own
// threads, but the host sees a busy vCPU either way.
import { spawn, type ChildProcess } from 'node:child_process'
import { processThreads } from './procCpu.js'

export interface IdleSpinner {
  /** node's pid: chrt and nice exec what they run */
  readonly pid: number | undefined
  /** stops it; answers the CPU its spinning thread had, ms */
  stop(): number
}

export function startIdleSpinner(busyMs: number): IdleSpinner {
  const ms = Math.min(10, Math.max(0, busyMs))
  // Atomics.wait on a private buffer: a sleep of the thread itself, no timer or event loop in between
  const code = `const s = new Int32Array(new SharedArrayBuffer(4));
for (;;) { const end = performance.now() + ${ms}; while (performance.now() < end); if (${10 - ms} > 0) Atomics.wait(s, 0, 0, ${10 - ms}) }`
  const child: ChildProcess = spawn('chrt', ['--idle', '0', 'nice', '-n', '19', process.execPath, '-e', code], {
    stdio: 'ignore',
  })
  child.on('error', e => console.error(`BENCH_CONTROL_SPIN: could not start chrt (util-linux): ${e.message}`))
  return {
    pid: child.pid,
    stop() {
      // chrt and nice exec what they run, so the pid is node's
      const ms = child.pid === undefined ? 0 : processThreads(child.pid, { children: false }).mainUs / 1000
      child.kill('SIGKILL')
      return ms
    },
  }
}
