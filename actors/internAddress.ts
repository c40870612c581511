// One string an address for what the book keeps. Each quote arrives with its own copy of its maker's address (a fresh
// string out of its frame's JSON), and an RFQ keeps its makers for as long as it lives: a busy venue's book held one
// 42-character copy a quote of a few hundred makers' addresses, ~64 bytes a quote that every young-generation GC
// copied and promoted (issue 29). Values equal keys, so a lookup changes nothing but which copy is kept; the table is
// bounded, and a flood of addresses seen once costs a refill, never memory without end.
const known = new Map<string, string>()
const MAX = 65_536

export function internAddress<A extends string>(address: A): A {
  const kept = known.get(address)
  if (kept !== undefined) return kept as A
  if (known.size >= MAX) known.clear()
  const own = flatCopy(address)
  known.set(own, own)
  return own
}

/**
 * The address as a string of its own characters. What arrives is a slice of its frame's text, and a Map compares
 * two strings of the same length and hash inline only when both are flat: a slice sends every such comparison to the
 * runtime (V8's Runtime_StringEqual and String::SlowEquals, ~1.7% of the relay's main thread in perf, issue 29).
 * Kept flat, and handed out from the quote checks on, every later lookup of the address (the RFQ's makers, the
 * writer's answer) is a pointer compare, and the kept copy holds no frame's text alive. Made once an address, not
 * once a quote.
 */
function flatCopy<A extends string>(address: A): A {
  return Buffer.from(address, 'latin1').toString('latin1') as A
}
