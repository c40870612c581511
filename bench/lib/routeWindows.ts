// The relay bench's paced windows of three kinds, read against each other (issue 34's R):
//   without: quotes paced, nothing else;
//   with route searches: the same while RFQs are created at a rate, each with its server-side baseline searched on
//     the route graph;
//   with creations alone: the same creations on a pair the graph does not hold, so each baseline is stored missing
//     (TOKEN_NOT_FOUND) without a search. The control: what an RFQ's creation costs the relay by itself (its insert,
//     its broadcast to the makers, its baseline's row), apart from the route finder's search.
// R is "with route searches vs without", as the issue defines it; "with route searches vs with creations alone" is
// what the searches add on their own.
import { percentiles } from './load.js'
import type { Stalls } from './stalls.js'
import type { ThreadMs } from './windowThreads.js'

export interface PacedWindow {
  latencies: number[]
  stalls: Stalls
  ownStalls: Stalls
}
/** a kind's windows pooled: its p99 over all their quotes, the engine's CPU, the longest of its stalls */
export interface Pooled extends Stalls {
  p99: number
  cpuMs: number
  threads: ThreadMs
}
export interface Kind<W extends PacedWindow> {
  windows: W[]
  pooled: Pooled
}

const f1 = (x: number) => x.toFixed(1)
const p99s = (ws: PacedWindow[]) => ws.map(w => percentiles(w.latencies).p99)
/** the median of the windows' own p99s (the bench's percentile: with an even count, the upper) */
const medianP99 = (ws: PacedWindow[]) => percentiles(p99s(ws)).p50

/** The lines that compare the three kinds, printed after the relay bench's table. */
export function routeWindowLines<W extends PacedWindow>(
  off: Kind<W>,
  on: Kind<W>,
  bare: Kind<W> | null,
  /** what the control windows held, where more than the creations (BENCH_CONTROL_SPIN) */
  controlName: string | null = null,
): string[] {
  const kinds = bare ? [off, on, bare] : [off, on]
  const control = controlName ?? 'creations alone'
  const names = bare ? `without / with route searches / with ${control}` : 'without / with route searches'
  const each = (f: (p: Pooled) => string) => kinds.map(k => f(k.pooled)).join(' / ')
  const threads = (k: keyof ThreadMs) => kinds.map(x => x.pooled.threads[k].toFixed(0)).join(' / ')
  // a window's outlier told apart: the engine's main thread stalled (its longest event-loop delay, a major GC of
  // its heap among them) or this process's did (its own GC: the pre-signed quotes make a big heap)
  const byWindow = (ws: PacedWindow[]) =>
    p99s(ws)
      .map((p, i) => {
        const w = ws[i]!
        return `${p.toFixed(1)} (stalls: engine ${w.stalls.loopMax.toFixed(0)}, generator ${w.ownStalls.loopMax.toFixed(0)})`
      })
      .join(', ')
  const ratio = (a: Kind<W>, b: Kind<W>, what: string) =>
    `${what}: ${(a.pooled.p99 / b.pooled.p99).toFixed(2)} (${a.pooled.p99.toFixed(2)} ms vs ${b.pooled.p99.toFixed(2)} ms; engine CPU ${a.pooled.cpuMs.toFixed(0)} vs ${b.pooled.cpuMs.toFixed(0)} ms)`
  // the same ratio read window by window: a stall that lands in one window (a major GC, the VM's) moves the pooled
  // p99 of its kind and not the median of the windows' own
  const medianRatio = (a: Kind<W>, b: Kind<W>, what: string) => {
    const x = medianP99(a.windows),
      y = medianP99(b.windows)
    return `${what}, median of the windows' p99s: ${(x / y).toFixed(2)} (${x.toFixed(2)} ms vs ${y.toFixed(2)} ms)`
  }
  const lines = [
    `main-thread stalls paced ${names}: event-loop delay p99 ${each(p => f1(p.loopP99))} ms, longest ${each(p => f1(p.loopMax))} ms; GC pauses ${each(p => f1(p.gcMs))} ms, longest ${each(p => f1(p.gcMax))} ms (scavenges ${each(p => f1(p.minorMs))} ms; mark-compacts ${each(p => f1(p.majorMs))} ms, longest ${each(p => f1(p.majorMax))} ms)`,
    `CPU and run-queue wait in the paced windows ${names} (ms): main thread CPU ${threads('mainCpu')}, wait ${threads('mainWait')}; route threads CPU ${threads('nicedCpu')}, wait ${threads('nicedWait')}; other engine threads CPU ${threads('otherCpu')}, wait ${threads('otherWait')}; PostgreSQL CPU ${threads('pgCpu')}; load generator CPU ${threads('loadCpu')}`,
    `paced p99 by window (ms), without: ${byWindow(off.windows)}; with route searches: ${byWindow(on.windows)}${bare ? `; with ${control}: ${byWindow(bare.windows)}` : ''}`,
  ]
  if (bare) {
    lines.push(
      medianRatio(bare, off, `paced p99 with ${controlName ?? 'RFQ creations alone (no route search)'} vs without`),
      ratio(bare, off, `paced p99 with ${controlName ?? 'RFQ creations alone (no route search)'} vs without`),
      medianRatio(
        on,
        bare,
        `paced p99 with route searches vs with ${control}${controlName ? '' : " (the searches' own share)"}`,
      ),
      ratio(
        on,
        bare,
        `paced p99 with route searches vs with ${control}${controlName ? '' : " (the searches' own share)"}`,
      ),
    )
  }
  lines.push(
    medianRatio(on, off, 'paced p99 with route searches vs without'),
    ratio(on, off, 'paced p99 with route searches vs without'),
  )
  return lines
}
