// An array of `size` empty strings, packed, for a batch written cell by cell and then posted to a thread. V8's
// serializer copies a packed array element by element but a holey one (`new Array(n)`, even once filled) key by key:
// a post of 90 quotes took ~52 against ~30 µs. A slice of one array of blanks has exactly the batch's backing store;
// pushed cell by cell, the array grew by copies (312 against 105 B a quote at 50 a batch). Used by the group commit's
// flat batch (engine/store/quotes.ts) and the signature pool's cells (workers/sig/signedQuoteCells.ts).

/** as many blanks as the largest batch yet has asked for: never written, only sliced */
const blanks: string[] = []

export function packedBlanks(size: number): (string | number)[] {
  while (blanks.length < size) blanks.push('')
  return blanks.slice(0, size)
}
