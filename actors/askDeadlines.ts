// The deadlines of `ask`, on one coarse timer per timeout instead of a timer per ask. A quote is an ask, and
// tens of thousands a second each arming and clearing a Node timer (a Timeout object, a list insert, a
// closure) was a visible share of the actor glue. Asks of one timeout fall into slots of a quarter of it;
// a slot expires when its youngest ask is a whole timeout old, so an ask that nobody answers fails between
// one and one and a quarter timeouts after it was made. An answered ask leaves its slot at once: nothing
// outlives its reply.
//
// A slot is a list of fixed-size arrays, and an answered ask's cell is emptied, never deleted from a growing
// Set (issue 29). A slot lives a timeout or more, so its storage is soon in the old generation; a Set that grows
// leaves its old hash table there, still pointing at the young asks it held, and every scavenge until the next
// major GC kept those asks alive through it, each with its quote's whole object graph: about 2 MB copied per
// scavenge at relay rates, and a major GC every ~15 s to sweep it. A fixed array is never replaced, and a cell
// emptied on reply points at nothing.
import { AskTimeout } from './actorErrors.js'

const SLOTS = 5 // 4 quarters waiting + the one filling
const CHUNK = 256 // asks per array of a slot

type Cells = (PendingAsk | undefined)[]

class Wheel {
  private readonly slots: Cells[][] = Array.from({ length: SLOTS }, () => [])
  private current = 0
  /** the current slot's array being filled, and its next free cell */
  private filling: Cells | null = null
  private next = 0
  /** asks filed and not yet answered or expired: no timer while there are none */
  live = 0
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly tickMs: number) {}

  add(p: PendingAsk): void {
    if (this.filling === null || this.next === CHUNK) {
      this.filling = new Array<PendingAsk | undefined>(CHUNK)
      this.next = 0
      this.slots[this.current]!.push(this.filling)
    }
    p.cells = this.filling
    p.cell = this.next
    this.filling[this.next++] = p
    this.live++
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.tickMs)
      this.timer.unref?.() // a pending ask does not keep the process alive; its promise does not either
    }
  }

  private tick(): void {
    this.current = (this.current + 1) % SLOTS
    this.filling = null // the new current slot starts its own arrays
    const due = this.slots[this.current]! // the oldest slot: every ask in it is at least 4 ticks old
    this.slots[this.current] = []
    for (const cells of due)
      for (let i = 0; i < CHUNK; i++) {
        const p = cells[i]
        if (p !== undefined) p.expire()
      }
    if (this.live === 0) {
      clearInterval(this.timer)
      this.timer = undefined
    } // idle: no timer
  }
}

const wheels = new Map<number, Wheel>()

function wheelFor(timeoutMs: number): Wheel {
  let w = wheels.get(timeoutMs)
  if (!w) {
    w = new Wheel(Math.max(1, timeoutMs / (SLOTS - 1)))
    wheels.set(timeoutMs, w)
  }
  return w
}

/**
 * An actor's asks still waiting, as a list through the asks themselves: a Map keyed by message grew and shrank its
 * hash table on every quote (two tables made a quote, each outliving a scavenge when its RFQ's next quote came
 * later, so promoted and then garbage: issue 29). A short list walked only when a handler throws or the actor stops.
 */
export class PendingAsks {
  head: PendingAsk | null = null

  /** the ask waiting on `msg`, if any */
  find(msg: unknown): PendingAsk | undefined {
    for (let p = this.head; p; p = p.next) if (p.msg === msg) return p
    return undefined
  }

  /** every ask still waiting, as an array (settling one unlinks it) */
  all(): PendingAsk[] {
    const out: PendingAsk[] = []
    for (let p = this.head; p; p = p.next) out.push(p)
    return out
  }
}

/**
 * An ask waiting for its reply: on its actor's list (a throwing handler fails it) and on a deadline slot. What a
 * reply or a failure does is its kind's (asks.ts): one object an ask, no closures around it.
 */
export abstract class PendingAsk {
  /** its neighbours on the actor's list; cleared when it leaves, so a done ask points at nothing */
  prev: PendingAsk | null = null
  next: PendingAsk | null = null
  /** where this ask is filed on its wheel (null once answered, failed or expired) */
  cells: Cells | null = null
  cell = 0
  /** the message that carries the ask's reply (set once it is made) */
  msg: unknown = undefined
  private readonly wheel: Wheel
  constructor(
    protected readonly actor: { readonly name: string; readonly pending: PendingAsks },
    private readonly timeoutMs: number,
  ) {
    const list = actor.pending
    this.next = list.head
    if (list.head) list.head.prev = this
    list.head = this
    this.wheel = wheelFor(timeoutMs)
    this.wheel.add(this)
  }

  /** the ask failed (timed out, its actor stopped, its mailbox was full, its handler threw); called once, settled */
  abstract fail(e: unknown): void

  /** true once: the first of reply, failure, timeout or stop wins */
  settle(): boolean {
    return this.leave()
  }

  expire(): void {
    if (this.leave()) this.fail(new AskTimeout(this.actor.name, this.timeoutMs))
  }

  private leave(): boolean {
    if (this.cells === null) return false
    this.cells[this.cell] = undefined
    this.cells = null
    this.wheel.live--
    const list = this.actor.pending
    if (this.prev) this.prev.next = this.next
    else list.head = this.next
    if (this.next) this.next.prev = this.prev
    this.prev = this.next = null
    this.msg = undefined // nothing of the quote is kept through an ask that is done
    return true
  }
}
