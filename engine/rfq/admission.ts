// Admission control for quote submissions: a quote joins the pipeline (signature recovery, the actor's
// checks, the group commit, the broadcast) only while the pipeline answers within the bound
// (RELAY_ADMISSION_MS, about 20 ms). Beyond it the quote is refused at once with BUSY and a retry hint,
// instead of joining a queue that makes every quote late (a 300 ms queue helps nobody quoting a market
// that moves).
//
// The bound is on queued work, not on the pipeline's own fixed latency (a batch's trip to a thread, a group
// commit): it is kept as a concurrency limit steered by the queueing delay the pipeline shows, a quote's
// wait less the least wait seen lately (as TCP Vegas measures queueing against its base RTT, or Netflix's
// concurrency-limits): each quote that queued within the bound lets one more in; one past it cuts the
// limit in proportion to the overshoot (at most by half), at most once per bound, so a single slow batch is
// not punished many times over. The least wait is the minimum over the last two 5-second buckets.
// The limit never drops below one full signature batch (MIN_LIMIT), so the pipeline always has enough in
// it to batch well. Latency, unlike an estimated cost per quote, already includes everything the process
// does meanwhile (refusing a flood included), and it is exactly what makers feel. A refusal's retry hint is the
// time half of what is in flight takes to be answered at the current pace (at most the bound).
export interface AdmissionStats {
  inFlight: number
  limit: number
  refused: number
}

const MIN_LIMIT = 64
const MAX_LIMIT = 100_000
const BASE_BUCKET_MS = 5000
const PACE_WINDOW_MS = 50

export class Admission {
  private entered: number[] = [] // entry times, oldest first (answers come roughly in order)
  private head = 0
  private limit: number
  private lastCut = -Infinity
  private refusedTotal = 0
  private base = { previous: Infinity, current: Infinity, since: -Infinity }
  /** ms per answer over the last window of at least PACE_WINDOW_MS: how fast the pipeline frees room (answers come
   * in bursts, a group commit's worth at once, so a pace per answer would swing); NaN until a window has closed */
  private leaveEveryMs = NaN
  private pace = { since: NaN, answers: 0 }

  /** `boundMs` 0 admits everything. */
  constructor(
    private readonly boundMs: number,
    initialLimit = 256,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.limit = Math.max(MIN_LIMIT, initialLimit)
  }

  private get inFlight(): number {
    return this.entered.length - this.head
  }

  /** ok, or the milliseconds after which to try again. */
  tryEnter(): { ok: true } | { ok: false; retryAfterMs: number } {
    if (this.boundMs > 0 && this.inFlight >= Math.floor(this.limit)) {
      this.refusedTotal++
      return { ok: false, retryAfterMs: this.retryAfter() }
    }
    this.entered.push(this.now())
    return { ok: true }
  }

  /**
   * When to come back: once half of what is in flight has been answered, at the pace answers come now (at most the
   * bound). A fixed bound sent every refused maker away for 20 ms while the pipeline emptied in a few: the machine
   * sat idle for the rest (about a fifth of it at full offered load, issue 29).
   */
  private retryAfter(): number {
    const drain = (this.inFlight / 2) * this.leaveEveryMs
    return Math.max(1, Math.ceil(Number.isFinite(drain) ? Math.min(drain, this.boundMs) : this.boundMs))
  }

  /** One admitted quote has its answer (accepted or refused by the checks). */
  leave(): void {
    const t = this.now()
    if (Number.isNaN(this.pace.since)) this.pace.since = t
    if (++this.pace.answers > 1 && t - this.pace.since >= PACE_WINDOW_MS) {
      this.leaveEveryMs = (t - this.pace.since) / (this.pace.answers - 1)
      this.pace = { since: t, answers: 1 }
    }
    const waited = t - this.entered[this.head++]!
    if (this.head > 1024 && this.head * 2 > this.entered.length) {
      this.entered = this.entered.slice(this.head)
      this.head = 0
    }
    const queued = waited - this.baseLatency(t, waited)
    if (queued <= this.boundMs) this.limit = Math.min(MAX_LIMIT, this.limit + 1)
    else if (t - this.lastCut >= this.boundMs) {
      this.limit = Math.max(MIN_LIMIT, this.limit * Math.max(0.5, Math.min(0.9, this.boundMs / queued)))
      this.lastCut = t
    }
  }

  /** The least wait over the last two buckets: the pipeline's own latency, with nothing queued. */
  private baseLatency(t: number, waited: number): number {
    if (t - this.base.since >= BASE_BUCKET_MS) this.base = { previous: this.base.current, current: Infinity, since: t }
    this.base.current = Math.min(this.base.current, waited)
    return Math.min(this.base.previous, this.base.current)
  }

  get stats(): AdmissionStats {
    return { inFlight: this.inFlight, limit: Math.floor(this.limit), refused: this.refusedTotal }
  }
}
