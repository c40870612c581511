// What stalls the engine's main thread within a window: its event loop's delay and V8's GC pauses, read in the
// engine process (perf_hooks) and reset at each read, so the relay bench can tell a main-thread stall from CPU
// taken elsewhere when the route load lengthens the paced tail.
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'

export interface Stalls {
  /** the event loop's delay past its timer, ms: p99 and the longest */
  loopP99: number
  loopMax: number
  /** GC pauses on the main thread, ms: their sum and the longest */
  gcMs: number
  gcMax: number
  /** the same by kind: scavenges (young generation) and mark-sweep-compacts (whole heap), ms */
  minorMs: number
  majorMs: number
  majorMax: number
}

/** Starts watching; each call of the returned function answers since the last call (or the start). */
export function watchStalls(): () => Stalls {
  // 10 ms: a timer that fires within a busy loop costs nothing more; an idle one wakes the process 100 times a
  // second (~2% of a core here), the same in every window
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  let gc = { gcMs: 0, gcMax: 0, minorMs: 0, majorMs: 0, majorMax: 0 }
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) {
      gc.gcMs += e.duration
      gc.gcMax = Math.max(gc.gcMax, e.duration)
      const kind = (e as { detail?: { kind?: number } }).detail?.kind
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minorMs += e.duration
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.majorMs += e.duration
        gc.majorMax = Math.max(gc.majorMax, e.duration)
      }
    }
  }).observe({ entryTypes: ['gc'] })
  return () => {
    const s = { loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6, ...gc }
    loop.reset()
    gc = { gcMs: 0, gcMax: 0, minorMs: 0, majorMs: 0, majorMax: 0 }
    return s
  }
}
