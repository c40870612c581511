// A path's output, two ways: exactly (chained bigint quotes, what the pools would pay) and as a
// float curve (output and marginal rate as numbers) that the optimiser can evaluate thousands of
// times per quote. Only the exact form ever reaches an answer; the curve only steers the search.
import type { Address, PoolState, StablePool, V2Pool, V3Pool } from './types.js'
import { quoteExactIn } from './pool.js'
import type { Path } from './graph.js'

/** Exact output of a path: each hop's output is the next hop's input. */
export function simulatePath(path: Path, amountIn: bigint): bigint {
  let amount = amountIn
  for (const hop of path.hops) {
    if (amount <= 0n) return 0n
    amount = quoteExactIn(hop.pool, hop.tokenIn, hop.tokenOut, amount)
  }
  return amount
}

/** Float model of an output function: concave, increasing, out(0) = 0, rate = d out / d in. */
export interface Curve {
  out(x: number): number
  rate(x: number): number
  /** what the pruned search may assume of `out` without evaluating it (see CurveBound) */
  bound: CurveBound
}

/**
 * An upper bound on a curve, cheap to combine: for every x >= 0,
 * out(x) <= min(rate * x * reserve / (reserve + rate * x), cap) + noise, and rate(x) <= rate.
 * `rate` is the curve's own rate(0), the steepest it gets (concave). `reserve` shapes the bound like a
 * constant-product pool's: exact for V2 (the output reserve); for V3 the largest virtual reserve its loaded
 * liquidity reaches, since price moves no slower than it would with that liquidity everywhere; Infinity
 * (a straight line capped) for stable pools. `noise` is the absolute float error the model may carry.
 */
export interface CurveBound {
  rate: number
  reserve: number
  cap: number
  noise: number
}

/** The bound of one curve (or of the best of several, combined field by field) at input x. */
export function boundOut(b: CurveBound, x: number): number {
  const line = b.rate * x
  const shaped = b.reserve === Infinity ? line : (line * b.reserve) / (b.reserve + line)
  return (shaped < b.cap ? shaped : b.cap) + b.noise
}

/** Curves per pool and input token, shared by every path (and every protocol subset) of one search. */
export type CurveCache = Map<PoolState, Map<Address, Curve>>

export function pathCurve(path: Path, cache: CurveCache): Curve {
  const curves = path.hops.map(h => hopCurve(h.pool, h.tokenIn, h.tokenOut, cache))
  if (curves.length === 1) return curves[0]!
  return chain(curves[0]!, curves[1]!)
}

/** Two hops in a row: the second takes what the first pays. */
export function chain(first: Curve, second: Curve): Curve {
  const a = first.bound,
    b = second.bound
  return {
    out: x => second.out(first.out(x)),
    rate: x => second.rate(first.out(x)) * first.rate(x), // chain rule
    bound: { rate: a.rate * b.rate, reserve: Infinity, cap: boundOut(b, a.cap + a.noise), noise: 0 },
  }
}

function hopCurve(pool: PoolState, tokenIn: Address, tokenOut: Address, cache: CurveCache): Curve {
  let byToken = cache.get(pool)
  if (!byToken) cache.set(pool, (byToken = new Map()))
  const key = pool.kind === 'stable' ? (`${tokenIn}${tokenOut}` as Address) : tokenIn // a 3-coin pool has 2 outputs per input
  let curve = byToken.get(key)
  if (!curve) byToken.set(key, (curve = poolCurve(pool, tokenIn, tokenOut)))
  return curve
}

export function poolCurve(pool: PoolState, tokenIn: Address, tokenOut: Address): Curve {
  switch (pool.kind) {
    case 'v2':
      return v2Curve(pool, tokenIn)
    case 'v3':
      return v3Curve(pool, tokenIn === pool.token0)
    case 'stable':
      return stableCurve(pool, tokenIn, tokenOut)
  }
}

const ZERO: Curve = { out: () => 0, rate: () => 0, bound: { rate: 0, reserve: 0, cap: 0, noise: 0 } }

