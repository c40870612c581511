import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { pointsV2, pointsV2Params } from '../../../workers/fills/points.js'

const T = '0x' + '1'.repeat(40),
  M = '0x' + '2'.repeat(40)
const fill = {
  notionalUsd: 10_000,
  improvementBps: 0,
  isPrivate: false,
  taker: T,
  maker: M,
  amountIn: 1n,
  amountOut: 1n,
}

test('$10,000 public fill without improvement: maker 100, taker 50', () =>
  assert.deepEqual(pointsV2(fill), { makerPoints: 100, takerPoints: 50 }))
test('+100 bps improvement and private routing: 100 * 1.5 * 1.25 = 187.5 maker, 93.75 taker', () =>
  assert.deepEqual(pointsV2({ ...fill, improvementBps: 100, isPrivate: true }), {
    makerPoints: 187.5,
    takerPoints: 93.75,
  }))
test('improvement is clamped to [-50, +100] bps', () => {
  assert.deepEqual(pointsV2({ ...fill, improvementBps: 5000 }), pointsV2({ ...fill, improvementBps: 100 }))
  assert.deepEqual(pointsV2({ ...fill, improvementBps: -9000 }), { makerPoints: 75, takerPoints: 37.5 })
})
test('zero notional earns nothing', () =>
  assert.deepEqual(pointsV2({ ...fill, notionalUsd: 0 }), { makerPoints: 0, takerPoints: 0 }))
test('zero amounts earn nothing', () =>
  assert.deepEqual(pointsV2({ ...fill, amountOut: 0n }), { makerPoints: 0, takerPoints: 0 }))
test('self-trade (taker == maker, any case) earns nothing', () =>
  assert.deepEqual(pointsV2({ ...fill, maker: T.toUpperCase().replace('0X', '0x') }), {
    makerPoints: 0,
    takerPoints: 0,
  }))
test('notional above the cap earns no more', () =>
  assert.deepEqual(
    pointsV2({ ...fill, notionalUsd: 5e9 }),
    pointsV2({ ...fill, notionalUsd: pointsV2Params.notionalCapUsd }),
  ))
test('property: deterministic, non-negative, maker = 2 x taker within rounding, monotone in notional', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 1e7, noNaN: true }),
      fc.double({ min: -1e4, max: 1e4, noNaN: true }),
      fc.boolean(),
      (usd, bps, priv) => {
        const a = pointsV2({ ...fill, notionalUsd: usd, improvementBps: bps, isPrivate: priv })
        assert.deepEqual(a, pointsV2({ ...fill, notionalUsd: usd, improvementBps: bps, isPrivate: priv }))
        assert.ok(a.makerPoints >= 0 && a.takerPoints >= 0)
        assert.ok(Math.abs(a.makerPoints - 2 * a.takerPoints) <= 0.02)
        const more = pointsV2({ ...fill, notionalUsd: usd * 2, improvementBps: bps, isPrivate: priv })
        assert.ok(more.makerPoints >= a.makerPoints)
      },
    ),
  )
})
