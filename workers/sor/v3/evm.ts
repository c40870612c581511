// The EVM integer facts the V3 port depends on. UniswapV3Pool is compiled with solc 0.7.6: arithmetic wraps unless
// a library checks it (LowGasSafeMath, SafeCast), so the port wraps where the .sol wraps and checks where it checks.
import { Errors } from '../errors.js'

import { MAX_UINT256 } from '../../values/index.js'
export { MAX_UINT256 }
export const MAX_UINT160 = (1n << 160n) - 1n
export const MAX_UINT128 = (1n << 128n) - 1n
export const MAX_INT256 = (1n << 255n) - 1n

/** Solidity 0.7 `a * b` on uint256: wraps modulo 2^256. */
export const mulIn256 = (a: bigint, b: bigint): bigint => (a * b) & MAX_UINT256
/** Solidity 0.7 `a + b` on uint256: wraps modulo 2^256. */
export const addIn256 = (a: bigint, b: bigint): bigint => (a + b) & MAX_UINT256

/** LowGasSafeMath.add: require((z = x + y) >= x). */
export function safeAdd(x: bigint, y: bigint): bigint {
  const z = x + y
  if (z > MAX_UINT256) throw Errors.require('LowGasSafeMath.add', 'z >= x')
  return z
}

/** SafeCast.toUint160: require((z = uint160(y)) == y). */
export function toUint160(y: bigint): bigint {
  if (y > MAX_UINT160) throw Errors.require('SafeCast.toUint160', 'z == y')
  return y
}

/** SafeCast.toInt256: require(y < 2**255). */
export function toInt256(y: bigint): bigint {
  if (!(y <= MAX_INT256)) throw Errors.require('SafeCast.toInt256', 'y < 2**255')
  return y
}
