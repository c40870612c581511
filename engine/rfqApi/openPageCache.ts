// GET /api/v1/rfqs?status=open for anonymous pollers, from memory: the page PostgreSQL gave is kept as
// bytes until anything could change it. Every change to a public open RFQ (created, quoted, cancelled, filled,
// expired) moves the live index's public sequence after it is committed, so an entry read at sequence N serves
// only while the index is still at N (a private RFQ's changes are not on an anonymous page: they keep it); and it serves no longer than the earliest expiry among its rows
// (the next one's included: it decides nextCursor), nor a second, whatever happens. Viewers with a key
// or a share token are not cached: their pages differ, and they are few.
import type { Viewer } from '../../actors/visibility.js'

interface CachedPage {
  seq: number
  until: number
  body: Buffer
}

export class OpenPageCache {
  private readonly map = new Map<string, CachedPage>()
  constructor(
    private readonly seq: () => number,
    private readonly maxEntries = 256,
    private readonly maxAgeMs = 1000,
  ) {}

  static cacheable(viewer: Viewer): boolean {
    return viewer.agentId === null && viewer.shareTokenHashes.length === 0
  }

  /** The bytes for `key`, or a fresh page from `build` (its rows' expiries bound the entry's life). */
  async get(
    key: string,
    build: () => Promise<{ body: unknown; expiries: number[] }>,
    toJson: (v: unknown) => string,
  ): Promise<Buffer> {
    const now = Date.now()
    const hit = this.map.get(key)
    if (hit && hit.seq === this.seq() && now < hit.until) return hit.body
    const seq = this.seq() // read before the query: a change during it invalidates the entry
    const page = await build()
    const body = Buffer.from(toJson(page.body))
    const until = Math.min(now + this.maxAgeMs, ...page.expiries.map(e => e * 1000))
    this.map.delete(key)
    this.map.set(key, { seq, until, body })
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value!)
    return body
  }
}
