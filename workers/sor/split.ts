// The split optimiser. The input may be spread over up to maxSplit pool-disjoint routes (a pool
// shared by two legs would make their outputs depend on each other). For a fixed set of routes
// with concave outputs, the best split equalises their marginal output rates: find the common
// rate lambda whose demands sum to amountIn. Which routes to use is searched three ways (the best
// 5%-step combination over the leaders, greedy growth by marginal rate, one-for-one swaps);
// the winner is integerised and polished with exact simulations, and the answer is the best
// exact outcome among it, the best single route and the 5%-step split, so it is never worse
// than either floor. It asks its candidate source only for leaders (candidates.ts), never for all.
import type { Path } from './graph.js'
import { pathPools } from './graph.js'
import { simulatePath, type Curve } from './path.js'
import { STEPS, stepAmount, stepOutputs, bestStepCombination, stepLegs } from './stepGrid.js'
import { arraySource, type Candidate, type CandidateSource } from './candidates.js'

export type { Candidate }
export interface Route { path: Path; amountIn: bigint; amountOut: bigint }
export interface Split { routes: Route[]; amountOut: bigint }

export interface SplitReport {
  best: Split
  bestSingle: Split
  stepSplit: Split
  /** which candidate won: the marginal-rate split, the best single route or the 5%-step split */
  winner: 'marginal' | 'single' | 'step'
  /** the common marginal output rate of the float solution (output per unit of input) */
  lambda: number
  polishMoves: number
  setsTried: number
}

export { STEPS, stepAmount, bestStepCombination }

const EMPTY: Split = { routes: [], amountOut: 0n }
/** how many leaders by each measure the search looks at */
const LEADERS = 12

export interface SplitOptions {
  /** growth by marginal rate only, no 5%-step search, no swaps, no exact polish: for side answers
   * such as the per-protocol alternatives, where a cheap good answer beats a dear best one */
  light?: boolean
}

export function optimiseSplit(source: CandidateSource, amountIn: bigint, maxSplit: number, { light = false }: SplitOptions = {})
  : SplitReport {
  const empty: SplitReport = { best: EMPTY, bestSingle: EMPTY, stepSplit: EMPTY, winner: 'single', lambda: 0, polishMoves: 0,
    setsTried: 0 }
  if (amountIn <= 0n) return empty
  const leaders = source.top('final', Math.max(LEADERS, maxSplit))
  if (leaders.length === 0) return empty
  const candidates = source.list, total = source.total
  const k = Math.max(1, Math.min(maxSplit, leaders.length))
  const order = leaders.slice(0, LEADERS)
  const byRate = light ? [] : source.top('rate0', LEADERS)

  // floor 1: the best single route, by exact simulation of the float model's leaders
  const bestSingle = pickBestSingle(candidates, order.slice(0, light ? 2 : 4), amountIn)

  // floor 2: the best 5%-step combination of float outputs, evaluated exactly. A route in it is a
  // leader at full size, at a quarter or at zero size; the others are out of its reach
  const shortlist = light ? [] : [...new Set([...order, ...source.top('quarter', LEADERS), ...byRate])]
  const table = shortlist.map(i => stepOutputs(x => candidates[i]!.curve.out(x), total))
  const grid = light ? [] : bestStepCombination(table, shortlist.map(i => candidates[i]!.pools), k).map(p => ({ index: shortlist[p.index]!, steps: p.steps }))
  const stepSplit = exactSplit(candidates, grid.map(p => p.index), stepLegs(amountIn, grid.map(p => p.steps)), amountIn)

  // continuous: equalise marginal rates on several route sets, keep the best float outcome
  let setsTried = 0
  const evaluate = (set: number[]) => { setsTried++; return { set, ...equalise(set.map(i => candidates[i]!.curve), total, SCREEN) } }
  let best = evaluate([order[0]!])
  const consider = (set: number[]) => { const r = evaluate(set); if (r.out > best.out) best = r; return r }
  if (grid.length > 1) consider(grid.map(p => p.index))
  if (k > 1) {
    grow(source, k, consider, [order[0]!])
    if (grid.length > 1) grow(source, k, consider, grid.map(p => p.index))
    if (!light) swapOneForOne(candidates, [...new Set([...order.slice(0, 6), ...byRate.slice(0, 4)])], best.set, consider)
  }

  const final = equalise(best.set.map(i => candidates[i]!.curve), total)
  const amounts = integerise(final.amounts, amountIn)
  const polished = !light ? polish(candidates, best.set, amounts, amountIn) : { split: exactSplit(candidates, best.set, amounts, amountIn), moves: 0 }
  const marginal = polished.split
  const ranked: Array<[SplitReport['winner'], Split]> = [['marginal', marginal], ['step', stepSplit], ['single', bestSingle]]
  const [winner, chosen] = ranked.reduce((a, b) => (b[1].amountOut > a[1].amountOut ? b : a))
  return { best: chosen, bestSingle, stepSplit, winner, lambda: best.lambda, polishMoves: polished.moves, setsTried }
}

