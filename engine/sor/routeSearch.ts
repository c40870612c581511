// One route task on the route lane: the searches of one pair, at one or more amounts, on the route threads'
// copy of the graph (routeThread.ts). Each has SOR_QUOTE_TIMEOUT_MS: at it the caller is answered 503
// SEARCH_TIMEOUT, and the thread stops searching by itself (it checks the deadline as it goes) and is free.
// If it has not answered a grace later (abortGrace), the engine's AbortSignal drops the task from the queue or
// stops its thread (Piscina starts another, which asks for the graph anew).
import type { Config } from '../config.js'
import type { WorkerPool } from '../pool/workerPool.js'
import { ROUTE_TASK } from '../pool/lanes.js'
import { RouteLaneDown } from '../pool/routeProcess.js'
import type { Address } from '../../workers/sor/types.js'
import type { Found, RouteTask, RouteTaskResult } from './graphMessages.js'
import type { GraphFeed } from './graphFeed.js'
import { fail } from './errors.js'

export interface SearchDeps {
  routePool: WorkerPool
  feed: GraphFeed
  config: Pick<Config, 'SOR_QUOTE_TIMEOUT_MS'>
  /** each search that answered, with its time on the lane (queue wait included), in seconds */
  searched?(seconds: number): void
}

export interface SearchQuery {
  tokenIn: Address
  tokenOut: Address
  maxHops: 1 | 2
  maxRoutes: number
  maxSplit: number
  slugs: string[] | null
}

/**
 * How long after its deadline a search's thread may take to stop by itself before the engine stops it: a busy
 * machine may leave the (lower priority) route thread without a core for a while, and a stopped thread costs a
 * new one the whole graph (a snapshot from the main thread).
 */
export function abortGrace(ms: number): number {
  return Math.max(500, Math.floor(ms / 2))
}

export async function searchRoutes(d: SearchDeps, q: SearchQuery, amounts: bigint[]): Promise<Found[]> {
  const ms = d.config.SOR_QUOTE_TIMEOUT_MS
  const abort = new AbortController()
  const task: RouteTask = {
    graph: d.feed.id,
    version: d.feed.version,
    tokenIn: q.tokenIn,
    tokenOut: q.tokenOut,
    amounts,
    maxHops: q.maxHops,
    maxRoutes: q.maxRoutes,
    maxSplit: q.maxSplit,
    ...(q.slugs ? { slugs: q.slugs } : {}),
    deadline: Date.now() + ms,
  }
  const started = performance.now()
  const run = d.routePool.run<RouteTask, RouteTaskResult<Found>>(ROUTE_TASK, task, { signal: abort.signal })
  // the caller has its answer at the deadline; the thread, if it has not stopped by itself, is stopped a grace later
  let timer: NodeJS.Timeout | undefined, backstop: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      backstop = setTimeout(() => abort.abort(), abortGrace(ms))
      reject(fail({ code: 'SEARCH_TIMEOUT', ms }))
    }, ms)
  })
  void run.then(
    () => clearTimeout(backstop),
    () => clearTimeout(backstop),
  )
  try {
    const out = await Promise.race([run, late])
    d.searched?.((performance.now() - started) / 1000)
    if (out.timedOut) throw fail({ code: 'SEARCH_TIMEOUT', ms })
    return out.results
  } catch (e) {
    const full = e instanceof Error && e.message === 'Task queue is at limit'
    if (full) throw fail({ code: 'SEARCH_BUSY', waiting: d.routePool.queueSize })
    if (e instanceof RouteLaneDown) throw fail({ code: 'SEARCH_UNAVAILABLE', reason: e.message })
    throw e
  } finally {
    clearTimeout(timer)
  }
}
