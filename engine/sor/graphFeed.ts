// The engine's side of the route threads' copies (replica.ts): every change of the graph's states goes out on
// the route lane's graph link as a delta (the pools that changed) or, when all were replaced, as a snapshot; a
// thread that starts, or lost step, asks and gets a snapshot. A snapshot of a big graph goes a part per
// event-loop turn, so the relay's work runs between the parts. `version` is what a quote asks the threads for.
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { PoolState } from '../../workers/sor/types.js'
import { defaultMeta } from '../../workers/sor/routeGraph.js'
import type { PoolGraph } from './poolGraph.js'
import type { RouteLane } from '../pool/lanes.js'
import type { GraphMessage, PoolEntry, ThreadStats } from './graphMessages.js'

/** pools per snapshot part: a few ms of the main thread's structured cloning each, the relay's work in between */
export const SNAPSHOT_PART = 200

export interface GraphFeed {
  /** this graph's name on the lane's graph link */
  readonly id: string
  /** the graph's changes so far: a search asks for a copy at least this new */
  readonly version: number
  /** the route threads' own latest reports of their copies and heaps */
  readonly threads: ReadonlyMap<number, ThreadStats>
  close(): void
}

export function publishGraph(graph: PoolGraph, lane: Pick<RouteLane, 'openGraphLink'>, log: Logger): GraphFeed {
  const id = randomUUID()
  let version = 0,
    generation = 0,
    sending = false,
    again = false,
    closed = false
  const threads = new Map<number, ThreadStats>()
  const link = lane.openGraphLink(heard => {
    const msg = heard as GraphMessage
    if (msg.type === 'stats') {
      threads.set(msg.thread, msg)
      return
    }
    if (msg.type === 'hello' || (msg.type === 'need' && msg.graph === id)) {
      log.debug({ graph: id, asked: msg.type }, 'route graph snapshot to the route threads')
      asked()
    }
  })
  const post = (msg: GraphMessage) => link.post(msg)
  const entry = (state: PoolState): PoolEntry => ({ state, meta: graph.metaOf(state.address) ?? defaultMeta(state) })

  /** The whole graph at the current version; a newer snapshot stops an older one's remaining parts. */
  const snapshot = (): void => {
    const run = ++generation,
      at = version,
      states = [...graph.states.values()]
    sending = true
    const parts = Math.max(1, Math.ceil(states.length / SNAPSHOT_PART))
    let part = 0
    const next = () => {
      if (run !== generation || closed) return
      const pools = states.slice(part * SNAPSHOT_PART, (part + 1) * SNAPSHOT_PART).map(entry)
      post({ type: 'snapshot', graph: id, version: at, part, parts, pools })
      if (++part < parts) return void setImmediate(next)
      sending = false
      if (again) {
        again = false
        snapshot()
      } // a thread asked while this one was going out
    }
    next()
  }
  // asked for while a snapshot of this version is going out: one more after it, for the thread that missed its start
  const asked = () => {
    if (sending) again = true
    else snapshot()
  }

  graph.onChange = change => {
    if (change.all) {
      version++
      snapshot()
      return
    }
    post({ type: 'delta', graph: id, from: version, to: ++version, set: change.states.map(entry) })
  }
  snapshot() // for the threads already running
  return {
    id,
    get version() {
      return version
    },
    threads,
    close() {
      closed = true
      graph.onChange = null
      post({ type: 'drop', graph: id })
      link.close()
    },
  }
}