const SCREEN = 1e-5 // equalisation tolerance while comparing route sets
/**
 * The common marginal rate lambda at which the routes' demands sum to total (Illinois-weighted
 * regula falsi on lambda, and on x inside each demand). `tolerance` is relative to total: an
 * allocation off by e loses output only in e^2, so screening route sets can be coarse.
 */
export function equalise(curves: readonly Curve[], total: number, tolerance = 1e-10): { amounts: number[]; lambda: number; out: number } {
  if (curves.length === 1) return { amounts: [total], lambda: curves[0]!.rate(total), out: curves[0]!.out(total) }
  const amounts = new Array<number>(curves.length).fill(0)
  const excess = (lambda: number) => {
    let sum = -total
    for (let i = 0; i < curves.length; i++) sum += amounts[i] = demandAt(curves[i]!, lambda, total, tolerance / 16) // finer than the sum's test, or its noise stalls it
    return sum
  }
  let hi = 0, lo = Infinity
  for (const c of curves) { hi = Math.max(hi, c.rate(0)); lo = Math.min(lo, c.rate(total)) } // nobody / everyone wants it all
  lo = Math.max(lo, hi * 1e-12) // below this every route is as good as full: saturated
  const fLo = excess(lo)
  // Solved in u = 1/sqrt(lambda), where a constant-product leg's demand is linear (and a V3 leg's
  // piecewise linear), so the secant steps land almost at once; the excess rises with u
  let lambda = lo
  if (fLo > 0) {
    const u = fallingRoot(v => -excess(1 / (v * v)), 1 / Math.sqrt(hi), 1 / Math.sqrt(lo), total, -fLo,
      (a, b, f) => Math.abs(f) <= total * tolerance || b - a <= b * 1e-15)
    lambda = 1 / (u * u)
  }
  excess(lambda)
  let sum = 0
  for (const a of amounts) sum += a
  // saturated routes (all loaded liquidity used) leave input over: scale to spend exactly total
  const scaled = sum > 0 ? amounts.map(a => (a * total) / sum) : amounts.map((_, i) => (i === 0 ? total : 0))
  let out = 0
  for (let i = 0; i < curves.length; i++) out += curves[i]!.out(scaled[i]!)
  return { amounts: scaled, lambda, out }
}

// The input a route takes at marginal rate lambda: rate(x) = lambda, rate falls as x grows.
function demandAt(curve: Curve, lambda: number, top: number, tolerance: number): number {
  const r0 = curve.rate(0)
  if (!(r0 > lambda)) return 0
  const rTop = curve.rate(top)
  if (rTop >= lambda) return top
  // in 1/sqrt(rate), which is linear in x on a constant-product or single-range V3 leg
  // clipped at -target (rate under lambda/4, far past the root), so a leg that runs dry does not
  // throw the secant off with a near-infinite value
  const target = 1 / Math.sqrt(lambda)
  const f = (x: number) => { const r = curve.rate(x); return r > lambda / 4 ? target - 1 / Math.sqrt(r) : -target }
  return fallingRoot(f, 0, top, f(0), f(top), (a, b) => b - a <= top * tolerance)
}

