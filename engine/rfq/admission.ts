// Admission control for quote submissions: a quote joins the pipeline (signature recovery, the actor's
// checks, the group commit, the broadcast) only while the pipeline answers within the bound
// (RELAY_ADMISSION_MS, about 20 ms). Beyond it the quote is refused at once with BUSY and a retry hint,
// instead of joining a queue that makes every quote late (a 300 ms queue helps nobody quoting a market
// that moves).
//
// The bound is kept as a concurrency limit steered by the latency the pipeline shows (as TCP Vegas, or
// Netflix's concurrency-limits): each answered quote within the bound lets one more in; one past it cuts
// the limit in proportion to the overshoot (bound / waited, at most by half), at most once per bound, so a
// single slow batch is not punished many times over.
// The limit never drops below one full signature batch (MIN_LIMIT), so the pipeline always has enough in
// it to batch well. Latency, unlike an estimated cost per quote, already includes everything the process
// does meanwhile (refusing a flood included), and it is exactly what makers feel.
export interface AdmissionStats { inFlight: number; limit: number; refused: number }

const MIN_LIMIT = 64
const MAX_LIMIT = 100_000

export class Admission {
  private entered: number[] = []          // entry times, oldest first (answers come roughly in order)
  private head = 0
  private limit: number
  private lastCut = -Infinity
  private refusedTotal = 0

  /** `boundMs` 0 admits everything. */
  constructor(private readonly boundMs: number, initialLimit = 256, private readonly now: () => number = () => performance.now()) {
    this.limit = Math.max(MIN_LIMIT, initialLimit)
  }

  private get inFlight(): number { return this.entered.length - this.head }

  /** ok, or the milliseconds after which to try again. */
  tryEnter(): { ok: true } | { ok: false; retryAfterMs: number } {
    if (this.boundMs > 0 && this.inFlight >= Math.floor(this.limit)) {
      this.refusedTotal++
      return { ok: false, retryAfterMs: Math.max(1, Math.ceil(this.boundMs)) }
    }
    this.entered.push(this.now())
    return { ok: true }
  }

  /** One admitted quote has its answer (accepted or refused by the checks). */
  leave(): void {
    const t = this.now()
    const waited = t - this.entered[this.head++]!
    if (this.head > 1024 && this.head * 2 > this.entered.length) { this.entered = this.entered.slice(this.head); this.head = 0 }
    if (waited <= this.boundMs) this.limit = Math.min(MAX_LIMIT, this.limit + 1)
    else if (t - this.lastCut >= this.boundMs) {
      this.limit = Math.max(MIN_LIMIT, this.limit * Math.max(0.5, Math.min(0.9, this.boundMs / waited)))
      this.lastCut = t
    }
  }

  get stats(): AdmissionStats {
    return { inFlight: this.inFlight, limit: Math.floor(this.limit), refused: this.refusedTotal }
  }
}
