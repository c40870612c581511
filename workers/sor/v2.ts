// Constant-product math: a port of Uniswap/v2-periphery UniswapV2Library.getAmountOut/getAmountIn with the fee as a
// parameter (parts per million), plus the checks UniswapV2Pair.swap makes, so a quote is what the pair pays.
// For the core pair's 0.30% the ppm form is exact: amountIn*997000 / (reserveIn*1e6 + amountIn*997000) is the
// library's 997/1000 fraction scaled by 1000, so the floor is the same integer.
import { Errors } from './errors.js'
import type { V2Pool } from './types.js'

const FEE_DENOMINATOR = 1_000_000n
/** UniswapV2Pair stores reserves as uint112: a balance above this makes _update revert 'UniswapV2: OVERFLOW'. */
export const MAX_UINT112 = (1n << 112n) - 1n

/** UniswapV2Library.getAmountOut: the largest output the pair's K check accepts for amountIn. */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feePpm: number): bigint {
  if (!(amountIn > 0n)) throw Errors.require('getAmountOut', 'UniswapV2Library: INSUFFICIENT_INPUT_AMOUNT')
  if (!(reserveIn > 0n && reserveOut > 0n))
    throw Errors.require('getAmountOut', 'UniswapV2Library: INSUFFICIENT_LIQUIDITY')
  const amountInWithFee = amountIn * (FEE_DENOMINATOR - BigInt(feePpm))
  const numerator = amountInWithFee * reserveOut
  const denominator = reserveIn * FEE_DENOMINATOR + amountInWithFee
  return numerator / denominator
}

/** UniswapV2Library.getAmountIn: the smallest input for which the pair pays amountOut. */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feePpm: number): bigint {
  if (!(amountOut > 0n)) throw Errors.require('getAmountIn', 'UniswapV2Library: INSUFFICIENT_OUTPUT_AMOUNT')
  if (!(reserveIn > 0n && reserveOut > 0n))
    throw Errors.require('getAmountIn', 'UniswapV2Library: INSUFFICIENT_LIQUIDITY')
  if (!(amountOut < reserveOut)) throw Errors.require('getAmountIn', 'UniswapV2: INSUFFICIENT_LIQUIDITY')
  const numerator = reserveIn * amountOut * FEE_DENOMINATOR
  const denominator = (reserveOut - amountOut) * (FEE_DENOMINATOR - BigInt(feePpm))
  return numerator / denominator + 1n
}

/**
 * What UniswapV2Pair.swap pays for amountIn sent to it first: getAmountOut, then the pair's own requires
 * (output > 0, output < reserve, new balance fits uint112). Throws where the pair would revert.
 */
export function swapExactIn(pool: V2Pool, zeroForOne: boolean, amountIn: bigint): bigint {
  const [reserveIn, reserveOut] = zeroForOne ? [pool.reserve0, pool.reserve1] : [pool.reserve1, pool.reserve0]
  const amountOut = getAmountOut(amountIn, reserveIn, reserveOut, pool.feePpm)
  if (!(amountOut > 0n)) throw Errors.require('swap', 'UniswapV2: INSUFFICIENT_OUTPUT_AMOUNT')
  if (!(amountOut < reserveOut)) throw Errors.require('swap', 'UniswapV2: INSUFFICIENT_LIQUIDITY')
  if (!(reserveIn + amountIn <= MAX_UINT112)) throw Errors.require('_update', 'UniswapV2: OVERFLOW')
  return amountOut
}
