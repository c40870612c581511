// The quote flow's metrics keep a fixed set of series whatever clients send: an outcome code or a frame type
// outside the known set is counted as `other` / `invalid`, never as a new label value; buckets are fixed.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Registry } from 'prom-client'
import { createFlowMetrics, QUOTE_OUTCOMES, FRAME_TYPES } from '../../engine/metrics/flow.js'

const series = async (r: Registry, name: string) => (await r.metrics()).split('\n').filter(l => l.startsWith(name))

test('codes and frame types from outside the fixed sets do not make new series', async () => {
  const r = new Registry()
  const flow = createFlowMetrics(r)
  const before = {
    quotes: (await series(r, 'relay_quotes_total{')).length,
    frames: (await series(r, 'relay_frames_total{')).length,
  }
  assert.equal(before.quotes, QUOTE_OUTCOMES.length)
  assert.equal(before.frames, FRAME_TYPES.length)
  for (let i = 0; i < 1000; i++) {
    flow.quote(`CLIENT_${i}`, performance.now())
    flow.frame(`type-${i}`)
    flow.rfqEnded(`state-${i}`)
  }
  flow.quote(undefined, performance.now() - 3)
  flow.quote('BUSY', performance.now())
  assert.equal((await series(r, 'relay_quotes_total{')).length, before.quotes)
  assert.equal((await series(r, 'relay_frames_total{')).length, before.frames)
  const text = await r.metrics()
  assert.match(text, /^relay_quotes_total\{outcome="other"\} 1000$/m)
  assert.match(text, /^relay_quotes_total\{outcome="ACCEPTED"\} 1$/m)
  assert.match(text, /^relay_quotes_total\{outcome="BUSY"\} 1$/m)
  assert.match(text, /^relay_frames_total\{type="invalid"\} 1000$/m)
  assert.match(text, /^rfq_ends_total\{state="EXPIRED"\} 0$/m)
  // only accepted quotes are timed: one observation, about 3 ms
  assert.match(text, /^relay_quote_duration_seconds_count 1$/m)
  assert.match(text, /^relay_quote_duration_seconds_bucket\{le="0.0025"\} 0$/m)
  assert.match(text, /^relay_quote_duration_seconds_bucket\{le="0.005"\} 1$/m)
  // the counts are handed over at each scrape: a second read shows the same totals, not twice them, and a count
  // made between two reads shows in the second
  flow.frame('PING')
  flow.rfqEnded('EXPIRED')
  const again = await r.metrics()
  assert.match(again, /^relay_quotes_total\{outcome="other"\} 1000$/m)
  assert.match(again, /^relay_frames_total\{type="invalid"\} 1000$/m)
  assert.match(again, /^relay_frames_total\{type="PING"\} 1$/m)
  assert.match(again, /^rfq_ends_total\{state="EXPIRED"\} 1$/m)
})
