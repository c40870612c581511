// The house's one backoff and its one "N failures within T" counter (workers/retry), which the engine, the actors,
// the maker SDK and the console share.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { backoffDelayMs, jittered } from '../../../workers/retry/backoff.js'
import { FailureWindow } from '../../../workers/retry/failureWindow.js'

test('the backoff doubles per attempt from its first delay and never passes its cap', () => {
  assert.deepEqual(
    Array.from({ length: 7 }, (_, i) => backoffDelayMs(i, 50, 500)),
    [50, 100, 200, 400, 500, 500, 500],
  )
  assert.equal(backoffDelayMs(10_000), 30_000, 'a huge attempt count neither overflows nor passes the default cap')
  fc.assert(
    fc.property(
      fc.nat(2000),
      fc.integer({ min: 1, max: 10_000 }),
      fc.integer({ min: 1, max: 1e7 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (attempt, initial, max, r) => {
        const d = jittered(backoffDelayMs(attempt, initial, max), 0.2, () => r)
        return d <= Math.max(initial, max) && d >= Math.floor(0.8 * Math.min(max, initial * 2 ** Math.min(attempt, 30)))
      },
    ),
  )
})

test('jitter only shortens a wait, by at most its fraction', () => {
  assert.equal(
    jittered(1000, 0.2, () => 0),
    1000,
  )
  assert.equal(
    jittered(1000, 0.2, () => 0.5),
    900,
  )
  assert.equal(
    jittered(1000, 0.2, () => 0.999999),
    800,
  )
})

test('a failure window gives up one past its max within its period, and forgets what left the period', () => {
  const w = new FailureWindow(3, 1000)
  assert.deepEqual(
    [0, 100, 200].map(t => w.record(t)),
    [false, false, false],
  )
  assert.equal(w.record(300), true, 'the fourth within a second is one too many')
  const v = new FailureWindow(3, 1000)
  for (const t of [0, 100, 200]) v.record(t)
  assert.equal(v.record(1000), false, 'the first left the window at 1000 ms: three within it again')
  assert.equal(v.count, 3)
  assert.equal(v.record(5000), false, 'after a quiet period it starts over')
  assert.equal(v.count, 1)
})

test('a failure window agrees with counting every failure of the last period by hand', () => {
  fc.assert(
    fc.property(
      fc.array(fc.nat(500), { maxLength: 300 }),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 2000 }),
      (gaps, max, periodMs) => {
        const w = new FailureWindow(max, periodMs)
        const times: number[] = []
        let t = 0
        for (const gap of gaps) {
          t += gap
          times.push(t)
          const within = times.filter(x => t - x < periodMs).length
          if (w.record(t) !== within > max || w.count !== within) return false
        }
        return true
      },
    ),
  )
})