/**
 * The root of a falling function bracketed by f(a) > 0 > f(b): Illinois-weighted regula falsi,
 * which is fast on smooth curves, with every third step a bisection, which bounds it on kinked
 * ones (a route entering the split, a pool running out of loaded liquidity).
 */
function fallingRoot(f: (x: number) => number, a: number, b: number, fa: number, fb: number,
  done: (a: number, b: number, fx: number) => boolean): number {
  let side = 0, x = a
  for (let n = 0; n < 120; n++) {
    x = n % 3 === 2 ? (a + b) / 2 : (a * fb - b * fa) / (fb - fa)
    if (!(x > a && x < b)) x = (a + b) / 2
    const fx = f(x)
    if (fx === 0 || done(a, b, fx)) return x
    if (fx > 0) { a = x; fa = fx; if (side === 1) fb /= 2; side = 1 }
    else { b = x; fb = fx; if (side === -1) fa /= 2; side = -1 }
    if (done(a, b, fx)) break
  }
  return (a + b) / 2
}

// Add, one at a time, the disjoint route that lifts the equalised output most; only routes whose
// zero-size rate beats the current common rate can help, and the best few of those are tried.
function grow(source: CandidateSource, k: number,
  consider: (set: number[]) => { out: number; lambda: number; set: number[] }, seed: number[]): void {
  let current = consider(seed)
  while (current.set.length < k) {
    const used = new Set(current.set.flatMap(i => source.list[i]!.pools))
    let next = current
    for (const i of source.options(current.lambda, used, 6)) {
      const r = consider([...current.set, i])
      if (r.out > next.out) next = r
    }
    if (next === current) return
    current = next
  }
}

// One pass of swapping a member for an outside route that fits, keeping any improvement.
function swapOneForOne(candidates: readonly Candidate[], outside: readonly number[], set: number[],
  consider: (set: number[]) => { out: number; set: number[] }): void {
  if (set.length < 2) return
  for (let m = 0; m < set.length; m++) {
    const rest = set.filter((_, j) => j !== m)
    const used = new Set(rest.flatMap(i => candidates[i]!.pools))
    for (const i of outside) if (!set.includes(i) && !candidates[i]!.pools.some(p => used.has(p))) consider([...rest, i])
  }
}

function pickBestSingle(candidates: readonly Candidate[], indices: readonly number[], amountIn: bigint): Split {
  let best = EMPTY
  for (const i of indices) {
    const out = simulatePath(candidates[i]!.path, amountIn)
    if (out > best.amountOut) best = { routes: [{ path: candidates[i]!.path, amountIn, amountOut: out }], amountOut: out }
  }
  return best
}

/** Floats to exact integers that sum to amountIn: floor each, the rest to the largest leg. */
export function integerise(amounts: readonly number[], amountIn: bigint): bigint[] {
  const ints = amounts.map(a => (a > 0 && Number.isFinite(a) ? BigInt(Math.floor(a)) : 0n))
  const capped = ints.map(a => (a > amountIn ? amountIn : a))
  let rest = amountIn - capped.reduce((a, b) => a + b, 0n)
  let largest = 0
  capped.forEach((a, i) => { if (a > capped[largest]!) largest = i })
  while (rest < 0n) { // float rounding overshot: take it back from the largest legs
    const take = capped[largest]! < -rest ? capped[largest]! : -rest
    capped[largest] = capped[largest]! - take; rest += take
    capped.forEach((a, i) => { if (a > capped[largest]!) largest = i })
  }
  capped[largest] = capped[largest]! + rest
  return capped
}

