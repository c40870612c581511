// A port of Uniswap/v3-core contracts/libraries/BitMath.sol: the same results, from bigint's own bit length
// instead of the .sol's binary search (which exists only to save gas).
import { Errors } from '../errors.js'

/** BitMath.mostSignificantBit: the index of the highest set bit, x > 0. */
export function mostSignificantBit(x: bigint): number {
  if (!(x > 0n)) throw Errors.require('BitMath.mostSignificantBit', 'x > 0')
  return x.toString(2).length - 1
}

/** BitMath.leastSignificantBit: the index of the lowest set bit, x > 0. */
export function leastSignificantBit(x: bigint): number {
  if (!(x > 0n)) throw Errors.require('BitMath.leastSignificantBit', 'x > 0')
  return mostSignificantBit(x & -x)
}
