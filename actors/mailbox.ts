// The mailbox runtime. An actor handles one message at a time from a bounded queue; different actors run
// concurrently. `tell` is a cast, `ask` a call with a typed reply channel and a timeout (Akka style; the deadline on a
// shared coarse timer, askDeadlines.ts). A handler that throws answers the asker with the error, and the actor goes on
// with its state as the handler left it (handlers update state in place, so a handler must not throw half-way:
// expected refusals are replies, not throws). Past `intensity` failures within `periodMs` the actor stops and
// `onEscalate` is told; nothing restarts it. Its owner decides what a stop means (the RFQ book ends the RFQ in the
// store and tells every reader, so the relay and the database agree).
import { FailureWindow } from '../workers/retry/failureWindow.js'
import { asError } from '../workers/values/index.js'
import { PendingAsks } from './askDeadlines.js'
import { AnsweredAsk, PromisedAsk, type ReplyingAsk } from './asks.js'
import { ActorStopped, MailboxFull } from './actorErrors.js'
import { defaultSupervision, type SpawnOptions } from './supervision.js'
import { wake } from './wakeups.js'
import type { ActorContext, ActorRef, Answered, AskMaker, AskOrElse, Behavior, Reply } from './actorTypes.js'

export { ActorStopped, AskTimeout, MailboxFull } from './actorErrors.js'
export type { SpawnOptions, Supervision } from './supervision.js'

export type { ActorContext, ActorRef, Behavior, Reply } from './actorTypes.js'

const YIELD_EVERY = 64 // messages handled before giving the event loop a turn

/** Owns every actor it spawned: their depths for metrics, and a drain for shutdown. */
export class ActorSystem {
  /** what the system reads of its actors, whatever their state and messages */
  private readonly actors = new Set<Pick<Actor<unknown, never>, 'depth' | 'busy' | 'stopNow'>>()
  constructor(
    private readonly defaults: SpawnOptions = {},
    readonly now: () => number = Date.now,
  ) {}

  spawn<S, M>(name: string, behavior: Behavior<S, M>, initial: S, opts: SpawnOptions = {}): ActorRef<M> {
    const actor = new Actor<S, M>(name, behavior, initial, { ...this.defaults, ...opts }, this.now, a =>
      this.actors.delete(a),
    )
    this.actors.add(actor)
    return actor
  }

  get size(): number {
    return this.actors.size
  }
  get totalDepth(): number {
    let n = 0
    for (const a of this.actors) n += a.depth
    return n
  }

  /** Messages waiting plus messages being handled right now. */
  get pendingWork(): number {
    let n = 0
    for (const a of this.actors) n += a.depth + (a.busy ? 1 : 0)
    return n
  }

  /** Lets every mailbox empty (no new timers fire), then stops all actors. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (this.pendingWork > 0 && Date.now() < deadline) await new Promise(r => setTimeout(r, 5))
    for (const a of [...this.actors]) a.stopNow()
  }
}

class Actor<S, M> implements ActorRef<M> {
  /**
   * The mailbox: messages from `head` to `tail`. Emptied, it starts again at 0, so its array is only as long as the
   * most messages ever waiting at once. (Read from a head that only grew, an RFQ's actor kept one cell for every
   * message of its life: ~150 for a quoted RFQ, about as much heap as its quotes' lines, issue 29.)
   */
  private queue: M[] = []
  private head = 0
  private tail = 0
  private running = false
  /** a message has been taken off the queue and its handler has not finished */
  busy = false
  private isStopped = false
  private stopRequested = false
  private readonly timers = new Map<string, NodeJS.Timeout>()
  readonly pending = new PendingAsks()
  private failures: FailureWindow | undefined
  private readonly capacity: number
  private readonly ctx: ActorContext<M>

  constructor(
    readonly name: string,
    private readonly behavior: Behavior<S, M>,
    private state: S,
    private readonly opts: SpawnOptions,
    private readonly clock: () => number,
    private readonly onGone: (a: Actor<S, M>) => void,
  ) {
    this.capacity = opts.capacity ?? 10_000
    this.ctx = {
      self: this,
      now: clock,
      pipeToSelf: (work, toMessage) => {
        const deliver = this.ctx.toSelf(toMessage) // one reaction on `work`, no promise chained after it
        work.then(deliver, (e: unknown) => deliver(asError(e)))
      },
      toSelf: toMessage => result => {
        if (this.isStopped) return
        try {
          this.enqueue(toMessage(result))
        } catch (e) {
          this.opts.onError?.(this.name, e)
        }
      },
      deliver: msg => {
        if (this.isStopped) return
        try {
          this.enqueue(msg)
        } catch (e) {
          this.opts.onError?.(this.name, e)
        }
      },
      setTimer: (key, delayMs, msg) => {
        this.ctx.cancelTimer(key)
        const t = setTimeout(() => {
          this.timers.delete(key)
          if (!this.isStopped) this.enqueue(msg)
        }, delayMs)
        t.unref?.()
        this.timers.set(key, t)
      },
      cancelTimer: key => {
        const t = this.timers.get(key)
        if (t) {
          clearTimeout(t)
          this.timers.delete(key)
        }
      },
      stop: () => {
        this.stopRequested = true
      },
    }
  }

