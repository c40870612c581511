// Per-key limits across the cluster: every SHARE_EVERY_MS a node sends the hits it counted since the last
// batch (limiter, key, count) and adds the other nodes' batches to its own windows. A client spread over
// several nodes therefore meets one limit for the venue, give or take one batch of hits per node. A batch is
// signed and numbered like the events (envelope.ts): a forged or replayed one never reaches a limiter.
import type { ClusterLink } from './link.js'

/** What the link needs of the engine's named limiters (engine/front/sharedLimits.ts implements it). */
export interface SharedLimits {
  share(sink: (limiter: string, key: string) => void): { absorb(limiter: string, key: string, n: number): void }
}

export const SHARE_EVERY_MS = 100
type Batch = [limiter: string, key: string, hits: number][]

export function shareLimits(
  link: Pick<ClusterLink, 'channel'>,
  registry: SharedLimits,
  everyMs = SHARE_EVERY_MS,
): { stop(): void; readonly absorbed: number } {
  let pending = new Map<string, Map<string, number>>()
  let absorbed = 0
  const send = link.channel('limits', batch => {
    for (const entry of batch as Batch) {
      if (!Array.isArray(entry)) continue
      const [limiter, key, hits] = entry
      // another node's word, but still checked: a malformed entry never reaches a limiter
      if (typeof limiter !== 'string' || typeof key !== 'string' || !Number.isInteger(hits) || hits < 1 || hits > 1e7)
        continue
      sharing.absorb(limiter, key, hits)
      absorbed += hits
    }
  })
  const sharing = registry.share((limiter, key) => {
    let byKey = pending.get(limiter)
    if (!byKey) pending.set(limiter, (byKey = new Map()))
    byKey.set(key, (byKey.get(key) ?? 0) + 1)
  })
  const timer = setInterval(() => {
    if (!pending.size) return
    const batch: Batch = []
    for (const [limiter, byKey] of pending) for (const [key, hits] of byKey) batch.push([limiter, key, hits])
    pending = new Map()
    send(batch)
  }, everyMs)
  timer.unref()
  return {
    stop: () => clearInterval(timer),
    get absorbed() {
      return absorbed
    },
  }
}
