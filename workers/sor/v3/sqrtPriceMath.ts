// A port of Uniswap/v3-core contracts/libraries/SqrtPriceMath.sol: same names, branches, rounding and require()s.
// Where the .sol multiplies or adds without a check (solc 0.7), the port wraps the same way, so its overflow
// tests (`product / amount == sqrtPX96`, `denominator >= numerator1`) take the same branch.
import { Errors } from '../errors.js'
import { addIn256, mulIn256, safeAdd, toUint160, MAX_UINT160 } from './evm.js'
import { divRoundingUp, mulDiv, mulDivRoundingUp } from './fullMath.js'

export const RESOLUTION = 96n
export const Q96 = 1n << 96n

/** SqrtPriceMath.getNextSqrtPriceFromAmount0RoundingUp: liquidity * sqrtPX96 / (liquidity +- amount * sqrtPX96). */
export function getNextSqrtPriceFromAmount0RoundingUp(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  // we short circuit amount == 0 because the result is otherwise not guaranteed to equal the input price
  if (amount === 0n) return sqrtPX96
  const numerator1 = liquidity << RESOLUTION

  if (add) {
    const product = mulIn256(amount, sqrtPX96)
    if (product / amount === sqrtPX96) {
      const denominator = addIn256(numerator1, product)
      if (denominator >= numerator1)
        // always fits in 160 bits
        return mulDivRoundingUp(numerator1, sqrtPX96, denominator) & MAX_UINT160
    }
    return divRoundingUp(numerator1, safeAdd(numerator1 / sqrtPX96, amount)) & MAX_UINT160
  } else {
    const product = mulIn256(amount, sqrtPX96)
    // if the product overflows, we know the denominator underflows
    // in addition, we must check that the denominator does not underflow
    if (!(product / amount === sqrtPX96 && numerator1 > product))
      throw Errors.require(
        'SqrtPriceMath.getNextSqrtPriceFromAmount0RoundingUp',
        'product / amount == sqrtPX96 && numerator1 > product',
      )
    const denominator = numerator1 - product
    return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, denominator))
  }
}

/** SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown: sqrtPX96 +- amount / liquidity. */
export function getNextSqrtPriceFromAmount1RoundingDown(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  // if we're adding (subtracting), rounding down requires rounding the quotient down (up)
  // in both cases, avoid a mulDiv for most inputs
  if (add) {
    const quotient = amount <= MAX_UINT160 ? (amount << RESOLUTION) / liquidity : mulDiv(amount, Q96, liquidity)
    return toUint160(safeAdd(sqrtPX96, quotient))
  } else {
    const quotient =
      amount <= MAX_UINT160 ? divRoundingUp(amount << RESOLUTION, liquidity) : mulDivRoundingUp(amount, Q96, liquidity)
    if (!(sqrtPX96 > quotient))
      throw Errors.require('SqrtPriceMath.getNextSqrtPriceFromAmount1RoundingDown', 'sqrtPX96 > quotient')
    // always fits 160 bits
    return sqrtPX96 - quotient
  }
}

/** SqrtPriceMath.getNextSqrtPriceFromInput: the price after amountIn, rounded so as not to pass the target. */
export function getNextSqrtPriceFromInput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  return nextSqrtPrice('getNextSqrtPriceFromInput', sqrtPX96, liquidity, amountIn, zeroForOne, true)
}

/** SqrtPriceMath.getNextSqrtPriceFromOutput: the price after amountOut, rounded so as to pass the target. */
export function getNextSqrtPriceFromOutput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint {
  return nextSqrtPrice('getNextSqrtPriceFromOutput', sqrtPX96, liquidity, amountOut, zeroForOne, false)
}

/**
 * Both of the above: an input (`add`) moves the price by the token going in (token0 when zeroForOne), an
 * output by the token coming out (the other one); the rounding helpers then round not to pass the target
 * (input) or to pass it (output), as the contract does.
 */
function nextSqrtPrice(
  name: string,
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  zeroForOne: boolean,
  add: boolean,
): bigint {
  if (!(sqrtPX96 > 0n)) throw Errors.require(`SqrtPriceMath.${name}`, 'sqrtPX96 > 0')
  if (!(liquidity > 0n)) throw Errors.require(`SqrtPriceMath.${name}`, 'liquidity > 0')
  return zeroForOne === add
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amount, add)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amount, add)
}

/** SqrtPriceMath.getAmount0Delta: liquidity / sqrt(lower) - liquidity / sqrt(upper). */
export function getAmount0Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  if (sqrtRatioAX96 > sqrtRatioBX96) [sqrtRatioAX96, sqrtRatioBX96] = [sqrtRatioBX96, sqrtRatioAX96]

  const numerator1 = liquidity << RESOLUTION
  const numerator2 = sqrtRatioBX96 - sqrtRatioAX96

  if (!(sqrtRatioAX96 > 0n)) throw Errors.require('SqrtPriceMath.getAmount0Delta', 'sqrtRatioAX96 > 0')

  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, sqrtRatioBX96), sqrtRatioAX96)
    : mulDiv(numerator1, numerator2, sqrtRatioBX96) / sqrtRatioAX96
}

/** SqrtPriceMath.getAmount1Delta: liquidity * (sqrt(upper) - sqrt(lower)). */
export function getAmount1Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  if (sqrtRatioAX96 > sqrtRatioBX96) [sqrtRatioAX96, sqrtRatioBX96] = [sqrtRatioBX96, sqrtRatioAX96]

  return roundUp
    ? mulDivRoundingUp(liquidity, sqrtRatioBX96 - sqrtRatioAX96, Q96)
    : mulDiv(liquidity, sqrtRatioBX96 - sqrtRatioAX96, Q96)
}
