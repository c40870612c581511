// Held long polls, grouped by what they wait on, so that an event wakes only the polls that may see it
// (a private quote costs the pollers who cannot see it nothing, however many they are). A poll waits either
// on one RFQ (its quotes) or on a viewer's list (every RFQ that viewer may see). Waking a group is one pass over
// it; which groups an event wakes is decided by the one visibility rule (actors/visibility.ts), asked once per
// group, never per poll: a public event wakes every list group, a private one only the groups of its share
// token's or its agent's viewers.
import { ANONYMOUS, canSee, type RfqAccess, type Viewer } from './visibility.js'

/** What a held poll waits for: one RFQ's changes, or the changes to a viewer's list. */
export type WaitScope = { rfqId: string } | { viewer: Viewer }

interface ViewerGroup {
  viewer: Viewer
  wakers: Set<() => void>
}

export class PollWaiters {
  private readonly byRfq = new Map<string, Set<() => void>>()
  private readonly lists = new Map<string, ViewerGroup>()
  /** list groups by the share-token hashes and the agent their viewer presents: a private event's candidates */
  private readonly byHash = new Map<string, Set<ViewerGroup>>()
  private readonly byAgent = new Map<string, Set<ViewerGroup>>()
  private count = 0
  /** polls woken by a change, ever (each one re-reads its view): what held polls cost */
  woken = 0

  get size(): number {
    return this.count
  }

  /** Adds a waker; the returned function removes it (each waker is removed once, woken or not). */
  add(scope: WaitScope, wake: () => void): () => void {
    this.count++
    if ('rfqId' in scope) {
      const set = this.byRfq.get(scope.rfqId) ?? new Set()
      this.byRfq.set(scope.rfqId, set.add(wake))
      return () => {
        if (set.delete(wake)) {
          this.count--
          if (!set.size) this.byRfq.delete(scope.rfqId)
        }
      }
    }
    const key = viewerKey(scope.viewer)
    let g = this.lists.get(key)
    if (!g) {
      g = { viewer: scope.viewer, wakers: new Set() }
      this.lists.set(key, g)
      for (const h of scope.viewer.shareTokenHashes) addTo(this.byHash, h, g)
      if (scope.viewer.agentId !== null) addTo(this.byAgent, scope.viewer.agentId, g)
    }
    const group = g
    group.wakers.add(wake)
    return () => {
      if (!group.wakers.delete(wake)) return
      this.count--
      if (group.wakers.size) return
      this.lists.delete(key)
      for (const h of group.viewer.shareTokenHashes) removeFrom(this.byHash, h, group)
      if (group.viewer.agentId !== null) removeFrom(this.byAgent, group.viewer.agentId, group)
    }
  }

  /** Wakes the polls that may see a change to this RFQ: those waiting on it, and the lists it is visible in. */
  wake(rfqId: string, access: RfqAccess): void {
    if (!this.count) return
    const own = this.byRfq.get(rfqId)
    if (own) {
      this.woken += own.size
      for (const w of [...own]) w()
    }
    if (!this.lists.size) return
    if (canSee(access, ANONYMOUS)) {
      for (const g of [...this.lists.values()]) this.wakeGroup(g)
      return
    }
    const candidates = new Set<ViewerGroup>()
    if (access.shareTokenHash !== null) for (const g of this.byHash.get(access.shareTokenHash) ?? []) candidates.add(g)
    if (access.agentId !== null) for (const g of this.byAgent.get(access.agentId) ?? []) candidates.add(g)
    for (const g of candidates) if (canSee(access, g.viewer)) this.wakeGroup(g)
  }

  /** Wakes every poll (shutdown). */
  wakeEveryone(): void {
    for (const set of [...this.byRfq.values()]) for (const w of [...set]) w()
    for (const g of [...this.lists.values()]) this.wakeGroup(g)
  }

  private wakeGroup(g: ViewerGroup): void {
    this.woken += g.wakers.size
    for (const w of [...g.wakers]) w()
  }
}

export function viewerKey(v: Viewer): string {
  return `${v.agentId ?? '-'}|${[...v.shareTokenHashes].sort().join(',')}`
}

function addTo<K>(m: Map<K, Set<ViewerGroup>>, k: K, g: ViewerGroup): void {
  const s = m.get(k) ?? new Set()
  m.set(k, s.add(g))
}

function removeFrom<K>(m: Map<K, Set<ViewerGroup>>, k: K, g: ViewerGroup): void {
  const s = m.get(k)
  if (!s) return
  s.delete(g)
  if (!s.size) m.delete(k)
}
