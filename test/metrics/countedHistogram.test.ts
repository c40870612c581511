// The relay's histograms count in plain numbers (engine/metrics/countedHistogram.ts) and must read on /metrics
// exactly as prom-client's own Histogram reads for the same observations (the text format /metrics serves).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { Histogram, Registry } from 'prom-client'
import { countedHistogram } from '../../engine/metrics/countedHistogram.js'

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
const NAME = 'relay_quote_duration_seconds'
const HELP = "a quote's submission to its verdict"

function pair() {
  const theirs = new Registry()
  const ours = new Registry()
  const reference = new Histogram({ name: NAME, help: HELP, buckets: BUCKETS, registers: [theirs] })
  const counted = countedHistogram([ours], NAME, HELP, BUCKETS)
  return { theirs, ours, reference, counted }
}

// values on the bounds, between them, above them all and at zero, as a quote's latency can be
const value = fc.oneof(
  fc.constantFrom(...BUCKETS, 0, 10, 1e9),
  fc.double({ min: 0, max: 20, noNaN: true, noDefaultInfinity: true }),
)

test("a counted histogram's exposition is prom-client's Histogram's for the same observations", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(value, { maxLength: 200 }), async values => {
      const { theirs, ours, reference, counted } = pair()
      for (const v of values) {
        reference.observe(v)
        counted.observe(v)
      }
      assert.equal(await ours.metrics(), await theirs.metrics())
      // as JSON too (what a registry merge reads), but for prom-client's empty exemplar slot
      const json = async (r: Registry) =>
        (await r.getMetricsAsJSON()).map(m => ({ ...m, values: m.values.map(({ exemplar: _, ...v }: any) => v) }))
      assert.deepEqual(await json(ours), await json(theirs))
    }),
    { numRuns: 150, seed: 29 },
  )
})

test('a counted histogram reads 0 before any observation and after a reset, and skips a value that is no number', async () => {
  const { theirs, ours, reference, counted } = pair()
  assert.equal(await ours.metrics(), await theirs.metrics())
  assert.match(await ours.metrics(), new RegExp(`^${NAME}_bucket\\{le="\\+Inf"\\} 0$`, 'm'))
  counted.observe(0.003)
  reference.observe(0.003)
  counted.observe(Number.NaN)
  counted.observe(Number.POSITIVE_INFINITY)
  assert.equal(await ours.metrics(), await theirs.metrics())
  assert.match(await ours.metrics(), new RegExp(`^${NAME}_count 1$`, 'm'))
  ours.resetMetrics()
  theirs.resetMetrics()
  reference.zero({}) // prom-client's reset leaves no series for an unlabelled histogram until its next observe
  assert.equal(await ours.metrics(), await theirs.metrics())
})
