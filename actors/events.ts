// A small typed publish/subscribe bus for domain events (RFQ created, quoted, cancelled, filled...).
// The relay broadcast and the SSE feed subscribe; actors publish. Subscribers must not throw.
export type Listener<E> = (event: E) => void

export class EventBus<E extends { type: string }> {
  private readonly listeners = new Set<Listener<E>>()
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
      } catch {
        /* a broken subscriber must not break the publisher */
      }
    }
  }
  get size(): number {
    return this.listeners.size
  }
}