// x*g*R1 / (R0 + x*g): the constant-product closed form, with g = 1 - fee.
function v2Curve(pool: V2Pool, tokenIn: Address): Curve {
  const zeroForOne = tokenIn === pool.token0
  const r0 = Number(zeroForOne ? pool.reserve0 : pool.reserve1)
  const r1 = Number(zeroForOne ? pool.reserve1 : pool.reserve0)
  if (!(r0 > 0 && r1 > 0)) return ZERO
  const g = 1 - pool.feePpm / 1e6
  return bounded(
    {
      out: x => (x * g * r1) / (r0 + x * g),
      rate: x => (g * r0 * r1) / ((r0 + x * g) * (r0 + x * g)),
    },
    { reserve: r1, cap: r1, noise: 0 },
  )
}

const LN_SQRT_1_0001 = Math.log(1.0001) / 2
const MIN_TICK = -887272
const MAX_TICK = 887272
const Q96 = 2 ** 96

// The V3 swap loop in floats: constant-liquidity segments between initialised ticks, ending
// where the loaded tick-bitmap words end (the exact quote stops there too).
function v3Curve(pool: V3Pool, zeroForOne: boolean): Curve {
  const g = 1 - pool.fee / 1e6
  const sqrtAt = (tick: number) => Math.exp(tick * LN_SQRT_1_0001)
  const wordTicks = 256 * pool.tickSpacing
  const bound = zeroForOne
    ? Math.max(MIN_TICK, pool.wordRange[0] * wordTicks)
    : Math.min(MAX_TICK, (pool.wordRange[1] + 1) * wordTicks - pool.tickSpacing)
  // segment i: price from starts[i] to ends[i] with liquidity liq[i]; needIn/gives = full traversal
  const starts: number[] = [],
    ends: number[] = [],
    liq: number[] = [],
    needIn: number[] = [],
    gives: number[] = []
  let s = Number(pool.sqrtPriceX96) / Q96
  let L = Number(pool.liquidity)
  const push = (target: number) => {
    if (zeroForOne ? target < s : target > s) {
      if (L > 0) {
        starts.push(s)
        ends.push(target)
        liq.push(L)
        needIn.push(zeroForOne ? L * (1 / target - 1 / s) : L * (target - s))
        gives.push(zeroForOne ? L * (s - target) : L * (1 / s - 1 / target))
      }
      s = target
    }
  }
  if (zeroForOne) {
    for (let i = pool.ticks.length - 1; i >= 0; i--) {
      const t = pool.ticks[i]!
      if (t.tick > pool.tick || t.tick < bound) continue
      push(sqrtAt(t.tick))
      L -= Number(t.liquidityNet)
    }
  } else {
    for (const t of pool.ticks) {
      if (t.tick <= pool.tick || t.tick > bound) continue
      push(sqrtAt(t.tick))
      L += Number(t.liquidityNet)
    }
  }
  push(sqrtAt(bound))
  const n = starts.length
  const walk = (x: number, wantRate: boolean): number => {
    if (!wantRate && !(x > 0)) return 0 // not l * (a - 1 / (1 / a)): a rounding error the size of the pool
    let left = x * g,
      out = 0
    for (let i = 0; i < n; i++) {
      if (left >= needIn[i]!) {
        left -= needIn[i]!
        out += gives[i]!
        continue
      }
      const a = starts[i]!,
        l = liq[i]!
      const next = zeroForOne ? 1 / (1 / a + left / l) : a + left / l
      if (wantRate) return zeroForOne ? g * next * next : g / (next * next)
      return out + (zeroForOne ? l * (a - next) : l * (1 / a - 1 / next))
    }
    return wantRate ? 0 : out // the loaded liquidity is used up
  }
  if (n === 0) return ZERO
  return bounded({ out: x => walk(x, false), rate: x => walk(x, true) }, v3Bound(zeroForOne, starts[0]!, liq, gives))
}

