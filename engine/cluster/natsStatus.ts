// The link's watch on its NATS connection: disconnects, reconnects and the server's refusals come as a stream of
// statuses, and a reconnect must make the node reconcile with the store (what was said while it was away is lost).
// The loop that reads them is supervised, OTP-style: if it ends or throws while the link is up, the death is logged,
// the loop starts again (at once, then backing off while it keeps dying: workers/retry), and `onRestart` lets the
// link catch up on what it may have missed meanwhile. Nothing about it fails silently.
import type { Logger } from 'pino'
import type { NatsConnection, Status } from '@nats-io/transport-node'
import { FailureWindow } from '../../workers/retry/failureWindow.js'
import { backoffDelayMs } from '../../workers/retry/backoff.js'

/** restarts within this window count toward the backoff; a loop that dies once a day restarts at once */
const RESTARTS = { max: 3, periodMs: 60_000 }

export interface StatusWatchOptions {
  onStatus(status: Status): void
  /** the loop came back after a death: statuses may have been missed */
  onRestart(): void
  log: Logger
}

export class StatusWatch {
  /** times the loop died and was started again (cluster_status_loop_restarts_total) */
  restarts = 0
  private statuses: (AsyncIterable<Status> & { stop(err?: Error): void }) | undefined
  private stopped = false
  private readonly deaths = new FailureWindow(RESTARTS.max, RESTARTS.periodMs)
  private readonly done: Promise<void>

  constructor(
    private readonly nc: NatsConnection,
    private readonly o: StatusWatchOptions,
  ) {
    this.done = this.supervise()
  }

  /**
   * Ends the running loop as a crash would (its iterator throws `reason`): the supervisor's restart is what follows.
   * For tests and drills, as `exit(Pid, kill)` is for an OTP process.
   */
  kill(reason: Error = new Error('status loop killed')): void {
    this.statuses?.stop(reason)
  }

  async stop(): Promise<void> {
    this.stopped = true
    this.statuses?.stop()
    await this.done
  }

  private async supervise(): Promise<void> {
    for (let restarted = false; ; restarted = true) {
      const statuses = (this.statuses = this.nc.status() as AsyncIterable<Status> & { stop(err?: Error): void })
      if (restarted) {
        this.restarts++
        this.o.onRestart() // after the new loop listens: nothing falls between the two
      }
      const death = await this.watch(statuses)
      if (this.stopped || this.nc.isClosed()) return
      this.deaths.record(Date.now())
      const inMs = this.deaths.count > 1 ? backoffDelayMs(this.deaths.count - 2, 100, 30_000) : 0
      this.o.log.error(
        { err: death, diedBefore: this.restarts, inMs },
        'cluster status loop died: restarting it (reconnects reconcile with the store again)',
      )
      if (inMs) await new Promise(resolve => setTimeout(resolve, inMs).unref())
      if (this.stopped || this.nc.isClosed()) return
    }
  }

  /** One life of the loop; answers how it ended (its error, or undefined when the stream simply ended). */
  private async watch(statuses: AsyncIterable<Status>): Promise<unknown> {
    try {
      for await (const status of statuses) this.o.onStatus(status)
      return undefined
    } catch (err) {
      return err
    }
  }
}
