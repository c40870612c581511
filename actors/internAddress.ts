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
  known.set(address, address)
  return address
}
