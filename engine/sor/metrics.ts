// The route finder's /metrics: following the chain, the route threads' copies of the graph (their own
// measure of their heaps: the route graph and its curves are almost all of it), and server-side baselines.
import type { Metrics } from '../metrics.js'
import type { ServerBaselines, MissCode } from './baselineQueue.js'
import type { GraphFeed } from './graphFeed.js'
import type { SorService } from './service.js'

/** a thread that has not reported for this long is gone (stopped at a deadline, or closed) */
const STALE_MS = 15_000

export function sorMetrics(metrics: Metrics, sor: SorService): void {
  const gauge = (name: string, help: string, collect: () => number) => metrics.gauge(name, help, collect)
  const follow = () => sor.follow
  const counter = (name: string, help: string, collect: () => number) => metrics.counter(name, help, collect)
  counter(
    'sor_follow_blocks_total',
    'blocks the route finder followed (logs read, touched pools re-read)',
    () => follow()?.blocks ?? 0,
  )
  counter(
    'sor_follow_pools_reread_total',
    'pools re-read because they logged in a followed block',
    () => follow()?.rereads ?? 0,
  )
  counter(
    'sor_follow_rpc_calls_total',
    'RPC calls made following the chain (multicall batches count once)',
    () => follow()?.rpcCalls ?? 0,
  )
  metrics.counterBy('sor_follow_reloads_total', 'full reloads of pools and state, by reason', 'reason', () =>
    (['start', 'reorg', 'gap', 'failure'] as const).map(r => [r, follow()?.reloads[r] ?? 0] as const),
  )
  gauge('sor_graph_pools_with_state', 'pools whose state the route graph holds', () => sor.graph.states.size)
  gauge(
    'sor_route_threads_heap_bytes',
    'heap the route threads use (graph copies, curves), as each measured it last',
    () => sum(sor.feed, t => t.heapBytes),
  )
  gauge('sor_route_threads_curves', 'pool curves the route threads keep (bounded per thread)', () =>
    sum(sor.feed, t => t.curves),
  )
}

export function baselineMetrics(metrics: Metrics, b: ServerBaselines): void {
  const gauge = (name: string, help: string, collect: () => number) => metrics.gauge(name, help, collect)
  gauge('sor_baselines_waiting', 'RFQs waiting for a server-side baseline search', () => b.stats.waiting)
  gauge('sor_baselines_searching', 'server-side baseline route tasks under way', () => b.stats.searching)
  const counter = (name: string, help: string, collect: () => number) => metrics.counter(name, help, collect)
  counter(
    'sor_baseline_searches_total',
    'route tasks run for server-side baselines (one per pair and window)',
    () => b.stats.searches,
  )
  counter(
    'sor_baselines_coalesced_total',
    'RFQs that joined a search already waiting on their pair',
    () => b.stats.coalesced,
  )
  counter('sor_baselines_stored_total', 'server-side baselines stored', () => b.stats.stored)
  const codes: MissCode[] = [
    'EXACT_OUT',
    'QUEUE_FULL',
    'DEADLINE',
    'NO_ROUTE',
    'SEARCH_TIMEOUT',
    'SEARCH_BUSY',
    'SEARCH_UNAVAILABLE',
    'TOKEN_NOT_FOUND',
    'SHUTDOWN',
    'ERROR',
  ]
  metrics.counterBy('sor_baselines_missing_total', 'server-side baselines stored missing, by code', 'code', () =>
    codes.map(code => [code, b.stats.missing[code] ?? 0] as const),
  )
}

function sum(feed: GraphFeed, f: (t: { heapBytes: number; curves: number }) => number): number {
  let n = 0
  const now = Date.now()
  for (const t of feed.threads.values()) if (now - t.at < STALE_MS) n += f(t)
  return n
}
