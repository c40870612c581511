// A port of Uniswap/v3-core contracts/libraries/SwapMath.sol.
import { mulDiv, mulDivRoundingUp } from './fullMath.js'
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from './sqrtPriceMath.js'

export interface SwapStep {
  sqrtRatioNextX96: bigint
  amountIn: bigint
  amountOut: bigint
  feeAmount: bigint
}

/**
 * SwapMath.computeSwapStep: one step of a swap within a single liquidity range, towards sqrtRatioTargetX96.
 * amountRemaining >= 0 means exact input, < 0 exact output; feePips is in hundredths of a bip (3000 = 0.30%).
 */
export function computeSwapStep(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number,
): SwapStep {
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96
  const exactIn = amountRemaining >= 0n
  const fee = BigInt(feePips)
  let sqrtRatioNextX96: bigint
  let amountIn = 0n
  let amountOut = 0n
  let feeAmount: bigint

  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, 1_000_000n - fee, 1_000_000n)
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true)
    if (amountRemainingLessFee >= amountIn) sqrtRatioNextX96 = sqrtRatioTargetX96
    else
      sqrtRatioNextX96 = getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne)
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false)
    if (-amountRemaining >= amountOut) sqrtRatioNextX96 = sqrtRatioTargetX96
    else sqrtRatioNextX96 = getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, -amountRemaining, zeroForOne)
  }

  const max = sqrtRatioTargetX96 === sqrtRatioNextX96

  // get the input/output amounts
  // zeroForOne: token0 in, token1 out, the price falls (next below current); else the mirror image
  const [lower, upper] = zeroForOne ? [sqrtRatioNextX96, sqrtRatioCurrentX96] : [sqrtRatioCurrentX96, sqrtRatioNextX96]
  const [inDelta, outDelta] = zeroForOne ? [getAmount0Delta, getAmount1Delta] : [getAmount1Delta, getAmount0Delta]
  amountIn = max && exactIn ? amountIn : inDelta(lower, upper, liquidity, true)
  amountOut = max && !exactIn ? amountOut : outDelta(lower, upper, liquidity, false)

  // cap the output amount to not exceed the remaining output amount
  if (!exactIn && amountOut > -amountRemaining) {
    amountOut = -amountRemaining
  }

  if (exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96) {
    // we didn't reach the target, so take the remainder of the maximum input as fee
    feeAmount = amountRemaining - amountIn
  } else {
    feeAmount = mulDivRoundingUp(amountIn, fee, 1_000_000n - fee)
  }

  return { sqrtRatioNextX96, amountIn, amountOut, feeAmount }
}
