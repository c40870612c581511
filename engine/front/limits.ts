// Rate-limit primitives, per key. Both answer {ok, retryAfterSec}; the caller turns a refusal
// into 429 + Retry-After (REST) or an ERROR frame (relay).
export interface Verdict {
  ok: boolean
  retryAfterSec: number
  count: number
}

/**
 * A limiter whose counts a cluster shares (engine/front/sharedLimits.ts): `onRecord` hears every hit this
 * node counts, `absorb` adds the hits other nodes counted for the same key.
 */
export interface Shareable {
  onRecord?: (key: string) => void
  absorb(key: string, n: number): void
}

/**
 * Fixed window that opens at the key's first hit and resets `windowMs` later: the relay's rule
 * ("window resets 60 s after first message in window").
 */
export class FixedWindowLimiter implements Shareable {
  private readonly windows = new Map<string, { start: number; count: number }>()
  onRecord?: (key: string) => void
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string): Verdict {
    const t = this.now()
    const w = this.counted(key, t)
    const retryAfterSec = (w.start + this.windowMs - t) / 1000
    return { ok: w.count <= this.limit, retryAfterSec, count: w.count }
  }

  /**
   * `hit` for the relay's every frame, with no verdict object: 0 within the limit, else the ms until the window
   * resets (at least 1).
   */
  refusedForMs(key: string): number {
    const t = this.now()
    const w = this.counted(key, t)
    return w.count <= this.limit ? 0 : Math.max(1, w.start + this.windowMs - t)
  }

  /** one more hit of `key` at `t`, told to the cluster: its window as it now stands */
  private counted(key: string, t: number): { start: number; count: number } {
    const w = this.window(key, t)
    w.count++
    this.onRecord?.(key)
    return w
  }

  absorb(key: string, n: number): void {
    this.window(key, this.now()).count += n
  }

  /** Drops windows that have ended; call from a timer so idle keys do not accumulate. */
  sweep(): void {
    const t = this.now()
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k)
  }

  private window(key: string, t: number): { start: number; count: number } {
    let w = this.windows.get(key)
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 }
      this.windows.set(key, w)
    }
    return w
  }
}

/**
 * Exact sliding window: a ring of the accepted hits' times per key. Memory is bounded by the limit,
 * and a refusal is not recorded, so a client that keeps knocking is not locked out for longer.
 */
export class SlidingWindowLimiter implements Shareable {
  private readonly logs = new Map<string, { times: number[]; head: number }>()
  onRecord?: (key: string) => void
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks without recording. */
  peek(key: string): Verdict {
    const t = this.now()
    const log = this.logs.get(key)
    if (!log) return { ok: true, retryAfterSec: 0, count: 0 }
    const count = this.live(log, t)
    if (count < this.limit) return { ok: true, retryAfterSec: 0, count }
    const oldest = log.times[log.head]!
    return { ok: false, retryAfterSec: (oldest + this.windowMs - t) / 1000, count }
  }

  hit(key: string): Verdict {
    const v = this.peek(key)
    if (v.ok) this.record(key)
    return { ...v, count: v.ok ? v.count + 1 : v.count }
  }

  record(key: string): void {
    this.push(key, 1)
    this.onRecord?.(key)
  }

  /** Other nodes' hits, as of now; never more than the limit (memory stays bounded by it). */
  absorb(key: string, n: number): void {
    this.push(key, Math.min(n, this.limit))
  }

  private push(key: string, n: number): void {
    let log = this.logs.get(key)
    if (!log) this.logs.set(key, (log = { times: [], head: 0 }))
    const t = this.now()
    for (let i = 0; i < n; i++) log.times.push(t)
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head)
      log.head = 0
    }
  }

  sweep(): void {
    const t = this.now()
    for (const [k, log] of this.logs) if (this.live(log, t) === 0) this.logs.delete(k)
  }

  private live(log: { times: number[]; head: number }, t: number): number {
    while (log.head < log.times.length && log.times[log.head]! <= t - this.windowMs) log.head++
    return log.times.length - log.head
  }
}

/** Several sliding windows that must all agree (e.g. 60/min and 1000/h); a hit is recorded in all or none. */
export class MultiWindowLimiter {
  constructor(readonly windows: SlidingWindowLimiter[]) {}
  hit(key: string): Verdict {
    const verdicts = this.windows.map(w => w.peek(key))
    const refused = verdicts.filter(v => !v.ok)
    if (refused.length)
      return {
        ok: false,
        retryAfterSec: Math.max(...refused.map(v => v.retryAfterSec)),
        count: Math.max(...verdicts.map(v => v.count)),
      }
    for (const w of this.windows) w.record(key)
    return { ok: true, retryAfterSec: 0, count: Math.max(...verdicts.map(v => v.count)) + 1 }
  }
  /** Records a hit another arbiter granted (the database), so these windows hold it if they must answer alone. */
  record(key: string): void {
    for (const w of this.windows) w.record(key)
  }
  sweep(): void {
    for (const w of this.windows) w.sweep()
  }
}
