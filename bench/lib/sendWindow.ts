// How a bench's makers pace their quotes against the relay's admission control: a bounded window of quotes in
// flight that grows back while quotes are taken and halves on BUSY, at most once per retry hint (AIMD, as TCP halves
// once per round trip), with sending paused for the hint the refusal gave. The relay and store benches both drive
// their throughput phase with it.
export class SendWindow {
  /** quotes that may be in flight now */
  size: number
  /** performance.now() until which nothing is sent (the last BUSY's retryAfterMs) */
  pausedUntil = 0
  private lastHalved = 0
  private resume: NodeJS.Timeout | undefined

  constructor(
    private readonly max: number,
    private readonly min: number,
    /** how fast the window grows back: about `growth` quotes for each window's worth taken */
    private readonly growth: number,
  ) {
    this.size = max
  }

  /** a quote was taken (its broadcast seen) */
  taken(): void {
    if (this.size < this.max) this.size += (1 / Math.max(1, this.size)) * this.growth
  }

  /** While sending is paused: `send` is called once when the pause ends, and true says send nothing now. */
  paused(send: () => void): boolean {
    const wait = this.pausedUntil - performance.now()
    if (wait <= 0) return false
    this.resume ??= setTimeout(() => {
      this.resume = undefined
      send()
    }, wait)
    return true
  }

  /** a BUSY refusal: pause for its hint, and halve the window unless it was halved within one hint */
  busy(frame: string): void {
    const hint = Number(/"retryAfterMs":(\d+)/.exec(frame)?.[1] ?? 1)
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + hint)
    if (performance.now() - this.lastHalved >= hint) {
      this.size = Math.max(this.min, this.size / 2)
      this.lastHalved = performance.now()
    }
  }
}

/** What a frame the relay sent a submitter says of its quote: nothing (no ERROR), BUSY, or another refusal. */
export function refusalOf(frame: string): 'none' | 'busy' | 'other' {
  if (!frame.startsWith('{"type":"ERROR"')) return 'none'
  return frame.includes('"code":"BUSY"') ? 'busy' : 'other'
}
