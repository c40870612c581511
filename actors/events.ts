// A small typed publish/subscribe bus for domain events (RFQ created, quoted, cancelled, filled...).
// The relay broadcast and the SSE feed subscribe; actors publish. Subscribers must not throw: one that does
// is a bug, told to `onError`, and the other subscribers still get the event.
export type Listener<E> = (event: E) => void

export class EventBus<E extends { type: string }> {
  private readonly listeners = new Set<Listener<E>>()
  constructor(private readonly onError?: (err: unknown, event: E) => void) {}
  subscribe(fn: Listener<E>): () => void {
    this.listeners.add(fn)
    return () => {
      this.listeners.delete(fn)
    }
  }
  publish(event: E): void {
    for (const fn of this.listeners) {
      try {
        fn(event)
      } catch (err) {
        this.onError?.(err, event)
      } // a broken subscriber must not break the publisher
    }
  }
  get size(): number {
    return this.listeners.size
  }
}
