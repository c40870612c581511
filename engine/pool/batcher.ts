// One batcher for every "many small items, few expensive trips" path: signer recovery (a trip to a
// pool thread) and the quote group commit (a trip to PostgreSQL and an fsync). Items submitted in
// the same tick, or while earlier batches are in flight, travel together, up to `maxBatch` per trip,
// with at most `concurrency` trips at once. An idle batcher sends its first item on the next turn
// with whatever joined it in this one: no timer, so a lone item never waits.
import { asError } from '../../workers/values/index.js'

/** One outcome an item; an Error as an item's outcome rejects that item's promise alone (a refusal, not a failure). */
export type BatchRunner<I, O> = (items: I[]) => Promise<(O | Error)[]>

/** An item's outcome as a callback: its result, or the Error its batch refused or failed it with. */
export type Done<O> = (outcome: O | Error) => void

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

interface Waiting<I, O> {
  item: I
  at: number
  done: Done<O>
}

/**
 * Every item of a batch gets its outcome, even when a callback throws (a bug of its owner's): the first such error
 * is thrown once all have theirs, so it surfaces (the trip's promise rejects, unhandled) without costing the rest.
 */
function settle<I, O>(batch: Waiting<I, O>[], outcome: (i: number) => O | Error): void {
  let thrown: { error: unknown } | undefined
  for (let i = 0; i < batch.length; i++)
    try {
      batch[i]!.done(outcome(i))
    } catch (error) {
      thrown ??= { error }
    }
  if (thrown) throw thrown.error
}

export function createBatcher<I, O>(
  run: BatchRunner<I, O>,
  { maxBatch = 64, concurrency = 2, observe }: BatcherOptions = {},
): Batcher<I, O> {
  // a queue read from `head`: a trip takes its batch without copying what stays behind (thousands may wait)
  // a taken entry's cell is emptied at once: the array lives as long as the queue is never fully drained, and a
  // cell kept after its trip would keep that quote's whole object graph alive until then (issue 29: they were
  // copied by every scavenge and promoted, most of what the major GCs collected)
  let waiting: (Waiting<I, O> | undefined)[] = []
  let head = 0
  const trips = new Set<Promise<void>>()
  let scheduled = false
  const stats = { batches: 0, items: 0, maxBatch: 0 }
  const left = () => waiting.length - head

  const send = (): void => {
    scheduled = false
    while (left() && trips.size < concurrency) {
      const batch = waiting.slice(head, head + maxBatch) as Waiting<I, O>[]
      waiting.fill(undefined, head, head + batch.length)
      head += batch.length
      if (head === waiting.length) {
        waiting = []
        head = 0
      } else if (head > 4096 && head * 2 > waiting.length) {
        waiting = waiting.slice(head)
        head = 0
      }
      const items = new Array<I>(batch.length)
      for (let i = 0; i < batch.length; i++) items[i] = batch[i]!.item
      const leftAt = performance.now()
      const trip: Promise<void> = run(items)
        .then(
          outs => {
            stats.batches++
            stats.items += batch.length
            stats.maxBatch = Math.max(stats.maxBatch, batch.length)
            observe?.((leftAt - batch[0]!.at) / 1000, (performance.now() - leftAt) / 1000, batch.length)
            settle(batch, i => outs[i] as O | Error)
          },
          (e: unknown) => {
            const error = asError(e)
            settle(batch, () => error)
          },
        )
        .finally(() => {
          trips.delete(trip)
          if (left()) schedule()
        })
      trips.add(trip)
    }
  }
  const schedule = () => {
    if (!scheduled) {
      scheduled = true
      setImmediate(send)
    }
  }

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        waiting.push({
          item,
          at: observe ? performance.now() : 0,
          done: o => (o instanceof Error ? reject(o) : resolve(o)),
        })
        schedule()
      })
    },
    submitTo(item, done) {
      waiting.push({ item, at: observe ? performance.now() : 0, done })
      schedule()
    },
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
