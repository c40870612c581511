// The relay bench's paced windows, thread by thread: CPU and run-queue wait (procCpu.ts threadRoles) of the engine's
// main thread, its route threads and its other threads, and PostgreSQL's CPU, so a route load's extra time can be
// placed (who spent it, who waited for a core meanwhile).
import type { ThreadRoles } from './procCpu.js'

const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0)

/** A window's CPU and run-queue wait by thread role, ms: where a route load's extra time goes and who waited. */
export interface ThreadMs {
  mainCpu: number
  mainWait: number
  nicedCpu: number
  nicedWait: number
  otherCpu: number
  otherWait: number
  pgCpu: number
  /** the bench's own process: its sockets read the quotes' and the RFQs' broadcasts */
  loadCpu: number
}
export function rolesSince(a: ThreadRoles, b: ThreadRoles, pgUs: number, loadUs: number): ThreadMs {
  const ms = (x: number) => x / 1000
  return {
    mainCpu: ms(b.main.cpuUs - a.main.cpuUs),
    mainWait: ms(b.main.waitUs - a.main.waitUs),
    nicedCpu: ms(b.niced.cpuUs - a.niced.cpuUs),
    nicedWait: ms(b.niced.waitUs - a.niced.waitUs),
    otherCpu: ms(b.other.cpuUs - a.other.cpuUs),
    otherWait: ms(b.other.waitUs - a.other.waitUs),
    pgCpu: ms(pgUs),
    loadCpu: ms(loadUs),
  }
}
export function sumThreads(ws: ThreadMs[]): ThreadMs {
  const keys = ['mainCpu', 'mainWait', 'nicedCpu', 'nicedWait', 'otherCpu', 'otherWait', 'pgCpu', 'loadCpu'] as const
  return Object.fromEntries(keys.map(k => [k, sum(ws, w => w[k])])) as unknown as ThreadMs
}
