// The two lanes of worker threads, sized from POOL_THREADS at the composition root.
//   sig:   signature recovery for the relay's quotes (POOL_THREADS threads, POOL_TASKS_PER_THREAD batches each);
//   route: route searches (SOR_THREADS threads, default half of POOL_THREADS and at least one), one search
//          per thread at a time so a search past its deadline can be stopped (an abortable task owns its
//          thread), each thread at a lower OS priority (SOR_THREAD_NICE) so the relay's work runs first when
//          both want the cores. With SOR_LANE=process (the default) the route threads live in a child process
//          under SCHED_IDLE whole (routeProcess.ts); with SOR_LANE=thread in the engine's own process.
// A route search never holds a signature batch up: they never share a thread, and the route lane waits for
// the CPU behind the relay's threads.
import { BroadcastChannel } from 'node:worker_threads'
import { randomUUID } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import type { Config } from '../config.js'
import { repoRoot } from '../paths.js'
import { createWorkerPool, type WorkerPool } from './workerPool.js'
import { createRouteProcess } from './routeProcess.js'
import type { RouteLane } from './routeLane.js'

export type { GraphLink, RouteLane } from './routeLane.js'

export interface Lanes {
  sig: WorkerPool
  route: RouteLane
}

/** The route thread's module: it keeps the graph and searches it (engine/sor/routeThread.ts). */
export const ROUTE_TASK = pathToFileURL(join(repoRoot, 'dist/engine/sor/routeThread.js')).href

/** Route searches that may wait per route thread; past it a quote is refused busy rather than queued longer. */
export const ROUTE_QUEUE_PER_THREAD = 32

export function routeThreads(config: Pick<Config, 'POOL_THREADS' | 'SOR_THREADS'>): number {
  return config.SOR_THREADS ?? Math.max(1, Math.floor(config.POOL_THREADS / 2))
}

type LaneConfig = Pick<Config, 'POOL_THREADS' | 'POOL_TASKS_PER_THREAD' | 'SOR_THREADS' | 'SOR_THREAD_NICE'> &
  Partial<Pick<Config, 'SOR_THREAD_POLICY' | 'SOR_LANE'>>

/** `onRouteExit`: the route process ended unasked (the lane starts another) */
export function createLanes(config: LaneConfig, onRouteExit?: (why: string) => void): Lanes {
  const threads = routeThreads(config),
    nice = config.SOR_THREAD_NICE,
    idle = config.SOR_THREAD_POLICY === 'idle'
  return {
    sig: createWorkerPool(config.POOL_THREADS, config.POOL_TASKS_PER_THREAD),
    route:
      (config.SOR_LANE ?? 'process') === 'process'
        ? createRouteProcess(threads, { nice, idle, ...(onRouteExit ? { onExit: onRouteExit } : {}) })
        : createRouteLane(threads, nice, idle),
  }
}

/** How long a closing route lane waits for its threads to finish loading their module. */
const LOADED_WITHIN_MS = 5000

export function createRouteLane(threads: number, nice = 0, idle = false): RouteLane {
  const graphChannel = `sor/graph/${randomUUID()}`
  const pool = createWorkerPool(threads, {
    tasksPerThread: 1,
    maxQueue: threads * ROUTE_QUEUE_PER_THREAD,
    preload: ROUTE_TASK,
    workerData: { channel: graphChannel, nice, idle },
  })
  return {
    threads,
    openGraphLink(hear) {
      const channel = new BroadcastChannel(graphChannel)
      channel.unref()
      channel.onmessage = (event: unknown) => hear((event as { data: unknown }).data)
      return { post: msg => channel.postMessage(msg), close: () => channel.close() }
    },
    run: (task, input, options) => pool.run(task, input, options),
    get queueSize() {
      return pool.queueSize
    },
    // A thread stopped while Node still loads its module (a require of an ES module, cut midway) takes the whole
    // process down, and the route threads load theirs as they start: a ping answered by each means it is loaded.
    async close(withinMs = LOADED_WITHIN_MS) {
      // a ping that fails is a thread already gone or broken: nothing to wait for, the close stops it either way
      const pings = Array.from({ length: threads }, () => pool.run(ROUTE_TASK, { ping: true }).catch(() => null))
      await Promise.race([Promise.all(pings), new Promise(r => setTimeout(r, withinMs).unref())])
      await pool.close()
    },
  }
}
