// A route thread's copy of one route graph (graphMessages.ts), kept in step with the engine's: a snapshot
// rebuilds it, a delta changes the pools it names. A delta that does not follow the copy's version (a
// message missed, or the thread started late) asks for the whole graph again. Searches wait until the copy
// is at least as new as the version they were asked of.
import { RouteGraph } from '../../workers/sor/routeGraph.js'
import type { DeltaMessage, PoolEntry, SnapshotMessage } from './graphMessages.js'

/** deltas kept while a snapshot arrives; past this many the copy asks for a newer snapshot instead */
const MAX_BUFFERED = 4096

export class Replica {
  graph = new RouteGraph()
  version = -1
  private incoming: { version: number; parts: (PoolEntry[] | undefined)[]; got: number } | null = null
  private buffered: DeltaMessage[] = []
  private waiters = new Set<{ version: number; resolve(): void }>()

  /** `ask` sends a 'need' for this graph */
  constructor(private readonly ask: () => void) {}

  receive(msg: SnapshotMessage | DeltaMessage): void {
    if (msg.type === 'snapshot') this.snapshot(msg)
    else this.delta(msg)
  }

  /** a snapshot is arriving in parts */
  get receiving(): boolean {
    return this.incoming !== null
  }

  /** Resolves once the copy is at `version` or newer. */
  until(version: number): Promise<void> {
    if (this.version >= version) return Promise.resolve()
    return new Promise(resolve => this.waiters.add({ version, resolve }))
  }

  private snapshot(msg: SnapshotMessage): void {
    if (msg.version <= this.version || (this.incoming && msg.version < this.incoming.version)) return
    if (!this.incoming || this.incoming.version !== msg.version) {
      this.incoming = { version: msg.version, parts: new Array(msg.parts), got: 0 }
    }
    const inc = this.incoming
    if (inc.parts[msg.part] === undefined) {
      inc.parts[msg.part] = msg.pools
      inc.got++
    }
    if (inc.got < inc.parts.length) return
    const graph = new RouteGraph()
    for (const part of inc.parts) for (const { state, meta } of part!) graph.set(state, meta)
    this.graph = graph
    this.version = inc.version
    this.incoming = null
    const waiting = this.buffered
    this.buffered = []
    for (const d of waiting) this.delta(d)
    this.wake()
  }

  private delta(msg: DeltaMessage): void {
    if (msg.to <= this.version) return
    if (this.incoming || this.version < 0) {
      this.buffered.push(msg)
      if (this.buffered.length > MAX_BUFFERED) {
        this.buffered = []
        this.ask()
      }
      return
    }
    if (msg.from !== this.version) {
      this.buffered.push(msg)
      this.ask()
      return
    }
    for (const { state, meta } of msg.set) this.graph.set(state, meta)
    this.version = msg.to
    this.wake()
  }

  private wake(): void {
    for (const w of this.waiters)
      if (this.version >= w.version) {
        this.waiters.delete(w)
        w.resolve()
      }
  }
}
