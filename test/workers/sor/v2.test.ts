// V2 math: exact agreement with a slow reference (the pair's own K check, searched), monotone, bounded.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { getAmountIn, getAmountOut, MAX_UINT112 } from '../../../workers/sor/v2.js'
import { quoteExactIn } from '../../../workers/sor/pool.js'
import type { V2Pool } from '../../../workers/sor/types.js'

const A = '0x000000000000000000000000000000000000000a',
  B = '0x000000000000000000000000000000000000000b'
const pool = (reserve0: bigint, reserve1: bigint, feePpm = 3000): V2Pool => ({
  kind: 'v2',
  address: '0x00000000000000000000000000000000000000ff',
  token0: A,
  token1: B,
  reserve0,
  reserve1,
  feePpm,
})
const reserve = fc.bigInt({ min: 1001n, max: 1n << 100n })
const amount = fc
  .tuple(fc.integer({ min: 0, max: 100 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
  .map(([e, m]) => 1n + ((m << BigInt(e)) >> 64n))

/** UniswapV2Pair.swap's K check for the core 0.30% fee, searched for the largest output it accepts. */
function slowMaxOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const accepts = (out: bigint) =>
    out < reserveOut &&
    ((reserveIn + amountIn) * 1000n - amountIn * 3n) * (reserveOut - out) * 1000n >=
      reserveIn * reserveOut * 1000n ** 2n
  let lo = 0n,
    hi = reserveOut
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (accepts(mid)) lo = mid
    else hi = mid
  }
  return lo
}

test("property: getAmountOut equals the largest output the pair's K check accepts", () => {
  fc.assert(
    fc.property(
      amount,
      reserve,
      reserve,
      (a, rIn, rOut) => getAmountOut(a, rIn, rOut, 3000) === slowMaxOut(a, rIn, rOut),
    ),
    { seed: 5, numRuns: 300 },
  )
})
test('property: monotone in amountIn and never the whole reserve', () => {
  fc.assert(
    fc.property(amount, amount, reserve, reserve, fc.integer({ min: 0, max: 30_000 }), (a, d, r0, r1, fee) => {
      const p = pool(r0, r1, fee)
      const q = quoteExactIn(p, A, B, a)
      return q <= quoteExactIn(p, A, B, a + d) || a + d > MAX_UINT112 - r0
    }),
    { seed: 6, numRuns: 300 },
  )
  fc.assert(
    fc.property(amount, reserve, reserve, (a, r0, r1) => quoteExactIn(pool(r0, r1), B, A, a) < r0),
    { seed: 7, numRuns: 300 },
  )
})
test('property: getAmountIn is the least input that buys amountOut', () => {
  fc.assert(
    fc.property(reserve, reserve, fc.bigInt({ min: 1n, max: 1n << 100n }), (rIn, rOut, o) => {
      const out = o % rOut || 1n
      const needed = getAmountIn(out, rIn, rOut, 3000)
      return (
        getAmountOut(needed, rIn, rOut, 3000) >= out &&
        (needed === 1n || getAmountOut(needed - 1n, rIn, rOut, 3000) < out)
      )
    }),
    { seed: 8, numRuns: 300 },
  )
})
test('the UniswapV2 library vector: 2 in against 100/100 reserves pays 1', () =>
  assert.equal(getAmountOut(2n, 100n, 100n, 3000), 1n))
