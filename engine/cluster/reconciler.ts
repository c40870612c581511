// The cluster's store sync: after a gap in a peer's sequence, a peer's restart or silence, or this node's reconnect,
// the book follows the store's live RFQs (the store is the truth, NATS only moves the word). One pass at a time,
// and at most one more queued behind it, however many reasons arrive meanwhile: a flood of gaps costs two reads.
import type { Logger } from 'pino'
import type { RestoredRfq } from '../../actors/book.js'

export class Reconciler {
  /** passes started */
  passes = 0
  private running: Promise<void> | null = null
  private queued = false

  constructor(
    private readonly loadLive: () => Promise<RestoredRfq[]>,
    private readonly apply: (live: RestoredRfq[]) => void,
    private readonly log: Logger,
  ) {}

  reconcile(why: string): void {
    if (this.running) {
      this.queued = true
      return
    }
    this.passes++
    this.running = this.loadLive()
      .then(this.apply)
      .catch((err: unknown) => {
        this.log.warn({ err, why }, 'cluster reconcile failed; retried at the next gap or reconnect')
      })
      .finally(() => {
        this.running = null
        if (this.queued) {
          this.queued = false
          this.reconcile('queued')
        }
      })
  }

  /** resolves once no pass is running (at close) */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }
}
