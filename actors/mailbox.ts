// The mailbox runtime. An actor handles one message at a time from a bounded queue; different
// actors run concurrently. `tell` is a cast, `ask` a call with a typed reply channel and a timeout
// (Akka style). A handler that throws answers the asker with the error, and the actor goes on with its
// state as the handler left it (handlers update state in place, so a handler must not throw half-way:
// expected refusals are replies, not throws). Past `intensity` failures within `periodMs` the actor
// stops and `onEscalate` is told; nothing restarts it. Its owner decides what a stop means (the RFQ
// book ends the RFQ in the store and tells every reader, so the relay and the database agree).
import { FailureWindow } from '../workers/retry/failureWindow.js'

export type Reply<R> = (value: R) => void

export interface ActorRef<M> {
  readonly name: string
  tell(msg: M): void
  ask<R>(make: (replyTo: Reply<R>) => M, timeoutMs: number): Promise<R>
  readonly depth: number
  readonly stopped: boolean
}

export interface ActorContext<M> {
  readonly self: ActorRef<M>
  now(): number
  /** The outcome of slow work comes back as a message: the actor is not held while it runs. */
  pipeToSelf<T>(work: Promise<T>, toMessage: (result: T | Error) => M): void
  /** One timer per key; setting a key again replaces it. Timers die with the actor. */
  setTimer(key: string, delayMs: number, msg: M): void
  cancelTimer(key: string): void
  stop(): void
}

export interface Behavior<S, M> {
  receive(state: S, msg: M, ctx: ActorContext<M>): S | Promise<S>
  onStop?(state: S): void
}

export interface Supervision {
  intensity: number
  periodMs: number
}

export interface SpawnOptions {
  capacity?: number
  supervision?: Supervision
  /** called when the actor gives up after too many failures */
  onEscalate?: (name: string, error: unknown) => void
  onError?: (name: string, error: unknown) => void
}

export class MailboxFull extends Error {
  override name = 'MailboxFull'
  readonly code = 'MAILBOX_FULL'
  constructor(actor: string, capacity: number) {
    super(`mailbox of ${actor} is full (${capacity} messages)`)
  }
}
export class AskTimeout extends Error {
  override name = 'AskTimeout'
  readonly code = 'ASK_TIMEOUT'
  constructor(actor: string, ms: number) {
    super(`${actor} did not reply within ${ms} ms`)
  }
}
export class ActorStopped extends Error {
  override name = 'ActorStopped'
  readonly code = 'ACTOR_STOPPED'
  constructor(actor: string) {
    super(`${actor} has stopped`)
  }
}

const defaultSupervision: Supervision = { intensity: 10, periodMs: 10_000 }
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

interface Pending {
  resolve(v: unknown): void
  reject(e: unknown): void
  timer: NodeJS.Timeout
}

class Actor<S, M> implements ActorRef<M> {
  private queue: M[] = []
  private head = 0
  private running = false
  /** a message has been taken off the queue and its handler has not finished */
  busy = false
  private isStopped = false
  private stopRequested = false
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private readonly pending = new Map<M, Pending>()
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
        work
          .then(
            r => toMessage(r),
            (e: unknown) => toMessage(e instanceof Error ? e : new Error(String(e))),
          )
          .then(
            m => {
              if (!this.isStopped) this.enqueue(m)
            },
            (e: unknown) => this.opts.onError?.(this.name, e),
          )
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
    return this.queue.length - this.head
  }
  get stopped(): boolean {
    return this.isStopped
  }

  tell(msg: M): void {
    if (this.isStopped) throw new ActorStopped(this.name)
    this.enqueue(msg)
  }

  ask<R>(make: (replyTo: Reply<R>) => M, timeoutMs: number): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.isStopped) return reject(new ActorStopped(this.name))
      let msg!: M
      const settle = (fn: () => void) => {
        const p = this.pending.get(msg)
        if (p) {
          clearTimeout(p.timer)
          this.pending.delete(msg)
        }
        fn()
      }
      msg = make(value => settle(() => resolve(value)))
      const timer = setTimeout(() => settle(() => reject(new AskTimeout(this.name, timeoutMs))), timeoutMs)
      this.pending.set(msg, { resolve, reject, timer })
      try {
        this.enqueue(msg)
      } catch (e) {
        settle(() => reject(e instanceof Error ? e : new Error(String(e))))
      }
    })
  }

  private enqueue(msg: M): void {
    if (this.depth >= this.capacity) throw new MailboxFull(this.name, this.capacity)
    this.queue.push(msg)
    if (!this.running) {
      this.running = true
      queueMicrotask(() => void this.run())
    }
  }

  /** Never rejects (so `void this.run()`): a message that fails goes to the supervision, in `failed`. */
  private async run(): Promise<void> {
    let handled = 0
    while (this.head < this.queue.length && !this.isStopped) {
      const msg = this.queue[this.head]!
      this.queue[this.head++] = undefined as M // let the message be collected
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head)
        this.head = 0
      }
      this.busy = true
      try {
        const next = this.behavior.receive(this.state, msg, this.ctx)
        this.state = next instanceof Promise ? await next : next
      } catch (e) {
        this.failed(msg, e)
      } finally {
        this.busy = false
      }
      if (this.stopRequested) {
        this.stopNow()
        break
      }
      if (++handled % YIELD_EVERY === 0) await new Promise(r => setImmediate(r))
    }
    this.running = false
    if (this.head < this.queue.length && !this.isStopped) {
      this.running = true
      queueMicrotask(() => void this.run())
    }
  }

  private failed(msg: M, e: unknown): void {
    const p = this.pending.get(msg)
    if (p) {
      clearTimeout(p.timer)
      this.pending.delete(msg)
      p.reject(e)
    }
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
    for (const [, p] of this.pending) {
      clearTimeout(p.timer)
      p.reject(new ActorStopped(this.name))
    }
    this.pending.clear()
    this.queue = []
    this.head = 0
    try {
      this.behavior.onStop?.(this.state)
    } finally {
      this.onGone(this)
    }
  }
}
