// An array of `size` empty strings, packed, for a batch written cell by cell and then posted to a thread. V8's
// serializer copies a packed array element by element but a holey one (`new Array(n)`, even once filled) key by key:
// a post of 90 quotes took ~52 against ~30 µs. A slice of one array of blanks has exactly the batch's backing store;
// pushed cell by cell, the array grew by copies (312 against 105 B a quote at 50 a batch). Used by the group commit's
// flat batch (engine/store/quotes.ts) and the signature pool's cells (workers/sig/signedQuoteCells.ts), which lend
// them out (`LentBlanks`) and take them back once posted.

/** as many blanks as the largest batch yet has asked for: never written, only sliced */
const blanks: string[] = []

export function packedBlanks(size: number): (string | number)[] {
  while (blanks.length < size) blanks.push('')
  return blanks.slice(0, size)
}

/**
 * Packed blank arrays lent out and given back, by size: for batches whose array is garbage once its receiver holds
 * its copy (a thread's message). A new array a batch was ~80-100 bytes a relay quote on each of its two trips (issue
 * 29). Only arrays of at most `maxSize` cells are kept, at most `perSize` of one size, so what waits stays small.
 */
export class LentBlanks {
  private readonly free: (string | number)[][][]
  constructor(
    private readonly maxSize: number,
    private readonly perSize = 4,
  ) {
    this.free = new Array<(string | number)[][]>(maxSize + 1)
  }

  /** an array of `size` blanks, packed: one given back, or a new one */
  take(size: number): (string | number)[] {
    return (size <= this.maxSize && this.free[size]?.pop()) || packedBlanks(size)
  }

  /** `cells` back once its receiver has its copy, blanked: it holds none of its batch's values while it waits */
  give(cells: (string | number)[]): void {
    const size = cells.length
    if (size > this.maxSize) return
    const list = (this.free[size] ??= [])
    if (list.length < this.perSize) list.push(cells.fill(''))
  }
}
