// The bytes the main thread allocates over a stretch, read from V8's own record of each collection (v8.GCProfiler):
// what the heap held before each one, less what the one before left, plus the growth since the last. Nothing runs a
// sample: V8's sampling heap profiler, which the relay bench used to count allocation with, took a stack trace every
// 32 KiB (~30,000 a run) on the very thread whose CPU a quote the bench reports, ~2.5 µs a quote of it (issue 29).
// A collection sweeps old space concurrently, so what a mark-compact frees may show a little late: a difference is
// never counted below zero, and the count is a floor within a few per cent (docs/benchmarks.md).
import { GCProfiler, getHeapStatistics } from 'node:v8'

/** Starts counting; the function it returns stops and answers the bytes allocated since. */
export function countAllocation(): () => number {
  const profiler = new GCProfiler()
  const start = getHeapStatistics().used_heap_size
  profiler.start()
  return () => {
    const end = getHeapStatistics().used_heap_size
    const { statistics } = profiler.stop()
    let bytes = 0,
      after = start
    for (const gc of statistics) {
      bytes += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - after)
      after = gc.afterGC.heapStatistics.usedHeapSize
    }
    return bytes + Math.max(0, end - after)
  }
}
