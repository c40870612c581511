// workers/options/precision.ts: round half away from zero on the digits a value was written with, no
// float noise in the result, null for what JSON cannot carry. The figure table is Deribit's published
// precision (docs/options.md).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { roundHalfAway, figure, PRECISION } from '../../../workers/options/precision.js'

/** The digits after the point of a number's shortest text; Infinity when it needs an exponent. */
const decimalsOf = (n: number) =>
  /^-?\d+(?:\.(\d+))?$/.exec(String(n)) ? (/\.(\d+)$/.exec(String(n))?.[1]?.length ?? 0) : Infinity
/** String(x) ends exactly half-way at `d` decimals (…5, …50, …500): the one place toFixed's rule differs. */
const isTie = (x: number, d: number) => {
  const f = /\.(\d+)$/.exec(String(x))?.[1] ?? ''
  return f.length > d && /^50*$/.test(f.slice(d))
}

test('float noise is gone: 0.1 + 0.2 at any precision is 0.3, and prints as 0.3', () => {
  for (const d of [1, 2, 4, 5]) {
    assert.equal(roundHalfAway(0.1 + 0.2, d), 0.3)
    assert.equal(String(roundHalfAway(0.1 + 0.2, d)), '0.3')
  }
  assert.equal(roundHalfAway(60000.1 + 0.2, 2), 60000.3) // 60000.299999999996
  assert.equal(roundHalfAway(1520.3 + 0.1, 1), 1520.4) // 1520.3999999999999
})

test('halves go away from zero on the written digits (where toFixed rounds the binary value down)', () => {
  assert.equal((1.005).toFixed(2), '1.00') // why toFixed is not the rule
  assert.equal(roundHalfAway(1.005, 2), 1.01)
  assert.equal(roundHalfAway(-1.005, 2), -1.01)
  assert.equal(roundHalfAway(0.00015, 4), 0.0002)
  assert.equal(roundHalfAway(2.675, 2), 2.68)
  assert.equal(roundHalfAway(1.25, 1), 1.3)
  assert.equal(roundHalfAway(1.2499999, 1), 1.2)
})

test('null, undefined, NaN and ±Infinity are null; zero and -0 are 0, never -0', () => {
  for (const x of [null, undefined, NaN, Infinity, -Infinity]) assert.equal(roundHalfAway(x, 2), null)
  assert.ok(Object.is(roundHalfAway(-0, 2), 0))
  assert.ok(Object.is(roundHalfAway(-0.00001, 4), 0))
  assert.ok(Object.is(roundHalfAway(5e-324, 4), 0))
})

test('values already within the precision, huge or in exponent form, are returned as they are', () => {
  for (const x of [97020, -3, 0.5, 1e21, 1.5e300, -2.5e-3]) assert.equal(roundHalfAway(x, 4), x)
  assert.equal(roundHalfAway(1.5e-7, 6), 0)
  assert.equal(roundHalfAway(5e-7, 6), 0.000001)
})

test("the figure table is Deribit's precision, and figure() applies it", () => {
  assert.deepEqual(PRECISION, { price: 4, index: 2, iv: 2, greek: 5, size: 1, usd: 2 })
  assert.equal(figure('price', 0.0123456), 0.0123)
  assert.equal(figure('index', 97010.456), 97010.46)
  assert.equal(figure('iv', 54.8049), 54.8)
  assert.equal(figure('greek', -0.518774), -0.51877)
  assert.equal(figure('size', 12.25), 12.3)
  assert.equal(figure('usd', 254677.499), 254677.5)
  assert.equal(figure('price', null), null)
})

const realistic = fc.oneof(
  fc.double({ min: -1e12, max: 1e12, noNaN: true }),
  fc.integer({ min: -10_000_000, max: 10_000_000 }).map(n => n / 10 ** (n % 7 === 0 ? 1 : 6)),
  fc
    .tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000 }))
    .map(([a, b]) => a / 1e4 + b / 1e4), // sums with noise
)

test("property: at most `d` decimals, within half a unit, idempotent, odd, and toFixed's value except on exact halves", () => {
  fc.assert(
    fc.property(realistic, fc.integer({ min: 0, max: 6 }), (x, d) => {
      const r = roundHalfAway(x, d)!
      assert.ok(decimalsOf(r) <= d, `${x} at ${d}: ${r}`)
      assert.ok(Math.abs(r - x) <= 0.5 * 10 ** -d * (1 + 1e-9) + Math.abs(x) * 1e-15, `${x} at ${d}: ${r}`)
      assert.equal(roundHalfAway(r, d), r)
      assert.equal(roundHalfAway(-x, d), r === 0 ? 0 : -r)
      const fixed = Number(x.toFixed(d)) || 0
      if (!isTie(x, d)) assert.equal(r, fixed, `${x} at ${d}`)
      else assert.ok(Math.abs(r) > Math.abs(x), `${x} at ${d}: a half goes away from zero, got ${r}`)
    }),
    { numRuns: 5000 },
  )
})
