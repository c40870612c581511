import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { improvementBps, improvementCentiBps, centiToDecimal } from '../../../workers/fills/improvement.js'
import { divRoundHalfAway, roundTo } from '../../../workers/fills/round.js'

const MAX = (1n << 256n) - 1n
const exactIn = (rfqAmountOut: bigint, baselineAmountOut: bigint) => ({
  kind: 0 as const,
  rfqAmountIn: 1n,
  rfqAmountOut,
  baselineAmountIn: 1n,
  baselineAmountOut,
})

test('equal outputs improve by 0 bps', () => assert.equal(improvementBps(exactIn(10n ** 18n, 10n ** 18n)), 0))
test('1% more output is +100 bps, 1% less is -100 bps', () => {
  assert.equal(improvementBps(exactIn(101n, 100n)), 100)
  assert.equal(improvementBps(exactIn(99n, 100n)), -100)
})
test('tiny amounts: 3 vs 2 is +5000 bps, 1 vs 3 is -6666.67 bps, 2 vs 3 is -3333.33 bps', () => {
  assert.equal(improvementBps(exactIn(3n, 2n)), 5000)
  assert.equal(improvementBps(exactIn(1n, 3n)), -6666.67)
  assert.equal(improvementBps(exactIn(2n, 3n)), -3333.33)
  assert.equal(improvementBps(exactIn(1n, 1n)), 0)
})
test('amounts near 2^256 are exact: one wei on 2^256-2 is 0 bps, 2^256-1 vs 2^255 is +10000 bps', () => {
  assert.equal(improvementCentiBps(exactIn(MAX, MAX - 1n)), 0n)
  assert.equal(improvementBps(exactIn(MAX, 1n << 255n)), 10000) // (2^256-1)/2^255 = 2 - 2^-255 -> 9999.99...-> 10000.00
  assert.equal(improvementCentiBps(exactIn(MAX, 1n << 255n)), 1_000_000n)
  // (2^256-1) / (2^256-1 - 2^256/10^6): just above 1 + 1e-6 -> 0.01 bps
  const base = MAX - MAX / 1_000_000n
  assert.equal(improvementBps(exactIn(MAX, base)), 0.01)
  // the exact half-way point at 2^200 scale: +0.005 bps rounds to +0.01, one wei less rounds to 0.00
  const big = 2_000_000n << 200n
  assert.equal(improvementCentiBps(exactIn(big + (1n << 200n), big)), 1n)
  assert.equal(improvementCentiBps(exactIn(big + (1n << 200n) - 1n, big)), 0n)
  assert.equal(improvementBps(exactIn(1n, MAX)), -10000) // 1 wei against 2^256-1: -9999.99999... -> -10000.00
})
test('half a hundredth of a bp rounds away from zero: +0.005 -> +0.01, -0.005 -> -0.01', () => {
  assert.equal(improvementCentiBps(exactIn(2_000_001n, 2_000_000n)), 1n)
  assert.equal(improvementCentiBps(exactIn(1_999_999n, 2_000_000n)), -1n)
  assert.equal(improvementCentiBps(exactIn(4_000_001n, 4_000_000n)), 0n) // +0.0025 -> 0.00
})
test('EXACT_OUT compares input paid: baselineIn/rfqIn - 1 for equal outputs', () => {
  const x = {
    kind: 1 as const,
    rfqAmountIn: 99n,
    rfqAmountOut: 1000n,
    baselineAmountIn: 100n,
    baselineAmountOut: 1000n,
  }
  assert.equal(improvementBps(x), 101.01) // 100/99 - 1 = 1.0101...%
  assert.equal(improvementBps({ ...x, rfqAmountIn: 101n }), -99.01)
})
test('centiToDecimal writes exact 2-decimal text', () => {
  assert.equal(centiToDecimal(-666667n), '-6666.67')
  assert.equal(centiToDecimal(5n), '0.05')
  assert.equal(centiToDecimal(-5n), '-0.05')
  assert.equal(centiToDecimal(0n), '0.00')
})
test('property: improvement equals the exact rational rounded half away from zero', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: MAX }), fc.bigInt({ min: 1n, max: MAX }), (out, base) => {
      const c = improvementCentiBps(exactIn(out, base))
      // |c - exact| <= 1/2 where exact = (out-base)*1e6/base: check via integer inequalities
      const num = (out - base) * 1_000_000n
      assert.ok(2n * (c * base - num) <= base && 2n * (num - c * base) <= base)
    }),
    { numRuns: 500 },
  )
})
test('divRoundHalfAway matches rounding of small rationals', () => {
  fc.assert(
    fc.property(fc.integer({ min: -10_000, max: 10_000 }), fc.integer({ min: 1, max: 500 }), (n, d) => {
      const r = Number(divRoundHalfAway(BigInt(n), BigInt(d)))
      const expected = Math.sign(n) * Math.floor(Math.abs(n) / d + 0.5)
      assert.equal(r, expected === 0 ? 0 : expected)
    }),
  )
})
test('roundTo: half away from zero at 2 decimals', () => {
  assert.equal(roundTo(1.005, 2), 1.01)
  assert.equal(roundTo(-1.005, 2), -1.01)
  assert.equal(roundTo(2.344, 2), 2.34)
  assert.equal(roundTo(-0.001, 2), 0)
})
