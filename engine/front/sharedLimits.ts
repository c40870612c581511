// The engine's per-key limiters by name, so a cluster can share their counts: each node tells the others
// what it counted (in batches, every SHARE_EVERY_MS) and adds what they counted, so a per-IP limit holds
// across the venue, give or take the hits of the last batch. On a single node nothing is shared and this
// is only a list.
import type { Shareable } from './limits.js'

export type HitSink = (limiter: string, key: string) => void

export class LimitRegistry {
  private readonly limiters = new Map<string, Shareable>()
  private sink: HitSink | null = null

  /** Names a limiter (one name per door, the same on every node) and returns it. */
  register<T extends Shareable>(name: string, limiter: T): T {
    if (this.limiters.has(name)) throw new Error(`limiter ${name} is registered twice`)
    this.limiters.set(name, limiter)
    limiter.onRecord = key => this.sink?.(name, key)
    return limiter
  }

  /** The cluster's side: where this node's hits go, and how other nodes' hits come in. */
  share(sink: HitSink): { absorb(limiter: string, key: string, n: number): void } {
    this.sink = sink
    return { absorb: (limiter, key, n) => this.limiters.get(limiter)?.absorb(key, n) }
  }

  get names(): string[] {
    return [...this.limiters.keys()]
  }
}
