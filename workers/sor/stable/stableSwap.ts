// Mirrors contracts/pools/StableSwapPool.sol (this project's own 2- or 3-coin pool on Curve's StableSwap
// invariant, written after curve-contract's 3pool with the factory pools' A_PRECISION): get_D, get_y and _dy/get_dy
// line for line, with the .sol's names. Solidity 0.8 arithmetic is checked, so every +, -, * and / here goes
// through a helper that throws where the EVM would revert; a quote that throws is an exchange that reverts.
import { Errors } from '../errors.js'
import type { StablePool } from '../types.js'

export const A_PRECISION = 100n
export const PRECISION = 10n ** 18n
export const FEE_DENOMINATOR = 10n ** 10n
import { MAX_UINT256 } from '../../values/index.js'

function add(a: bigint, b: bigint): bigint {
  const z = a + b
  if (z > MAX_UINT256) throw Errors.overflow('StableSwapPool')
  return z
}
function sub(a: bigint, b: bigint): bigint {
  if (b > a) throw Errors.overflow('StableSwapPool')
  return a - b
}
function mul(a: bigint, b: bigint): bigint {
  const z = a * b
  if (z > MAX_UINT256) throw Errors.overflow('StableSwapPool')
  return z
}
function div(a: bigint, b: bigint): bigint {
  if (b === 0n) throw Errors.divisionByZero('StableSwapPool')
  return a / b
}

/** StableSwapPool._xp: balances in 18-decimal units. */
export function xpOf(rates: readonly bigint[], balances: readonly bigint[]): bigint[] {
  return balances.map((b, i) => div(mul(rates[i]!, b), PRECISION))
}

/** StableSwapPool.get_D: the invariant D of xp for amp (A * A_PRECISION), by Newton's method. */
export function getD(xp: readonly bigint[], amp: bigint): bigint {
  const N = BigInt(xp.length)
  let S = 0n
  for (const x of xp) S = add(S, x)
  if (S === 0n) return 0n

  let D = S
  const Ann = mul(amp, N)
  for (let _i = 0; _i < 255; _i++) {
    let D_P = D
    for (const x of xp) D_P = div(mul(D_P, D), mul(x, N)) // reverts on an empty coin, as Curve's does
    const Dprev = D
    D = div(
      mul(add(div(mul(Ann, S), A_PRECISION), mul(D_P, N)), D),
      add(div(mul(sub(Ann, A_PRECISION), D), A_PRECISION), mul(N + 1n, D_P)),
    )
    // equality with the precision of 1
    if (D > Dprev) {
      if (D - Dprev <= 1n) return D
    } else {
      if (Dprev - D <= 1n) return D
    }
  }
  throw Errors.notConverged('StableSwapPool.get_D')
}

/** StableSwapPool.get_y: coin j's new xp when coin i's becomes x, holding D fixed. */
export function getY(i: number, j: number, x: bigint, xp: readonly bigint[], amp: bigint): bigint {
  const N = xp.length
  if (!(i !== j)) throw Errors.require('StableSwapPool.get_y', '"same coin"')
  if (!(i >= 0 && j >= 0 && i < N && j < N)) throw Errors.require('StableSwapPool.get_y', '"coin index"')

  const D = getD(xp, amp)
  const Ann = mul(amp, BigInt(N))
  let c = D
  let S_ = 0n
  let _x = 0n
  for (let _i = 0; _i < N; _i++) {
    if (_i === i) _x = x
    else if (_i !== j) _x = xp[_i]!
    else continue
    S_ = add(S_, _x)
    c = div(mul(c, D), mul(_x, BigInt(N)))
  }
  c = div(mul(mul(c, D), A_PRECISION), mul(Ann, BigInt(N)))
  const b = add(S_, div(mul(D, A_PRECISION), Ann))
  let y = D
  for (let _i = 0; _i < 255; _i++) {
    const y_prev = y
    y = div(add(mul(y, y), c), sub(add(mul(2n, y), b), D))
    // equality with the precision of 1
    if (y > y_prev) {
      if (y - y_prev <= 1n) return y
    } else {
      if (y_prev - y <= 1n) return y
    }
  }
  throw Errors.notConverged('StableSwapPool.get_y')
}

/** StableSwapPool._dy (get_dy, and what exchange(i, j, dx, 0) pays): the output of dx of coin i in coin j. */
export function getDy(pool: StablePool, i: number, j: number, dx: bigint): bigint {
  if (!(i >= 0 && j >= 0 && i < pool.balances.length && j < pool.balances.length))
    throw Errors.require('StableSwapPool._dy', 'index in bounds')
  const xp = xpOf(pool.rates, pool.balances)
  const x = add(xp[i]!, div(mul(dx, pool.rates[i]!), PRECISION))
  const y = getY(i, j, x, xp, pool.A)
  const dy = sub(sub(xp[j]!, y), 1n) // -1 against rounding in get_y
  const dy_fee = div(mul(dy, pool.fee), FEE_DENOMINATOR)
  return div(mul(sub(dy, dy_fee), PRECISION), pool.rates[j]!)
}

/** exchange's effect on balances: balances[i] += dx, balances[j] -= dy (checked, as the .sol). */
export function exchange(pool: StablePool, i: number, j: number, dx: bigint): { dy: bigint; balances: bigint[] } {
  const dy = getDy(pool, i, j, dx)
  const balances = [...pool.balances]
  balances[i] = add(balances[i]!, dx)
  balances[j] = sub(balances[j]!, dy)
  return { dy, balances }
}
