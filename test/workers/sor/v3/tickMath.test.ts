// TickMath: the v3-core spec's boundary numbers, and property tests against the definition (slow reference).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from '../../../../workers/sor/v3/tickMath.js'

test('getSqrtRatioAtTick throws outside [MIN_TICK, MAX_TICK]', () => {
  assert.throws(() => getSqrtRatioAtTick(MIN_TICK - 1), /'T'/)
  assert.throws(() => getSqrtRatioAtTick(MAX_TICK + 1), /'T'/)
})
test('getSqrtRatioAtTick at the extremes', () => {
  assert.equal(getSqrtRatioAtTick(MIN_TICK), MIN_SQRT_RATIO)
  assert.equal(getSqrtRatioAtTick(MIN_TICK + 1), 4295343490n)
  assert.equal(getSqrtRatioAtTick(MAX_TICK - 1), 1461373636630004318706518188784493106690254656249n)
  assert.equal(getSqrtRatioAtTick(MAX_TICK), MAX_SQRT_RATIO)
  assert.equal(getSqrtRatioAtTick(0), 1n << 96n)
})
test('getTickAtSqrtRatio at the extremes, and throws outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)', () => {
  assert.equal(getTickAtSqrtRatio(MIN_SQRT_RATIO), MIN_TICK)
  assert.equal(getTickAtSqrtRatio(4295343490n), MIN_TICK + 1)
  assert.equal(getTickAtSqrtRatio(1461373636630004318706518188784493106690254656249n), MAX_TICK - 1)
  assert.equal(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n), MAX_TICK - 1)
  assert.throws(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n), /'R'/)
  assert.throws(() => getTickAtSqrtRatio(MAX_SQRT_RATIO), /'R'/)
})
test('property: getTickAtSqrtRatio inverts getSqrtRatioAtTick', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: MIN_TICK, max: MAX_TICK - 1 }),
      tick => getTickAtSqrtRatio(getSqrtRatioAtTick(tick)) === tick,
    ),
    { seed: 1, numRuns: 300 },
  )
})
test('property: getTickAtSqrtRatio is the greatest tick whose ratio is <= the price (its definition)', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }), price => {
      const tick = getTickAtSqrtRatio(price)
      return getSqrtRatioAtTick(tick) <= price && (tick === MAX_TICK || price < getSqrtRatioAtTick(tick + 1))
    }),
    { seed: 2, numRuns: 300 },
  )
})
test('property: getSqrtRatioAtTick is strictly increasing', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: MIN_TICK, max: MAX_TICK - 1 }),
      tick => getSqrtRatioAtTick(tick) < getSqrtRatioAtTick(tick + 1),
    ),
    { seed: 3, numRuns: 300 },
  )
})
