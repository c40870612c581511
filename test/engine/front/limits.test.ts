import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { FixedWindowLimiter, SlidingWindowLimiter, MultiWindowLimiter } from '../../../engine/front/limits.js'

test('fixed window opens at the first hit and resets windowMs after it', () => {
  let now = 1000
  const l = new FixedWindowLimiter(3, 60_000, () => now)
  assert.deepEqual(
    [1, 2, 3].map(() => l.hit('ip').ok),
    [true, true, true],
  )
  now += 59_000
  const refused = l.hit('ip')
  assert.equal(refused.ok, false)
  assert.equal(Math.ceil(refused.retryAfterSec), 1)
  assert.equal(l.hit('other').ok, true, 'keys are independent')
  now = 1000 + 60_000
  assert.equal(l.hit('ip').ok, true, 'a new window opens 60 s after the first message')
})

test("fixed window's refusedForMs counts as hit does: 0 within the limit, else the ms to the window's reset", () => {
  let now = 1000
  const a = new FixedWindowLimiter(2, 60_000, () => now)
  const b = new FixedWindowLimiter(2, 60_000, () => now)
  const recorded: string[] = []
  b.onRecord = key => recorded.push(key)
  for (const at of [1000, 2000, 30_500, 60_999, 61_000, 61_001, 121_000]) {
    now = at
    const v = a.hit('ip')
    assert.equal(b.refusedForMs('ip'), v.ok ? 0 : v.retryAfterSec * 1000, `at ${at}`)
  }
  assert.equal(recorded.length, 7, 'every frame is counted for the cluster, refused or not')
})

test('sliding window: a hit frees up exactly windowMs after it was made; refusals are not counted', () => {
  let now = 0
  const l = new SlidingWindowLimiter(2, 1000, () => now)
  assert.equal(l.hit('k').ok, true)
  now = 400
  assert.equal(l.hit('k').ok, true)
  now = 900
  const v = l.hit('k')
  assert.equal(v.ok, false)
  assert.equal(v.retryAfterSec, 0.1)
  now = 1000
  assert.equal(l.hit('k').ok, true, 'the first hit has left the window')
  assert.equal(l.hit('k').ok, false)
})

test('property: a sliding window never admits more than limit hits in any window', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 200 }),
      (limit, gaps) => {
        let now = 0
        const l = new SlidingWindowLimiter(limit, 1000, () => now)
        const admitted: number[] = []
        for (const g of gaps) {
          now += g
          if (l.hit('k').ok) admitted.push(now)
        }
        for (let i = 0; i + limit < admitted.length; i++) assert.ok(admitted[i + limit]! - admitted[i]! >= 1000)
      },
    ),
    { seed: 7 },
  )
})

test('multi window: both limits must agree and a refused hit is recorded in neither', () => {
  let now = 0
  const m = new MultiWindowLimiter([
    new SlidingWindowLimiter(2, 1000, () => now),
    new SlidingWindowLimiter(3, 10_000, () => now),
  ])
  assert.equal(m.hit('k').ok, true)
  assert.equal(m.hit('k').ok, true)
  assert.equal(m.hit('k').ok, false)
  now = 1500
  assert.equal(m.hit('k').ok, true)
  const v = m.hit('k')
  assert.equal(v.ok, false)
  assert.ok(v.retryAfterSec > 8, 'the hourly-style window is the binding one now')
})
