// Two small heaps for the pruned search: indices by value, largest first, sorted only as far as asked; and the
// smallest of the n best values so far (the threshold a candidate must reach).

/**
 * Indices 0..n-1 in falling order of their values, popped from a max-heap as they are asked for. With `exact`,
 * the values given are upper bounds: an index reaching the top is evaluated and goes back with its exact value,
 * so the order is exact while only the indices whose bound beats the next exact value are ever evaluated.
 */
export class LazyOrder {
  private readonly heap: number[]
  private readonly prefix: number[] = []
  private readonly values: number[]
  private readonly known: Uint8Array | null
  constructor(
    values: readonly number[],
    private readonly exact?: (i: number) => number,
  ) {
    this.values = [...values]
    this.known = exact ? new Uint8Array(values.length) : null
    this.heap = values.map((_, i) => i)
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i)
  }
  get length(): number {
    return this.values.length
  }
  value(i: number): number {
    return this.values[i]!
  }
  /** the index with the k-th largest value */
  at(k: number): number {
    while (this.prefix.length <= k) {
      const top = this.heap[0]!
      if (this.known && !this.known[top]) {
        // a bound at the top: its exact value, and back in its place
        this.known[top] = 1
        this.values[top] = this.exact!(top)
        this.down(0)
        continue
      }
      const last = this.heap.pop()!
      if (this.heap.length) {
        this.heap[0] = last
        this.down(0)
      }
      this.prefix.push(top)
    }
    return this.prefix[k]!
  }
  private down(i: number): void {
    const h = this.heap,
      v = this.values,
      n = h.length
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1
      let m = i
      if (l < n && v[h[l]!]! > v[h[m]!]!) m = l
      if (r < n && v[h[r]!]! > v[h[m]!]!) m = r
      if (m === i) return
      ;[h[i], h[m]] = [h[m]!, h[i]!]
      i = m
    }
  }
}

/** A min-heap of numbers. */
export class MinHeap {
  private readonly h: number[] = []
  get size(): number {
    return this.h.length
  }
  get min(): number {
    return this.h[0]!
  }
  push(v: number): void {
    const h = this.h
    let i = h.push(v) - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (h[p]! <= v) break
      h[i] = h[p]!
      i = p
    }
    h[i] = v
  }
  pop(): number {
    const h = this.h,
      top = h[0]!,
      last = h.pop()!
    const n = h.length
    if (n) {
      let i = 0
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1
        let m = -1,
          mv = last
        if (l < n && h[l]! < mv) {
          m = l
          mv = h[l]!
        }
        if (r < n && h[r]! < mv) m = r
        if (m < 0) break
        h[i] = h[m]!
        i = m
      }
      h[i] = last
    }
    return top
  }
}
