// One batcher for every "many small items, few expensive trips" path: signer recovery (a trip to a
// pool thread) and the quote group commit (a trip to PostgreSQL and an fsync). Items submitted in
// the same tick, or while earlier batches are in flight, travel together, up to `maxBatch` per trip,
// with at most `concurrency` trips at once. An idle batcher sends its first item on the next turn
// with whatever joined it in this one: no timer, so a lone item never waits.
import { asError } from '../../workers/values/index.js'
import type { Answered } from '../../actors/actorTypes.js'

/** One outcome an item; an Error as an item's outcome rejects that item's promise alone (a refusal, not a failure). */
export type BatchRunner<I, O> = (items: I[]) => Promise<(O | Error)[]>

/**
 * Where an item's outcome goes (its result, or the Error its batch refused or failed it with): a callback, or an
 * object that hears it through its `answered` (the relay's quotes: the message itself, so no closure a quote).
 */
export type Done<O> = ((outcome: O | Error) => void) | Answered<O | Error>

export interface Batcher<I, O> {
  /** resolves with this item's own result once its batch's trip has ended */
  submit(item: I): Promise<O>
  /**
   * `done` gets this item's outcome once its batch's trip has ended: no promise, and no reaction queued behind one.
   * The relay's quotes take this way (two trips a quote: the signer pool, the group commit).
   */
  submitTo(item: I, done: Done<O>): void
  /** resolves when everything submitted so far has finished its trip */
  flush(): Promise<void>
  readonly inFlight: number
  readonly waiting: number
  readonly stats: { batches: number; items: number; maxBatch: number }
}

export interface BatcherOptions {
  maxBatch?: number
  /** trips allowed at once: about the pool's thread count, or the commits that may overlap */
  concurrency?: number
  /** each trip that ended: how long its first item waited to leave, the trip's own time, and its size (seconds) */
  observe?(waitSeconds: number, tripSeconds: number, items: number): void
}

/**
 * Every item of a batch gets its outcome, even when a callback throws (a bug of its owner's): the first such error
 * is thrown once all have theirs, so it surfaces (the trip's promise rejects, unhandled) without costing the rest.
 */
function settle<O>(dones: Done<O>[], outcome: (i: number) => O | Error): void {
  let thrown: { error: unknown } | undefined
  for (let i = 0; i < dones.length; i++)
    try {
      const done = dones[i]!
      if (typeof done === 'function') done(outcome(i))
      else done.answered(outcome(i))
    } catch (error) {
      thrown ??= { error }
    }
  if (thrown) throw thrown.error
}

/** a queue longer than this is let go once empty (and compacted while it drains), not kept for the next */
const SPIKE = 4096

export function createBatcher<I, O>(
  run: BatchRunner<I, O>,
  { maxBatch = 64, concurrency = 2, observe }: BatcherOptions = {},
): Batcher<I, O> {
  // a queue read from `head`, as three arrays side by side (the items, their callbacks, when each joined) rather
  // than an object an item: a relay quote waits in two batchers, and each entry object with its boxed join time was
  // ~56 bytes of garbage a quote a batcher (issue 29). A trip takes its batch without copying what stays behind
  // (thousands may wait), and a taken entry's cells are emptied at once: the arrays outlive the trip, and a cell kept
  // after it would keep that quote's whole object graph alive (issue 29: they were copied by every scavenge and
  // promoted, most of what the major GCs collected). The join times are plain doubles, stored unboxed, and only when
  // someone observes the waits. A queue that empties starts again at the front of the same arrays (`tail`): new
  // arrays grown anew each time a few dozen quotes had waited were ~35 bytes a quote a batcher; only arrays grown past
  // SPIKE are let go, so a burst's are not kept.
  let items: (I | undefined)[] = []
  let dones: (Done<O> | undefined)[] = []
  let joined: number[] = []
  let head = 0
  let tail = 0
  const trips = new Set<Promise<void>>()
  let scheduled = false
  const stats = { batches: 0, items: 0, maxBatch: 0 }
  const left = () => tail - head

  const send = (): void => {
    scheduled = false
    while (left() && trips.size < concurrency) {
      const end = Math.min(tail, head + maxBatch)
      const batch = items.slice(head, end) as I[]
      const answers = dones.slice(head, end) as Done<O>[]
      const firstAt = observe ? joined[head]! : 0
      items.fill(undefined, head, end)
      dones.fill(undefined, head, end)
      head = end
      if (head === tail) {
        head = tail = 0
        if (items.length > SPIKE) {
          items = []
          dones = []
          joined = []
        }
      } else if (head > SPIKE && head * 2 > tail) {
        items = items.slice(head, tail)
        dones = dones.slice(head, tail)
        joined = joined.slice(head, tail)
        tail -= head
        head = 0
      }
      const leftAt = performance.now()
      const trip: Promise<void> = run(batch)
        .then(
          outs => {
            stats.batches++
            stats.items += batch.length
            stats.maxBatch = Math.max(stats.maxBatch, batch.length)
            observe?.((leftAt - firstAt) / 1000, (performance.now() - leftAt) / 1000, batch.length)
            settle(answers, i => outs[i] as O | Error)
          },
          (e: unknown) => {
            const error = asError(e)
            settle(answers, () => error)
          },
        )
        .finally(() => {
          trips.delete(trip)
          if (left()) schedule()
        })
      trips.add(trip)
    }
  }
  const enqueue = (item: I, done: Done<O>): void => {
    // at `tail`: within the arrays a cell emptied before, at their end a push
    items[tail] = item
    dones[tail] = done
    if (observe) joined[tail] = performance.now()
    tail++
    schedule()
  }
  const schedule = () => {
    if (!scheduled) {
      scheduled = true
      setImmediate(send)
    }
  }

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => enqueue(item, o => (o instanceof Error ? reject(o) : resolve(o))))
    },
    submitTo: enqueue,
    async flush() {
      while (trips.size || left()) {
        send()
        await Promise.allSettled(trips)
      }
    },
    get inFlight() {
      return trips.size
    },
    get waiting() {
      return left()
    },
    stats,
  }
}
