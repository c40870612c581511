// A port of Uniswap/v3-core contracts/libraries/LiquidityMath.sol.
import { Errors } from '../errors.js'
import { MAX_UINT128 } from './evm.js'

/** LiquidityMath.addDelta: x + y for a uint128 x and an int128 y, reverting 'LS' / 'LA'. */
export function addDelta(x: bigint, y: bigint): bigint {
  if (y < 0n) {
    const z = x + y
    if (!(z >= 0n)) throw Errors.require('LiquidityMath.addDelta', "'LS'")
    return z
  }
  const z = x + y
  if (!(z <= MAX_UINT128)) throw Errors.require('LiquidityMath.addDelta', "'LA'")
  return z
}
