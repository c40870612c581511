// What the wire drops: every drop is counted by its reason (cluster_messages_dropped_total{reason}), and logged at
// most once per WARN_EVERY_MS per reason, so a flood of forgeries cannot flood the log.
import type { Logger } from 'pino'
import { DROP_REASONS, type DropReason } from './envelope.js'

export const WARN_EVERY_MS = 10_000

export class Drops {
  readonly counts = Object.fromEntries(DROP_REASONS.map(r => [r, 0])) as Record<DropReason, number>
  private readonly warnedAt = new Map<DropReason, number>()

  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one drop; logs it unless this reason was logged within WARN_EVERY_MS. */
  drop(reason: DropReason, detail: object): void {
    this.counts[reason]++
    const now = this.now()
    if (now - (this.warnedAt.get(reason) ?? -Infinity) < WARN_EVERY_MS) return
    this.warnedAt.set(reason, now)
    this.log.warn({ ...detail, reason, droppedSoFar: this.counts[reason] }, 'cluster message dropped')
  }
}
