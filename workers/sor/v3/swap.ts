// A port of the swap loop of Uniswap/v3-core contracts/UniswapV3Pool.sol (`swap`), over a V3Pool snapshot instead of
// storage. The parts that only write storage (oracle, fee growth, protocol fees) leave the amounts unchanged and
// are omitted; every line that moves the price, the tick, the liquidity or the amounts is here, in the .sol's order.
// One addition: the snapshot holds only the words in pool.wordRange, so a step that would read a word outside it
// stops the swap there, as if the pool had no more liquidity.
import { Errors } from '../errors.js'
import type { V3Pool } from '../types.js'
import { toInt256 } from './evm.js'
import { addDelta } from './liquidityMath.js'
import { computeSwapStep } from './swapMath.js'
import { nextInitializedTickWithinOneWord, wordToRead } from './tickBitmap.js'
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from './tickMath.js'

export interface SwapResult {
  /** the pool's balance deltas, as UniswapV3Pool.swap returns them: positive is paid in, negative paid out */
  amount0: bigint
  amount1: bigint
  sqrtPriceX96: bigint
  tick: number
  liquidity: bigint
  /** true when the swap stopped at the edge of the loaded words rather than at its amount or price limit */
  reachedWordRangeEnd: boolean
}

/** UniswapV3Pool.swap: amountSpecified > 0 is exact input, < 0 exact output. Throws where the pool reverts. */
export function swap(
  pool: V3Pool,
  zeroForOne: boolean,
  amountSpecified: bigint,
  sqrtPriceLimitX96: bigint,
): SwapResult {
  if (!(amountSpecified !== 0n)) throw Errors.require('UniswapV3Pool.swap', "'AS'")
  if (
    !(zeroForOne
      ? sqrtPriceLimitX96 < pool.sqrtPriceX96 && sqrtPriceLimitX96 > MIN_SQRT_RATIO
      : sqrtPriceLimitX96 > pool.sqrtPriceX96 && sqrtPriceLimitX96 < MAX_SQRT_RATIO)
  )
    throw Errors.require('UniswapV3Pool.swap', "'SPL'")

  const exactInput = amountSpecified > 0n
  const liquidityNet = liquidityNetByTick(pool)

  const state = {
    amountSpecifiedRemaining: amountSpecified,
    amountCalculated: 0n,
    sqrtPriceX96: pool.sqrtPriceX96,
    tick: pool.tick,
    liquidity: pool.liquidity,
  }
  let reachedWordRangeEnd = false

  // continue swapping as long as we haven't used the entire input/output and haven't reached the price limit
  while (state.amountSpecifiedRemaining !== 0n && state.sqrtPriceX96 !== sqrtPriceLimitX96) {
    const word = wordToRead(state.tick, pool.tickSpacing, zeroForOne)
    if (word < pool.wordRange[0] || word > pool.wordRange[1]) {
      reachedWordRangeEnd = true
      break
    }

    const sqrtPriceStartX96 = state.sqrtPriceX96
    let { next: tickNext, initialized } = nextInitializedTickWithinOneWord(
      pool.bitmap,
      state.tick,
      pool.tickSpacing,
      zeroForOne,
    )

    // ensure that we do not overshoot the min/max tick, as the tick bitmap is not aware of these bounds
    if (tickNext < MIN_TICK) tickNext = MIN_TICK
    else if (tickNext > MAX_TICK) tickNext = MAX_TICK

    // get the price for the next tick
    const sqrtPriceNextX96 = getSqrtRatioAtTick(tickNext)

    // compute values to swap to the target tick, price limit, or point where input/output amount is exhausted
    const step = computeSwapStep(
      state.sqrtPriceX96,
      (zeroForOne ? sqrtPriceNextX96 < sqrtPriceLimitX96 : sqrtPriceNextX96 > sqrtPriceLimitX96)
        ? sqrtPriceLimitX96
        : sqrtPriceNextX96,
      state.liquidity,
      state.amountSpecifiedRemaining,
      pool.fee,
    )
    state.sqrtPriceX96 = step.sqrtRatioNextX96

    if (exactInput) {
      state.amountSpecifiedRemaining -= toInt256(step.amountIn + step.feeAmount)
      state.amountCalculated = state.amountCalculated - toInt256(step.amountOut)
    } else {
      state.amountSpecifiedRemaining += toInt256(step.amountOut)
      state.amountCalculated = state.amountCalculated + toInt256(step.amountIn + step.feeAmount)
    }

    // shift tick if we reached the next price
    if (state.sqrtPriceX96 === sqrtPriceNextX96) {
      // if the tick is initialized, run the tick transition
      if (initialized) {
        let net = liquidityNet.get(tickNext)
        if (net === undefined) throw Errors.missingTick(tickNext)
        // if we're moving leftward, we interpret liquidityNet as the opposite sign
        if (zeroForOne) net = -net
        state.liquidity = addDelta(state.liquidity, net)
      }
      state.tick = zeroForOne ? tickNext - 1 : tickNext
    } else if (state.sqrtPriceX96 !== sqrtPriceStartX96) {
      // recompute unless we're on a lower tick boundary (i.e. already transitioned ticks), and haven't moved
      state.tick = getTickAtSqrtRatio(state.sqrtPriceX96)
    }
  }

  const [amount0, amount1] =
    zeroForOne === exactInput
      ? [amountSpecified - state.amountSpecifiedRemaining, state.amountCalculated]
      : [state.amountCalculated, amountSpecified - state.amountSpecifiedRemaining]

  return {
    amount0,
    amount1,
    sqrtPriceX96: state.sqrtPriceX96,
    tick: state.tick,
    liquidity: state.liquidity,
    reachedWordRangeEnd,
  }
}

// A pool snapshot is immutable once loaded; its tick lookup is built once and reused by every quote against it.
const tickMaps = new WeakMap<V3Pool, Map<number, bigint>>()
function liquidityNetByTick(pool: V3Pool): Map<number, bigint> {
  let map = tickMaps.get(pool)
  if (!map) {
    map = new Map(pool.ticks.map(t => [t.tick, t.liquidityNet]))
    tickMaps.set(pool, map)
  }
  return map
}