// Within a segment the V3 curve is a constant-product one with virtual output reserve L*s (selling token0, s the
// sqrt price) or L/s; across segments the price moves at g/L per unit in, never slower than with the largest L
// throughout (a gap with no liquidity only jumps it further), so that reserve at the first segment bounds it all.
function v3Bound(zeroForOne: boolean, s: number, liq: number[], gives: number[]): Omit<CurveBound, 'rate'> {
  let lMax = 0,
    cap = 0
  for (let i = 0; i < liq.length; i++) {
    if (liq[i]! > lMax) lMax = liq[i]!
    cap += gives[i]!
  }
  const reserve = zeroForOne ? lMax * s : lMax / s
  return { reserve, cap, noise: (reserve + cap) * 1e-12 }
}

/** The curve with its bound; the bound's rate is the curve's own rate(0), to the last bit. */
function bounded(curve: Omit<Curve, 'bound'>, bound: Omit<CurveBound, 'rate'>): Curve {
  return { ...curve, bound: { rate: curve.rate(0), ...bound } }
}

// StableSwap in floats, after the invariant of contracts/pools/StableSwapPool.sol (Curve's form:
// A carries A_PRECISION = 100, fee in 1e10 units, xp = balance * rate / 1e18). With alpha = Ann / 100
// and Dp = D^(n+1) / (n^n prod(xp)), the invariant reads alpha (D - S) - D + Dp = 0; holding D,
// the marginal rate dy/dx of coin j for coin i is (alpha + Dp/x_i) / (alpha + Dp/x_j).
function stableCurve(pool: StablePool, tokenIn: Address, tokenOut: Address): Curve {
  const i = pool.coins.indexOf(tokenIn),
    j = pool.coins.indexOf(tokenOut)
  const n = pool.coins.length
  if (i < 0 || j < 0 || i === j) return ZERO
  const xp = pool.balances.map((b, k) => (Number(b) * Number(pool.rates[k]!)) / 1e18)
  if (!xp.every(x => x > 0)) return ZERO
  const alpha = (Number(pool.A) * n) / 100
  const keep = 1 - Number(pool.fee) / 1e10
  const scaleIn = Number(pool.rates[i]!) / 1e18,
    scaleOut = Number(pool.rates[j]!) / 1e18
  const S = xp.reduce((a, b) => a + b, 0)
  let D = S
  for (let it = 0; it < 255; it++) {
    // D = (alpha S + n Dp) D / ((alpha - 1) D + (n + 1) Dp)
    let Dp = D
    for (const x of xp) Dp = (Dp * D) / (x * n)
    const next = ((alpha * S + n * Dp) * D) / ((alpha - 1) * D + (n + 1) * Dp)
    if (Math.abs(next - D) <= D * 1e-15) {
      D = next
      break
    }
    D = next
  }
  const others = xp.filter((_, k) => k !== i && k !== j)
  // y on coin j once coin i holds xi: y^2 + (b - D) y = c, Newton as the contract does
  const yAt = (xi: number) => {
    let c = (D * D) / (xi * n),
      sum = xi
    for (const x of others) {
      c = (c * D) / (x * n)
      sum += x
    }
    c = (c * D) / (alpha * n)
    const b = sum + D / alpha
    let y = D
    for (let it = 0; it < 255; it++) {
      const next = (y * y + c) / (2 * y + b - D)
      if (Math.abs(next - y) <= y * 1e-15) return next
      y = next
    }
    return y
  }
  let othersDp = 1 // prod over the untouched coins of D / (x n)
  for (const x of others) othersDp *= D / (x * n)
  const curve: Omit<Curve, 'bound'> = {
    out: x => {
      if (!(x > 0)) return 0
      const xi = xp[i]! + x * scaleIn
      return Math.max(0, ((xp[j]! - yAt(xi)) * keep) / scaleOut)
    },
    rate: x => {
      const xi = xp[i]! + Math.max(0, x) * scaleIn
      const y = x > 0 ? yAt(xi) : xp[j]!
      const Dp = ((D * D) / (xi * n)) * (D / (y * n)) * othersDp
      return ((keep * (alpha + Dp / xi)) / (alpha + Dp / y)) * (scaleIn / scaleOut)
    },
  }
  // concave: never above its zero-size rate, never more than coin j's balance; Newton's tolerance and the
  // subtraction from the balance leave an error far below a millionth of that balance
  const cap = (xp[j]! * keep) / scaleOut
  return bounded(curve, { reserve: Infinity, cap, noise: cap * 1e-11 })
}
