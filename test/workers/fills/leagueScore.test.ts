import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { leagueScore, reliabilityFactor } from '../../../workers/fills/leagueScore.js'
import { median } from '../../../workers/fills/stats.js'

test('reliability is exactly clamp(1.1 - cancelRate * 1.5, 0.5, 1.1)', () => {
  assert.equal(reliabilityFactor(0), 1.1)
  assert.equal(reliabilityFactor(0.2), 1.1 - 0.2 * 1.5)
  assert.equal(reliabilityFactor(0.4), 0.5)
  assert.equal(reliabilityFactor(1), 0.5)
})
test('worked example (README): maker, $99,999 notional, +20 bps, half private, cancelRate 0.1', () => {
  // 10 * log10(100000) = 50; x(1 + 20/100) = 60; x(1 + 0.1 * 0.5) = 63; x(1.1 - 0.15 = 0.95) = 59.85
  const s = leagueScore({ filledNotional: 99_999, avgImprovementBps: 20, privateShare: 0.5, cancelRate: 0.1 })
  assert.equal(s.score, 59.85)
  assert.ok(Math.abs(s.rawScore - 59.85) < 1e-9)
  assert.ok(Math.abs(s.reliability! - 0.95) < 1e-12)
})
test('takers have no reliability factor', () => {
  const s = leagueScore({ filledNotional: 99_999, avgImprovementBps: 0, privateShare: 0, cancelRate: null })
  assert.equal(s.reliability, null)
  assert.equal(s.score, 50)
})
test('property: reliability within [0.5, 1.1], score >= 0, more notional never scores lower', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 1e9, noNaN: true }),
      fc.double({ min: -1e4, max: 1e4, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (usd, bps, priv, cr) => {
        const s = leagueScore({ filledNotional: usd, avgImprovementBps: bps, privateShare: priv, cancelRate: cr })
        assert.ok(s.reliability! >= 0.5 && s.reliability! <= 1.1)
        assert.ok(s.rawScore >= 0)
        assert.ok(
          leagueScore({ filledNotional: usd * 2 + 1, avgImprovementBps: bps, privateShare: priv, cancelRate: cr })
            .rawScore >= s.rawScore,
        )
      },
    ),
  )
})
test('median interpolates like percentile_cont(0.5)', () => {
  assert.equal(median([]), null)
  assert.equal(median([3]), 3)
  assert.equal(median([4, 1, 3, 2]), 2.5)
  assert.equal(median([5, -1, 2]), 2)
})
