// Many small items, few thread hops: items submitted in the same tick (or while the previous
// batches are in flight) travel together, up to `maxBatch` per task. One item per task is
// slower than doing it on the main thread (see ARCHITECTURE.md's measured facts).
export type BatchRunner<I, O> = (items: I[]) => Promise<O[]>

export interface Batcher<I, O> {
  submit(item: I): Promise<O>
  readonly inFlight: number
}

export interface BatcherOptions {
  maxBatch?: number
  /** batches allowed in flight at once: about the pool's thread count, so none sits idle */
  concurrency?: number
}

export function createBatcher<I, O>(run: BatchRunner<I, O>, { maxBatch = 64, concurrency = 2 }: BatcherOptions = {}): Batcher<I, O> {
  let waiting: { item: I; resolve(o: O): void; reject(e: unknown): void }[] = []
  let inFlight = 0
  let scheduled = false

  const flush = () => {
    scheduled = false
    while (waiting.length && inFlight < concurrency) {
      const batch = waiting.slice(0, maxBatch)
      waiting = waiting.slice(batch.length)
      inFlight++
      run(batch.map(b => b.item)).then(
        outs => batch.forEach((b, i) => b.resolve(outs[i] as O)),
        e => batch.forEach(b => b.reject(e)),
      ).finally(() => { inFlight--; if (waiting.length) schedule() })
    }
  }
  const schedule = () => { if (!scheduled) { scheduled = true; setImmediate(flush) } }

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => { waiting.push({ item, resolve, reject }); schedule() })
    },
    get inFlight() { return inFlight },
  }
}