/** Exact outcome of giving amounts[j] to candidates[set[j]]; empty legs are dropped. */
export function exactSplit(candidates: readonly Candidate[], set: readonly number[], amounts: readonly bigint[], amountIn: bigint): Split {
  if (set.length === 0) return EMPTY
  const routes: Route[] = []
  let sum = 0n
  set.forEach((i, j) => {
    const a = amounts[j]!
    if (a <= 0n) return
    const out = simulatePath(candidates[i]!.path, a)
    routes.push({ path: candidates[i]!.path, amountIn: a, amountOut: out }); sum += out
  })
  return routes.reduce((s, r) => s + r.amountIn, 0n) === amountIn ? { routes, amountOut: sum } : EMPTY
}

// Exact hill-climb: move delta from the leg that loses least to the leg that gains most while the
// exact total rises, at shrinking delta. The float solution is close, so few moves happen.
function polish(candidates: readonly Candidate[], set: number[], amounts: bigint[], amountIn: bigint): { split: Split; moves: number } {
  const paths = set.map(i => candidates[i]!.path)
  const a = [...amounts]
  const outs = a.map((x, j) => (x > 0n ? simulatePath(paths[j]!, x) : 0n))
  let moves = 0
  if (paths.length > 1) {
    for (const shift of [12n, 18n, 24n]) {
      const delta = amountIn >> shift
      if (delta <= 0n) break
      const movesBefore = moves
      const up: bigint[] = [], down: Array<bigint | null> = []
      const probe = (j: number) => {
        up[j] = simulatePath(paths[j]!, a[j]! + delta) - outs[j]!
        down[j] = a[j]! >= delta ? outs[j]! - simulatePath(paths[j]!, a[j]! - delta) : null
      }
      a.forEach((_, j) => probe(j))
      for (let round = 0; round < 4; round++) {
        let from = -1, to = -1, gain = 0n
        for (let i = 0; i < a.length; i++) for (let j = 0; j < a.length; j++) {
          if (i === j || down[i] === null) continue
          const g = up[j]! - down[i]!
          if (g > gain) { gain = g; from = i; to = j }
        }
        if (from < 0) break
        a[from] = a[from]! - delta; a[to] = a[to]! + delta
        outs[from] = outs[from]! - down[from]!; outs[to] = outs[to]! + up[to]!
        moves++
        probe(from); probe(to)
      }
      if (moves === movesBefore) break // the float split already holds at this scale: finer will not pay
    }
  }
  const routes = paths.map((path, j) => ({ path, amountIn: a[j]!, amountOut: outs[j]! })).filter(r => r.amountIn > 0n)
  return { split: { routes, amountOut: outs.reduce((s, o) => s + o, 0n) }, moves }
}

// ---- the 5%-step split (Uniswap AlphaRouter's method) -------------------------------------------

/** The 5%-step split with exact quotes for every step of every candidate: the baseline to beat. */
export function stepSplitExact(paths: readonly Path[], amountIn: bigint, maxSplit: number): Split {
  const candidates: Candidate[] = paths.map(path => ({ path, curve: NO_CURVE, pools: pathPools(path) }))
  const table = paths.map(path => {
    const row = new Float64Array(STEPS + 1)
    for (let s = 1; s <= STEPS; s++) row[s] = Number(simulatePath(path, stepAmount(amountIn, s)))
    return row
  })
  const picks = bestStepCombination(table, candidates.map(c => c.pools), Math.max(1, maxSplit))
  return exactSplit(candidates, picks.map(p => p.index), stepLegs(amountIn, picks.map(p => p.steps)), amountIn)
}

const NO_CURVE: Curve = { out: () => 0, rate: () => 0, bound: { rate: 0, reserve: 0, cap: 0, noise: 0 } }

/** The exhaustive source over explicit candidates (every measure computed for every one). */
export { arraySource }
