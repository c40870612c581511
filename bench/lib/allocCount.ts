// The main thread's heap over a stretch, read from V8's own record of each collection (v8.GCProfiler):
// - allocated: what the heap held before each collection, less what the one before left, plus the growth since the
//   last. Nothing runs a sample: V8's sampling heap profiler, which the relay bench used to count allocation with,
//   took a stack trace every 32 KiB (~30,000 a run) on the very thread whose CPU a quote the bench reports, ~2.5 µs
//   a quote of it (issue 29). A collection sweeps old space concurrently, so what a mark-compact frees may show a
//   little late: a difference is never counted below zero, and the count is a floor within a few per cent.
// - promoted: what the scavenges moved out of the young generation, as the growth of every other space across each
//   scavenge. It is what later costs a mark-compact, and unlike CPU time it hardly moves from run to run on these
//   VMs (issue 29: the relay's quotes die within ~100 ms, yet ~3 KB of each was promoted). Old space that the
//   concurrent sweeper frees during a scavenge hides as much promotion: a floor too.
// - the collections' count and time on the main thread, scavenges and mark-compacts apart (GCProfiler's `cost`, µs).
import { GCProfiler, getHeapStatistics } from 'node:v8'

export interface HeapCount {
  allocated: number
  promoted: number
  scavenges: number
  scavengeUs: number
  /** mark-compacts; their time with their incremental marking's finalisation steps */
  majors: number
  majorUs: number
}

/** What GCProfiler records of one collection, as far as the count reads it. */
export interface GcRecord {
  gcType: string
  cost: number
  beforeGC: Heap
  afterGC: Heap
}
interface Heap {
  heapStatistics: { usedHeapSize: number }
  heapSpaceStatistics: { spaceName: string; spaceUsedSize: number }[]
}

/** Starts counting; the function it returns stops and answers the count since. */
export function countHeap(): () => HeapCount {
  const profiler = new GCProfiler()
  const start = getHeapStatistics().used_heap_size
  profiler.start()
  return () => {
    const end = getHeapStatistics().used_heap_size
    const { statistics } = profiler.stop() as unknown as { statistics: GcRecord[] }
    return heapCountOf(start, statistics, end)
  }
}

/** Only the bytes allocated (the relay bench's line, and the tests that read one stretch's allocation). */
export function countAllocation(): () => number {
  const stop = countHeap()
  return () => stop().allocated
}

/** The count from the heap's used size at the start and end, and V8's record of each collection between. */
export function heapCountOf(start: number, statistics: readonly GcRecord[], end: number): HeapCount {
  const count: HeapCount = { allocated: 0, promoted: 0, scavenges: 0, scavengeUs: 0, majors: 0, majorUs: 0 }
  let after = start
  for (const gc of statistics) {
    count.allocated += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - after)
    after = gc.afterGC.heapStatistics.usedHeapSize
    if (gc.gcType === 'Scavenge') {
      count.scavenges++
      count.scavengeUs += gc.cost
      count.promoted += Math.max(0, tenured(gc.afterGC) - tenured(gc.beforeGC))
    } else if (gc.gcType === 'MarkSweepCompact') {
      count.majors++
      count.majorUs += gc.cost
    } else if (gc.gcType === 'IncrementalMarking') count.majorUs += gc.cost // a major GC's marking, finalised
  }
  count.allocated += Math.max(0, end - after)
  return count
}

/** the bytes used outside the young generation (new_space and new_large_object_space) */
function tenured(h: Heap): number {
  let n = 0
  for (const s of h.heapSpaceStatistics) if (!s.spaceName.startsWith('new_')) n += s.spaceUsedSize
  return n
}

/** The relay bench's line: the main thread's collections in the throughput phase, per accepted quote. */
export function gcLine(h: HeapCount, quotes: number): string {
  const per = (n: number) => (n / quotes).toFixed(n / quotes < 10 ? 1 : 0)
  return (
    `main-thread GC per accepted quote: promoted ${per(h.promoted)} B, scavenges ${per(h.scavengeUs)} µs, ` +
    `mark-compacts ${per(h.majorUs)} µs (${h.scavenges} scavenges, ${h.majors} mark-compacts in the throughput phase)`
  )
}
