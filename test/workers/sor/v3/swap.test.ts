// The V3 swap loop: monotone, bounded by the liquidity the pool holds, never throwing through quoteExactIn, and
// a snapshot with fewer loaded words quotes the same until the swap reaches the end of what was loaded.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { quoteExactIn } from '../../../../workers/sor/pool.js'
import { swap } from '../../../../workers/sor/v3/swap.js'
import { getAmount0Delta, getAmount1Delta } from '../../../../workers/sor/v3/sqrtPriceMath.js'
import { compress, fullWordRange } from '../../../../workers/sor/v3/tickBitmap.js'
import { v3PoolFromPositions, type V3Position } from '../../../../workers/sor/v3/poolFromPositions.js'
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../../../workers/sor/v3/tickMath.js'
import type { Address, V3Pool } from '../../../../workers/sor/types.js'

const T0: Address = '0x0000000000000000000000000000000000000001',
  T1: Address = '0x0000000000000000000000000000000000000002'

function poolOf(
  fee: number,
  tickSpacing: number,
  tick: number,
  positions: V3Position[],
  wordRange?: [number, number],
): V3Pool {
  return v3PoolFromPositions({
    address: '0x00000000000000000000000000000000000000aa',
    tokenA: T0,
    tokenB: T1,
    fee,
    tickSpacing,
    tick,
    positions,
    wordRange: wordRange ?? fullWordRange(tickSpacing),
  })
}

const poolArb = fc
  .record({
    tier: fc.constantFrom([100, 1], [500, 10], [3000, 60], [10000, 200]),
    tick: fc.integer({ min: -200_000, max: 200_000 }),
    positions: fc.array(
      fc.record({
        lower: fc.integer({ min: -800, max: 700 }),
        width: fc.integer({ min: 1, max: 800 }),
        liquidity: fc.bigInt({ min: 1n, max: 1n << 90n }),
      }),
      { minLength: 1, maxLength: 5 },
    ),
  })
  .map(({ tier: [fee, spacing], tick, positions }) => {
    const c = compress(tick, spacing)
    return {
      fee: fee,
      spacing: spacing,
      tick,
      positions: positions.map(p => ({
        lower: (c + p.lower) * spacing,
        upper: (c + p.lower + p.width) * spacing,
        liquidity: p.liquidity,
      })),
    }
  })
const amount = fc
  .tuple(fc.integer({ min: 0, max: 110 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
  .map(([e, m]) => 1n + ((m << BigInt(e)) >> 64n))

test('property: monotone in amountIn, both directions', () => {
  fc.assert(
    fc.property(poolArb, amount, amount, fc.boolean(), (s, a, d, zeroForOne) => {
      const p = poolOf(s.fee, s.spacing, s.tick, s.positions)
      const [i, o] = zeroForOne ? [T0, T1] : [T1, T0]
      return quoteExactIn(p, i, o, a) <= quoteExactIn(p, i, o, a + d)
    }),
    { seed: 11, numRuns: 150 },
  )
})

test('property: never more than the pool holds on the way (sum over ranges of the token out, rounded up)', () => {
  fc.assert(
    fc.property(poolArb, fc.boolean(), (s, zeroForOne) => {
      const p = poolOf(s.fee, s.spacing, s.tick, s.positions)
      const price = p.sqrtPriceX96
      let held = 0n
      for (const pos of s.positions) {
        const lo = getSqrtRatioAtTick(pos.lower),
          hi = getSqrtRatioAtTick(pos.upper)
        if (zeroForOne && lo < price) held += getAmount1Delta(lo, hi < price ? hi : price, pos.liquidity, true)
        if (!zeroForOne && hi > price) held += getAmount0Delta(lo > price ? lo : price, hi, pos.liquidity, true)
      }
      const out = quoteExactIn(p, zeroForOne ? T0 : T1, zeroForOne ? T1 : T0, 1n << 200n)
      return out <= held
    }),
    { seed: 12, numRuns: 150 },
  )
})

test('property: fewer loaded words give the same quote until the swap reaches their end, and never more', () => {
  fc.assert(
    fc.property(poolArb, amount, fc.boolean(), fc.integer({ min: 0, max: 3 }), (s, a, zeroForOne, margin) => {
      const full = poolOf(s.fee, s.spacing, s.tick, s.positions)
      const w = compress(s.tick, s.spacing) >> 8
      const part = poolOf(s.fee, s.spacing, s.tick, s.positions, [w - margin, w + margin])
      const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
      const rFull = swap(full, zeroForOne, a, limit),
        rPart = swap(part, zeroForOne, a, limit)
      const outFull = zeroForOne ? -rFull.amount1 : -rFull.amount0,
        outPart = zeroForOne ? -rPart.amount1 : -rPart.amount0
      assert.ok(outPart <= outFull)
      if (!rPart.reachedWordRangeEnd) assert.deepEqual(rPart, rFull)
    }),
    { seed: 13, numRuns: 150 },
  )
})

test('quoteExactIn never throws: zero, negative, huge amounts, foreign tokens, an empty pool', () => {
  const p = poolOf(3000, 60, 0, [{ lower: -600, upper: 600, liquidity: 10n ** 18n }])
  for (const a of [0n, -1n, 1n, 1n << 255n, (1n << 256n) + 5n]) {
    assert.doesNotThrow(() => quoteExactIn(p, T0, T1, a))
  }
  assert.equal(quoteExactIn(p, T0, T1, 0n), 0n)
  assert.equal(quoteExactIn(p, T0, '0x0000000000000000000000000000000000000009', 10n ** 9n), 0n)
  assert.equal(quoteExactIn(poolOf(3000, 60, 0, []), T0, T1, 10n ** 9n), 0n)
})
