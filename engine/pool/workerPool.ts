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

export function createWorkerPool(threads: number): WorkerPool {
  // Callers bound their own concurrency (the batcher, the route finder's timeout). Piscina's 'auto'
  // queue (threads squared) would reject a relay batch while route searches wait, or the reverse.
  const piscina = new Piscina({ minThreads: threads, maxThreads: threads, idleTimeout: 60_000, maxQueue: 4096 })
  return {
    threads,
    run: <I, O>(task: string, input: I) => piscina.run(input, { filename: taskUrl(task) }) as Promise<O>,
    get queueSize() { return piscina.queueSize },
    close: () => piscina.close({ force: true }),
  }
}
