// The candidate routes, as the split optimiser asks for them. It never needs all of them: it asks for the few
// best by output at the whole input, at a quarter of it and by zero-size rate, and, while growing a split, for
// the best few by rate that share no pool with it. A source answers those questions; `arraySource` by looking
// at every candidate (the exhaustive search, and the reference the pruned one is held to), `graphSource.ts`
// by bounds that skip what cannot be among the best. Both give the same answers, in the same order.
import type { Address } from './types.js'
import type { Path } from './graph.js'
import type { Curve } from './path.js'

export interface Candidate {
  path: Path
  curve: Curve
  pools: Address[]
}

/** What a candidate is ranked by: float output at amountIn ('final') or at amountIn / 4, or the zero-size rate. */
export type Measure = 'final' | 'quarter' | 'rate0'

export interface CandidateSource {
  /** every candidate handed out so far; an index stays valid for the source's life */
  readonly list: readonly Candidate[]
  /** the float amountIn the measures are taken at */
  readonly total: number
  /**
   * The n candidates best by `measure`, best first, equal values in path order. Only candidates whose
   * output at amountIn is positive (the viable ones), and only positive values.
   */
  top(measure: Measure, n: number): number[]
  value(measure: Measure, i: number): number
  /** Up to n viable candidates with rate0 > minRate that use no pool of `used`, best rate first (path order on ties). */
  options(minRate: number, used: ReadonlySet<Address>, n: number): number[]
  /** paths whose output was computed (what the search really looked at) and how many of them were viable */
  readonly work: { considered: number; viable: number }
}

/** A source over an explicit list: every candidate's measures computed up front. */
export function arraySource(
  candidates: readonly Candidate[],
  total: number,
  finals?: readonly number[],
): CandidateSource {
  const values: Record<Measure, readonly number[]> = {
    final: finals ?? candidates.map(c => c.curve.out(total)),
    quarter: candidates.map(c => c.curve.out(total / 4)),
    rate0: candidates.map(c => c.curve.rate(0)),
  }
  const viable = values.final.reduce((n, v) => (v > 0 ? n + 1 : n), 0)
  return {
    list: candidates,
    total,
    top: (measure, n) => top(values[measure], n, i => values.final[i]! > 0),
    value: (measure, i) => values[measure][i]!,
    options(minRate, used, n) {
      const rate0 = values.rate0,
        found: number[] = []
      for (let i = 0; i < candidates.length; i++)
        if (rate0[i]! > minRate && values.final[i]! > 0 && !candidates[i]!.pools.some(p => used.has(p))) found.push(i)
      return found.sort((a, b) => rate0[b]! - rate0[a]!).slice(0, n)
    },
    work: { considered: candidates.length, viable },
  }
}

/** Indices of the n largest positive values, largest first, equal values in index order: a partial selection. */
export function top(values: readonly number[], n: number, keep: (i: number) => boolean = () => true): number[] {
  const picked: number[] = []
  if (n <= 0) return picked
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    if (!(v > 0) || !keep(i)) continue
    if (picked.length === n && !(v > values[picked[n - 1]!]!)) continue
    let at = picked.length < n ? picked.length : n - 1
    while (at > 0 && v > values[picked[at - 1]!]!) at--
    picked.splice(at, 0, i)
    if (picked.length > n) picked.pop()
  }
  return picked
}
