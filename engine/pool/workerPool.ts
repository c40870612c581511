// The Piscina pool, built once at the composition root. One pool serves every task file in
// workers/ (the file is chosen per call), so threads are shared by signature recovery and routing.
import { Piscina } from 'piscina'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'

export interface WorkerPool {
  /** runs the default export of `workers/<task>.task.js` (path relative to dist/workers) on a thread */
  run<I, O>(task: string, input: I): Promise<O>
  readonly threads: number
  readonly queueSize: number
  close(): Promise<void>
}

/** The compiled task module of `workers/<task>.task.ts`. */
export function taskUrl(task: string): string {
  return pathToFileURL(join(repoRoot, 'dist/workers', `${task}.task.js`)).href
}

export function createWorkerPool(threads: number, tasksPerThread = 2): WorkerPool {
  // Callers bound their own concurrency (the batcher, the route finder's timeout). Piscina's 'auto'
  // queue (threads squared) would reject a relay batch while route searches wait, or the reverse.
  // More than one task per thread: the next batch already waits in the thread's port when one
  // ends, instead of waiting for the main thread to hear of the end and post it (the thread sat
  // idle for that round trip whenever the main thread was busy).
  const piscina = new Piscina({ minThreads: threads, maxThreads: threads, idleTimeout: 60_000, maxQueue: 4096, concurrentTasksPerWorker: tasksPerThread })
  return {
    threads,
    run: <I, O>(task: string, input: I) => piscina.run(input, { filename: taskUrl(task) }) as Promise<O>,
    get queueSize() { return piscina.queueSize },
    close: () => piscina.close({ force: true }),
  }
}
