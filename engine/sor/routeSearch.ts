// One route task on the route lane: the searches of one pair, at one or more amounts, on the route threads'
// copy of the graph (routeThread.ts). Each has SOR_QUOTE_TIMEOUT_MS: the thread stops searching a little
// before it (and answers timedOut), and at it the engine aborts the task, which drops it from the queue or
// stops its thread (Piscina starts another, which asks the graph anew). Either way: 503 SEARCH_TIMEOUT.
import type { Config } from '../config.js'
import type { WorkerPool } from '../pool/workerPool.js'
import { ROUTE_TASK } from '../pool/lanes.js'
import type { Address } from '../../workers/sor/types.js'
import type { RouteResult } from '../../workers/sor/findRoute.js'
import type { RouteTask, RouteTaskResult } from './graphMessages.js'
import type { GraphFeed } from './graphFeed.js'
import { fail } from './errors.js'

export interface SearchDeps { routePool: WorkerPool; feed: GraphFeed; config: Pick<Config, 'SOR_QUOTE_TIMEOUT_MS'> }

export interface SearchQuery {
  tokenIn: Address
  tokenOut: Address
  maxHops: 1 | 2
  maxRoutes: number
  maxSplit: number
  slugs: string[] | null
}

/** How long before the engine's abort the thread stops by itself: room for its answer to come back. */
export function threadMargin(ms: number): number {
  return Math.min(50, Math.floor(ms / 10))
}

export async function searchRoutes(d: SearchDeps, q: SearchQuery, amounts: bigint[]): Promise<RouteResult[]> {
  const ms = d.config.SOR_QUOTE_TIMEOUT_MS
  const deadline = Date.now() + ms
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), ms)
  const task: RouteTask = {
    graph: d.feed.id, version: d.feed.version, tokenIn: q.tokenIn, tokenOut: q.tokenOut, amounts,
    maxHops: q.maxHops, maxRoutes: q.maxRoutes, maxSplit: q.maxSplit, ...(q.slugs ? { slugs: q.slugs } : {}),
    deadline: deadline - threadMargin(ms),
  }
  try {
    const out = await d.routePool.run<RouteTask, RouteTaskResult<RouteResult>>(ROUTE_TASK, task, { signal: abort.signal })
    if (out.timedOut) throw fail({ code: 'SEARCH_TIMEOUT', ms })
    return out.results
  } catch (e) {
    if (abort.signal.aborted) throw fail({ code: 'SEARCH_TIMEOUT', ms })          // dropped from the queue, or its thread stopped
    if (e instanceof Error && e.message === 'Task queue is at limit') throw fail({ code: 'SEARCH_BUSY', waiting: d.routePool.queueSize })
    throw e
  } finally {
    clearTimeout(timer)
  }
}
