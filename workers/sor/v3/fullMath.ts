// A port of Uniswap/v3-core contracts/libraries/FullMath.sol and UnsafeMath.sol.
// FullMath computes floor(a*b/denominator) with a 512-bit intermediate; bigint has no width, so the product is
// exact by construction and only the two require()s remain to port: denominator > 0, and denominator > prod1
// (the high word of a*b), which holds exactly when the result fits in 256 bits.
import { Errors } from '../errors.js'
import { MAX_UINT256 } from './evm.js'

/** FullMath.mulDiv: floor(a*b/denominator), reverting where the .sol reverts. */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  if (!(denominator > 0n)) throw Errors.require('FullMath.mulDiv', 'denominator > 0')
  const result = (a * b) / denominator
  if (result > MAX_UINT256) throw Errors.require('FullMath.mulDiv', 'denominator > prod1')
  return result
}

/** FullMath.mulDivRoundingUp: mulDiv, plus one when mulmod(a, b, denominator) > 0. */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  let result = mulDiv(a, b, denominator)
  if ((a * b) % denominator > 0n) {
    if (!(result < MAX_UINT256)) throw Errors.require('FullMath.mulDivRoundingUp', 'result < type(uint256).max')
    result++
  }
  return result
}

/** UnsafeMath.divRoundingUp: `add(div(x, y), gt(mod(x, y), 0))` in assembly, where the EVM's x/0 is 0. */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  if (y === 0n) return 0n
  return x / y + (x % y > 0n ? 1n : 0n)
}
