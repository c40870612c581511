// The ramp's search, against a rule instead of a relay: it climbs while steps hold, comes down while they fail,
// bisects to within 10% of the edge, stays inside --min-rate and --max-rate, and says why when no rate holds.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { rampSearch, type RampBounds } from '../../bench/lib/rampSearch.js'

const bounds = (b: Partial<RampBounds> = {}): RampBounds => ({
  startRate: 250,
  minRate: 1,
  maxRate: 100_000,
  maxSteps: 16,
  target: 'p99 <= 10 ms',
  ...b,
})
/** a relay that holds the target up to `edge` quotes/s */
const upTo = (edge: number) => async (rate: number) =>
  rate <= edge ? { holds: true, why: '' } : { holds: false, why: `p99 ${rate / edge} ms is above 10 ms` }

test('the start rate fails: it searches down, then bisects to the highest rate that holds (the old ramp reported none)', async () => {
  const r = await rampSearch(bounds(), upTo(137))
  assert.deepEqual(
    r.tried.slice(0, 2).map(t => [t.rate, t.holds]),
    [
      [250, false],
      [125, true],
    ],
  )
  assert.ok(r.highest! <= 137 && r.highest! >= 137 * 0.9, `found ${r.highest}`)
  assert.ok(r.tried.every(t => t.holds === t.rate <= 137))
  assert.match(
    r.summary,
    new RegExp(
      `^${r.highest}/s is the highest rate holding p99 <= 10 ms ` +
        `\\(\\d+/s failed: p99 [\\d.]+ ms is above 10 ms\\)$`,
    ),
  )
})

test('the start rate holds: it doubles up, then bisects', async () => {
  const r = await rampSearch(bounds(), upTo(3000))
  assert.deepEqual(
    r.tried.slice(0, 5).map(t => t.rate),
    [250, 500, 1000, 2000, 4000],
  )
  assert.ok(r.highest! <= 3000 && r.highest! >= 2700, `found ${r.highest}`)
})

test('no rate holds: it goes down to --min-rate and says what failed there', async () => {
  const why = 'nothing accepted of 5 (RATE_LIMITED 1)'
  const r = await rampSearch(bounds({ startRate: 40, minRate: 5 }), async () => ({ holds: false, why }))
  assert.equal(r.highest, null)
  assert.deepEqual(
    r.tried.map(t => t.rate),
    [40, 20, 10, 5],
  )
  assert.equal(r.summary, `no rate holds p99 <= 10 ms: the lowest tried, 5/s (--min-rate), failed: ${why}`)
})

test('every rate holds: it stops at --max-rate and says to raise it', async () => {
  const r = await rampSearch(bounds({ startRate: 50, maxRate: 150 }), upTo(1e9))
  assert.deepEqual(
    r.tried.map(t => t.rate),
    [50, 100, 150],
  )
  assert.equal(r.highest, 150)
  assert.match(r.summary, /up to --max-rate: raise it/)
})

test('it never runs more steps than allowed, nor a rate twice', async () => {
  const r = await rampSearch(bounds({ maxSteps: 5 }), upTo(777))
  assert.ok(r.tried.length <= 5)
  assert.equal(new Set(r.tried.map(t => t.rate)).size, r.tried.length)
})
