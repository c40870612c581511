// What the engine and its route threads say to each other about the route graph, on one BroadcastChannel per
// route lane. The engine owns the graph (poolGraph.ts); each route thread keeps a copy (replica.ts), so a quote
// ships its query, not its pools. Versions count the engine's changes: a copy is in step at a version once it
// has every change up to it, and a search runs on a copy at least as new as the graph it was asked of.
import type { Address, PoolMeta, PoolState } from '../../workers/sor/types.js'
import type { RouteResult } from '../../workers/sor/findRoute.js'
import type { Routable } from '../../workers/sor/legs.js'

export interface PoolEntry {
  state: PoolState
  meta: PoolMeta
}

/** The whole graph at `version`, in parts (a big graph is sent a part per event-loop turn). */
export interface SnapshotMessage {
  type: 'snapshot'
  graph: string
  version: number
  part: number
  parts: number
  pools: PoolEntry[]
}
/** The pools whose state changed from `from` to `to` (= from + 1). */
export interface DeltaMessage {
  type: 'delta'
  graph: string
  from: number
  to: number
  set: PoolEntry[]
}

export type GraphMessage =
  | SnapshotMessage
  | DeltaMessage
  /** a route thread started: every graph, please */
  | { type: 'hello' }
  /** a route thread's copy of this graph lost step (a gap in the versions): the whole graph again, please */
  | { type: 'need'; graph: string }
  /** the graph is gone (its route finder stopped) */
  | { type: 'drop'; graph: string }
  | ThreadStats

/** A route thread's memory, measured by itself after its copies changed: the heap is almost all graph and curves. */
export interface ThreadStats {
  type: 'stats'
  thread: number
  pools: number
  curves: number
  heapBytes: number
  at: number
}

/** What a quote asks a route thread: searches of one pair, one per amount, on the graph at `version` or newer. */
export interface RouteTask {
  graph: string
  version: number
  tokenIn: Address
  tokenOut: Address
  amounts: bigint[]
  maxHops: 1 | 2
  maxRoutes: number
  maxSplit: number
  slugs?: string[]
  /** epoch ms: past it the thread stops searching and answers timedOut (the engine aborts the task a little later) */
  deadline: number
}

export type RouteTaskResult<R> = { timedOut: false; version: number; results: R[] } | { timedOut: true }

/** A search's result, and what its routes take whole when a hop runs short (fitted on the thread, not the main one). */
export interface Found {
  result: RouteResult
  routable: Routable | null
}

export type { Address }
