// This node's events on their way out. The events of `batchMs` leave together, in order; at most MAX_BATCH a message,
// so a message stays far below NATS's max_payload (1 MB by default; a quote event is about 300 bytes). Every message
// wakes every other node, and a wake-up costs more CPU than applying a dozen quotes (docs/benchmarks.md#cluster): a
// few ms of coalescing keeps the receivers' cost per quote flat as the venue's rate grows.
import { MAX_BATCH } from './envelope.js'
import type { WireEvent } from './wireEvents.js'

export class Outbox {
  /** events handed to the wire */
  sent = 0
  private pending: WireEvent[] = []
  private timer: NodeJS.Timeout | null = null

  /** `batchMs` 0: the events of one event-loop turn leave together */
  constructor(
    private readonly send: (events: WireEvent[]) => void,
    private readonly batchMs: number,
  ) {}

  push(event: WireEvent): void {
    if (!this.pending.length) {
      if (this.batchMs > 0) this.timer = setTimeout(() => this.flush(), this.batchMs)
      else setImmediate(() => this.flush())
    }
    this.pending.push(event)
    this.sent++
    if (this.pending.length >= MAX_BATCH) this.flush()
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    if (!this.pending.length) return
    const events = this.pending
    this.pending = []
    this.send(events)
  }
}
