// The bounds the pruned search trusts (workers/sor/path.ts CurveBound): a curve never pays more than its
// bound at any input, never has a steeper rate than the bound's rate, and the bound's rate is the curve's own
// rate at zero. Held on random V2, V3 (liquidity that falls, rises again behind an empty stretch, or runs out
// at the loaded words' edge) and stable pools, both directions, from one unit to far past the liquidity.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { boundOut, poolCurve } from '../../../../workers/sor/path.js'
import type { PoolState } from '../../../../workers/sor/types.js'
import { poolAddress, stable, token, v2, v3 } from './fixtures.js'

const [A, B, C] = [token(1), token(2), token(3)]
const magnitude = (lo: number, hi: number) =>
  fc
    .tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: 1, max: 999 }))
    .map(([e, m]) => BigInt(m) * 10n ** BigInt(e))
const arbPool: fc.Arbitrary<PoolState> = fc.oneof(
  fc
    .record({ ra: magnitude(6, 30), rb: magnitude(6, 30), fee: fc.constantFrom(100, 3000, 10000) })
    .map(p => v2(poolAddress(1), A, B, p.ra, p.rb, p.fee)),
  fc
    .record({
      tick: fc.integer({ min: -200_000, max: 200_000 }),
      fee: fc.constantFrom(500, 3000, 10000),
      ranges: fc.array(
        fc.record({
          from: fc.integer({ min: -80, max: 80 }),
          width: fc.integer({ min: 1, max: 60 }),
          l: magnitude(8, 26),
        }),
        { minLength: 1, maxLength: 5 },
      ),
    })
    .map(p => {
      const spacing = p.fee === 500 ? 10 : p.fee === 3000 ? 60 : 200,
        base = Math.floor(p.tick / spacing) * spacing
      return v3(poolAddress(2), A, B, {
        fee: p.fee,
        tickSpacing: spacing,
        tick: p.tick,
        positions: p.ranges.map(r => ({
          lower: base + spacing * r.from,
          upper: base + spacing * (r.from + r.width),
          liquidity: r.l,
        })),
      })
    }),
  fc
    .record({
      b: fc.array(magnitude(18, 27), { minLength: 3, maxLength: 3 }),
      A: fc.bigInt({ min: 1n, max: 5000n }),
      dec: fc.constantFrom(6, 18),
    })
    .map(p => stable(poolAddress(3), [A, B, C], p.b, [18, p.dec, 18], p.A)),
)

test('no curve pays more than its bound, nor trades at a rate steeper than its zero-size rate', () => {
  fc.assert(
    fc.property(
      arbPool,
      fc.boolean(),
      fc.array(fc.double({ min: 0, max: 40, noNaN: true }), { minLength: 1, maxLength: 12 }),
      (pool, flip, exps) => {
        const [tokenIn, tokenOut] = flip ? [B, A] : [A, B]
        const curve = poolCurve(pool, tokenIn, tokenOut)
        assert.equal(curve.bound.rate, curve.rate(0))
        for (const e of exps) {
          const x = 10 ** e
          const out = curve.out(x),
            bound = boundOut(curve.bound, x)
          assert.ok(out <= bound * (1 + 1e-12), `${pool.kind} out(${x}) = ${out} above its bound ${bound}`)
          assert.ok(
            curve.rate(x) <= curve.bound.rate * (1 + 1e-12),
            `${pool.kind} rate(${x}) = ${curve.rate(x)} above rate(0) = ${curve.bound.rate}`,
          )
        }
        assert.equal(curve.out(0), 0)
      },
    ),
    { seed: 3, numRuns: 600 },
  )
})
