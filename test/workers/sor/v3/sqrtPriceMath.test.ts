// SqrtPriceMath against the cases and numbers of Uniswap/v3-core test/SqrtPriceMath.spec.ts.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
  Q96,
} from '../../../../workers/sor/v3/sqrtPriceMath.js'
import { MAX_UINT128, MAX_UINT256 } from '../../../../workers/sor/v3/evm.js'

const E18 = 10n ** 18n
/** encodePriceSqrt(reserve1, reserve0) of the spec: floor(sqrt(reserve1 / reserve0) * 2^96). */
function encodePriceSqrt(reserve1: bigint, reserve0: bigint): bigint {
  const x = (reserve1 << 192n) / reserve0
  let r = x,
    y = (x + 1n) / 2n // Newton's integer square root
  while (y < r) {
    r = y
    y = (x / y + y) / 2n
  }
  return r
}

test('fails if price is zero', () =>
  assert.throws(() => getNextSqrtPriceFromInput(0n, 0n, E18 / 10n, false), /sqrtPX96 > 0/))
test('fails if liquidity is zero', () =>
  assert.throws(() => getNextSqrtPriceFromInput(1n, 0n, E18 / 10n, true), /liquidity > 0/))
test('fails if input amount overflows the price', () =>
  assert.throws(() => getNextSqrtPriceFromInput((1n << 160n) - 1n, 1024n, 1024n, false), /toUint160/))
test('any input amount cannot underflow the price', () =>
  assert.equal(getNextSqrtPriceFromInput(1n, 1n, 1n << 255n, true), 1n))
test('returns input price if amount in is zero and zeroForOne = true', () =>
  assert.equal(getNextSqrtPriceFromInput(Q96, E18 / 10n, 0n, true), Q96))
test('returns the minimum price for max inputs', () => {
  const sqrtP = (1n << 160n) - 1n
  const liquidity = MAX_UINT128
  const maxAmountNoOverflow = MAX_UINT256 - (liquidity << 96n) / sqrtP
  assert.equal(getNextSqrtPriceFromInput(sqrtP, liquidity, maxAmountNoOverflow, true), 1n)
})
test('input amount of 0.1 token1', () =>
  assert.equal(getNextSqrtPriceFromInput(Q96, E18, E18 / 10n, false), 87150978765690771352898345369n))
test('input amount of 0.1 token0', () =>
  assert.equal(getNextSqrtPriceFromInput(Q96, E18, E18 / 10n, true), 72025602285694852357767227579n))
test('amountIn > type(uint96).max and zeroForOne = true', () =>
  assert.equal(getNextSqrtPriceFromInput(Q96, 10n * E18, 1n << 100n, true), 624999999995069620n))
test('can return 1 with enough amountIn and zeroForOne = true', () =>
  assert.equal(getNextSqrtPriceFromInput(Q96, 1n, MAX_UINT256 / 2n, true), 1n))

test('output: fails if output amount is exactly the virtual reserves of token0', () =>
  assert.throws(
    () => getNextSqrtPriceFromOutput(20282409603651670423947251286016n, 1024n, 4n, false),
    /numerator1 > product/,
  ))
test('output: succeeds if output amount is just less than the virtual reserves of token1', () =>
  assert.equal(
    getNextSqrtPriceFromOutput(20282409603651670423947251286016n, 1024n, 262143n, true),
    77371252455336267181195264n,
  ))
test('output: fails if output amount is exactly the virtual reserves of token1', () =>
  assert.throws(
    () => getNextSqrtPriceFromOutput(20282409603651670423947251286016n, 1024n, 262144n, true),
    /sqrtPX96 > quotient/,
  ))
test('output amount of 0.1 token1', () =>
  assert.equal(getNextSqrtPriceFromOutput(Q96, E18, E18 / 10n, true), 71305346262837903834189555302n))
test('output amount of 0.1 token0', () =>
  assert.equal(getNextSqrtPriceFromOutput(Q96, E18, E18 / 10n, false), 88031291682515930659493278152n))

test('getAmount0Delta returns 0 if liquidity is 0', () =>
  assert.equal(getAmount0Delta(Q96, encodePriceSqrt(2n, 1n), 0n, true), 0n))
test('getAmount0Delta returns 0 if prices are equal', () => assert.equal(getAmount0Delta(Q96, Q96, 0n, true), 0n))
test('getAmount0Delta returns 0.1 amount1 for price of 1 to 1.21', () => {
  assert.equal(encodePriceSqrt(121n, 100n), 87150978765690771352898345369n)
  assert.equal(getAmount0Delta(Q96, encodePriceSqrt(121n, 100n), E18, true), 90909090909090910n)
  assert.equal(getAmount0Delta(Q96, encodePriceSqrt(121n, 100n), E18, false), 90909090909090909n)
})
test('getAmount1Delta returns 0.1 amount1 for price of 1 to 1.21', () => {
  assert.equal(getAmount1Delta(Q96, encodePriceSqrt(121n, 100n), E18, true), 100000000000000000n)
  assert.equal(getAmount1Delta(Q96, encodePriceSqrt(121n, 100n), E18, false), 99999999999999999n)
})
test('swap computation: sqrtP * sqrtQ overflows', () =>
  assert.equal(
    getNextSqrtPriceFromInput(
      1025574284609383690408304870162715216695788925244n,
      50015962439936049619261659728067971248n,
      406n,
      true,
    ),
    1025574284609383582644711336373707553698163132913n,
  ))
