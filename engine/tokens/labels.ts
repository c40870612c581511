// A name to show for each token of a listing, never the same for two. A token's label is its bare symbol exactly
// when typing that symbol resolves to it (engine/tokens/registry.ts: the one list entry with it, else the one
// token with it); every other token sharing the symbol (any case) shows it with its short address, or its whole
// address when a short one would read alike (a vanity address can copy the ends). A picker built from labels
// cannot offer two choices that read alike, such as two "WETH" of which one has no pools.
export interface Labelled {
  address: string
  symbol: string
  source?: 'list' | 'chain'
}

export function labels(tokens: readonly Labelled[]): Map<string, string> {
  const groups = new Map<string, Labelled[]>()
  for (const t of tokens) {
    const k = t.symbol.toLowerCase()
    groups.set(k, [...(groups.get(k) ?? []), t])
  }
  const out = new Map<string, string>()
  for (const group of groups.values()) {
    const listed = group.filter(t => t.source === 'list')
    const named = listed.length === 1 ? listed[0] : listed.length === 0 && group.length === 1 ? group[0] : undefined
    for (const t of group) {
      out.set(
        t.address,
        t === named && t.symbol ? t.symbol : withAddress(t, `${t.address.slice(0, 6)}…${t.address.slice(-4)}`),
      )
    }
  }
  const seen = new Map<string, number>()
  for (const l of out.values()) seen.set(l, (seen.get(l) ?? 0) + 1)
  for (const t of tokens) if (seen.get(out.get(t.address)!)! > 1) out.set(t.address, withAddress(t, t.address))
  return out
}

function withAddress(t: Labelled, address: string): string {
  return `${t.symbol ? `${t.symbol} ` : ''}(${address})`
}
