// The load test's one line when most quotes were refused: the code, and the setting to change with a value
// that fits the rate asked for; nothing when most were accepted.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { explainRefusals, fittingLimit } from '../../bench/lib/refusals.js'

test("the relay's message limit is named with a RATE_LIMIT_PER_MIN that fits the rate", () => {
  const line = explainRefusals({
    sent: 20_000,
    accepted: 17,
    errors: { RATE_LIMITED: 16, NO_ANSWER: 19_967 },
    rate: 2000,
  })
  assert.equal(
    line,
    '19983 of 20000 quotes not accepted: the relay answered RATE_LIMITED (its per-IP message limit, ' +
      'RATE_LIMIT_PER_MIN) and dropped the rest; restart the target with RATE_LIMIT_PER_MIN=150000 ' +
      "(fits 2000 quotes/s from this machine's one IP, with room to spare)",
  )
})

test('the value fits: at least 60 a minute per quote a second, plus room', () => {
  for (const rate of [1, 7, 100, 333, 2000, 12_345]) {
    const v = fittingLimit(rate)
    assert.ok(v >= rate * 60 * 1.25 && v <= rate * 60 * 1.4 + 10, `${rate}/s -> ${v}`)
  }
})

test('other codes are named with what to do; most accepted says nothing', () => {
  assert.match(
    explainRefusals({ sent: 100, accepted: 10, errors: { BUSY: 90 }, rate: 5000 })!,
    /^90 of 100 quotes not accepted: 90 answered BUSY; .*RELAY_ADMISSION_MS/,
  )
  assert.match(
    explainRefusals({ sent: 100, accepted: 0, errors: { NO_ANSWER: 100 }, rate: 50 })!,
    /100 answered NO_ANSWER; the relay did not answer/,
  )
  assert.equal(explainRefusals({ sent: 100, accepted: 60, errors: { RATE_LIMITED: 1, NO_ANSWER: 39 }, rate: 50 }), null)
  assert.equal(explainRefusals({ sent: 0, accepted: 0, errors: {}, rate: 50 }), null)
})
