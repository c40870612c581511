// The deadlines of `ask`, on one coarse timer per timeout instead of a timer per ask. A quote is an ask, and
// tens of thousands a second each arming and clearing a Node timer (a Timeout object, a list insert, a
// closure) was a visible share of the actor glue. Asks of one timeout fall into slots of a quarter of it;
// a slot expires when its youngest ask is a whole timeout old, so an ask that nobody answers fails between
// one and one and a quarter timeouts after it was made. An answered ask leaves its slot at once: nothing
// outlives its reply.
import { AskTimeout } from './actorErrors.js'

export interface Expirable {
  expire(): void
}

const SLOTS = 5 // 4 quarters waiting + the one filling

class Wheel {
  private readonly slots: Set<Expirable>[] = Array.from({ length: SLOTS }, () => new Set())
  private current = 0
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly tickMs: number) {}

  add(e: Expirable): Set<Expirable> {
    const slot = this.slots[this.current]!
    slot.add(e)
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.tickMs)
      this.timer.unref?.() // a pending ask does not keep the process alive; its promise does not either
    }
    return slot
  }

  private tick(): void {
    this.current = (this.current + 1) % SLOTS
    const due = this.slots[this.current]! // the oldest slot: every ask in it is at least 4 ticks old
    if (due.size) {
      const expired = [...due]
      due.clear()
      for (const e of expired) e.expire()
    }
    if (this.slots.every(s => s.size === 0)) {
      clearInterval(this.timer)
      this.timer = undefined
    } // idle: no timer
  }
}

const wheels = new Map<number, Wheel>()

/** Files `e` to expire `timeoutMs` (to 1.25 x) from now; returns the set to delete it from once answered. */
export function fileDeadline(timeoutMs: number, e: Expirable): Set<Expirable> {
  let w = wheels.get(timeoutMs)
  if (!w) {
    w = new Wheel(Math.max(1, timeoutMs / (SLOTS - 1)))
    wheels.set(timeoutMs, w)
  }
  return w.add(e)
}

/** An ask waiting for its reply: in the actor's `pending` (a throwing handler fails it) and on a deadline slot. */
export class PendingAsk implements Expirable {
  msg: unknown
  private slot: Set<Expirable> | null
  constructor(
    private readonly actor: { readonly name: string; readonly pending: Map<unknown, PendingAsk> },
    readonly fail: (e: unknown) => void,
    private readonly timeoutMs: number,
  ) {
    this.slot = fileDeadline(timeoutMs, this)
  }

  /** true once: the first of reply, failure, timeout or stop wins */
  settle(): boolean {
    if (!this.slot) return false
    this.slot.delete(this)
    this.slot = null
    this.actor.pending.delete(this.msg)
    return true
  }

  expire(): void {
    if (!this.slot) return
    this.slot = null
    this.actor.pending.delete(this.msg)
    this.fail(new AskTimeout(this.actor.name, this.timeoutMs))
  }
}
