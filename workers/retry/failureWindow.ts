// "N failures within T": the one counter behind every give-up rule of the house (an actor's supervision, the last
// resort's burst, the ingestion child's restarts, the cluster's status loop). Past `max` failures within `periodMs`
// the caller stops trying, as an OTP supervisor past its intensity. Pure: the caller says when each failure was.

export class FailureWindow {
  private times: number[] = []
  private head = 0

  constructor(
    readonly max: number,
    readonly periodMs: number,
  ) {}

  /** Counts a failure at `at` (ms); true when it is one past `max` within the window (the caller gives up). */
  record(at: number): boolean {
    while (this.head < this.times.length && at - this.times[this.head]! >= this.periodMs) this.head++
    if (this.head > 64 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head)
      this.head = 0
    }
    this.times.push(at)
    return this.count > this.max
  }

  /** failures within the window as of the last one recorded */
  get count(): number {
    return this.times.length - this.head
  }
}
