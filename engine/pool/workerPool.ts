// A Piscina pool: one lane of worker threads. The composition root builds two (lanes.ts): signature recovery
// and route search never share a thread, so a quote batch never waits behind a route search.
import { Piscina } from 'piscina'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'

export interface RunOptions {
  /** aborting drops the task from the queue, or stops its thread if it runs (Piscina starts a fresh one) */
  signal?: AbortSignal
}

export interface WorkerPool {
  /** runs the default export of `workers/<task>.task.js` (relative to dist/workers), or of a file URL, on a thread */
  run<I, O>(task: string, input: I, options?: RunOptions): Promise<O>
  readonly threads: number
  /** tasks waiting for a thread */
  readonly queueSize: number
  close(): Promise<void>
}

export interface PoolOptions {
  /** tasks a thread holds at once (the next waits in its port when one ends); an abortable task takes a thread alone */
  tasksPerThread?: number
  /** tasks that may wait; past it run() rejects at once (Piscina's "Task queue is at limit") */
  maxQueue?: number
  /** what the threads read as `workerData` from 'piscina' */
  workerData?: unknown
  /** a task every thread loads as it starts (its module's own set-up runs then, not at the first task) */
  preload?: string
}

/**
 * The compiled task module's path: `workers/<task>.task.ts`'s, or a file URL's. Made once a task: the relay runs a
 * task a signature batch, and a URL (as this gave before) was turned back into a path by Piscina on each (with the
 * URL's own making, ~1% of the relay's main thread, perf).
 */
export function taskPath(task: string): string {
  let path = paths.get(task)
  if (path === undefined)
    paths.set(
      task,
      (path = task.startsWith('file:') ? fileURLToPath(task) : join(repoRoot, 'dist/workers', `${task}.task.js`)),
    )
  return path
}
const paths = new Map<string, string>()

export function createWorkerPool(threads: number, tasksPerThread: number | PoolOptions = 2): WorkerPool {
  const o: PoolOptions = typeof tasksPerThread === 'number' ? { tasksPerThread } : tasksPerThread
  // Callers bound their own concurrency (the batcher, the route finder's deadline). Piscina's 'auto' queue
  // (threads squared) would reject a relay batch under a burst. More than one task per thread: the next batch
  // already waits in the thread's port when one ends, instead of waiting for the main thread to hear of the
  // end and post it (the thread sat idle for that round trip whenever the main thread was busy).
  const piscina = new Piscina({
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 60_000,
    maxQueue: o.maxQueue ?? 4096,
    concurrentTasksPerWorker: o.tasksPerThread ?? 2,
    ...(o.workerData === undefined ? {} : { workerData: o.workerData }),
    ...(o.preload ? { filename: taskPath(o.preload) } : {}),
  })
  return {
    threads,
    run: <I, O>(task: string, input: I, { signal }: RunOptions = {}) =>
      piscina.run(input, { filename: taskPath(task), ...(signal ? { signal } : {}) }) as Promise<O>,
    get queueSize() {
      return piscina.queueSize
    },
    close: () => piscina.close({ force: true }),
  }
}