  get depth(): number {
    return this.tail - this.head
  }
  get stopped(): boolean {
    return this.isStopped
  }

  tell(msg: M): void {
    if (this.isStopped) throw new ActorStopped(this.name)
    this.enqueue(msg)
  }

  ask<R>(make: (replyTo: Reply<R>) => M, timeoutMs: number, orElse?: (error: unknown) => R): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.isStopped) {
        const e = new ActorStopped(this.name)
        return orElse ? resolve(orElse(e)) : reject(e)
      }
      const p = new PromisedAsk(this, timeoutMs, resolve, reject, orElse)
      this.request(make(p.reply), p)
    })
  }

  askTo<R, A>(make: AskMaker<M, R, A>, arg: A, timeoutMs: number, orElse: AskOrElse<R, A>, done: Answered<R>): void {
    const p = new AnsweredAsk(this, timeoutMs, arg, orElse, done, this.opts.onError)
    if (this.isStopped) {
      if (p.settle()) p.fail(new ActorStopped(this.name))
      return
    }
    this.request(make(p, arg), p)
  }

  /** An ask's message queued, its reply or failure (timeout, stop, full mailbox, a throwing handler) answered once. */
  private request<R>(msg: M, p: ReplyingAsk<R>): void {
    p.msg = msg
    try {
      this.enqueue(msg)
    } catch (e) {
      if (p.settle()) p.fail(asError(e))
    }
  }

  private enqueue(msg: M): void {
    if (this.depth >= this.capacity) throw new MailboxFull(this.name, this.capacity)
    if (this.tail < this.queue.length) this.queue[this.tail] = msg
    else this.queue.push(msg)
    this.tail++
    if (!this.running) {
      this.running = true
      // drained by the woken mailboxes' one microtask: a reaction on a settled promise, not queueMicrotask, which makes
      // an AsyncResource and a bound function for every call (~290 bytes a quote on the relay's path)
      wake(this)
    }
  }

  private readonly drain = (): void => this.run()

  /**
   * Handles queued messages synchronously, one after another; only a handler that returns a promise makes the
   * drain wait for it (and go on from its settlement). No promise per message, none per drain. Called by the woken
   * mailboxes' microtask (wakeups.ts), a handler's settlement, or a yield's setImmediate; never by an actor's user.
   */
  run(): void {
    let handled = 0
    while (this.head < this.tail && !this.isStopped) {
      const msg = this.queue[this.head]!
      this.queue[this.head++] = undefined as M // let the message be collected
      if (this.head === this.tail) this.head = this.tail = 0
      else if (this.head > 1024 && this.head * 2 > this.tail) {
        // never empty for long (a flood): what waits moves to the front, and the array stays bounded
        this.queue = this.queue.slice(this.head, this.tail)
        this.tail -= this.head
        this.head = 0
      }
      this.busy = true
      let next: S | Promise<S>
      try {
        next = this.behavior.receive(this.state, msg, this.ctx)
      } catch (e) {
        this.failed(msg, e)
        if (!this.handled()) return
        continue
      }
      if (next instanceof Promise) {
        next.then(
          s => {
            this.state = s
            if (this.handled()) this.run()
          },
          (e: unknown) => {
            this.failed(msg, e)
            if (this.handled()) this.run()
          },
        )
        return // still running: the settlement goes on draining
      }
      this.state = next
      if (!this.handled()) return
      if (++handled % YIELD_EVERY === 0) {
        setImmediate(this.drain)
        return
      } // give the event loop a turn
    }
    this.running = false
  }

  /** After a message: false when the actor stopped (its handler asked to, or it failed too often). */
  private handled(): boolean {
    this.busy = false
    if (this.stopRequested) this.stopNow()
    if (this.isStopped) {
      this.running = false
      return false
    }
    return true
  }

  private failed(msg: M, e: unknown): void {
    const p = this.pending.find(msg)
    if (p?.settle()) p.fail(e)
    this.opts.onError?.(this.name, e)
    const { intensity, periodMs } = this.opts.supervision ?? defaultSupervision
    this.failures ??= new FailureWindow(intensity, periodMs)
    if (this.failures.record(this.clock())) {
      this.stopRequested = true
      this.opts.onEscalate?.(this.name, e)
    }
  }

  stopNow(): void {
    if (this.isStopped) return
    this.isStopped = true
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
    for (const p of this.pending.all()) if (p.settle()) p.fail(new ActorStopped(this.name))
    this.queue = []
    this.head = this.tail = 0
    try {
      this.behavior.onStop?.(this.state)
    } finally {
      this.onGone(this)
    }
  }
}
