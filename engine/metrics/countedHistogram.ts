// A histogram without labels whose observations are plain numbers (a count a bucket, the sum, the count), handed to
// prom-client's registry only when /metrics is read, which formats it as it formats its own histograms. prom-client's
// Histogram.observe makes several objects a call (a label object, a closure, a {labels, value} pair, and a string of
// the bucket's bound to index its counts by): 176 B and ~140 ns a call against none and ~16 ns here (one process),
// paid for every accepted quote on the relay's path (issue 29; docs/benchmarks.md 0.14.6). The series are the same:
// `_bucket` with each bound as `le` and `+Inf`, cumulative, then `_sum` and `_count`, all at 0 from the start.
import type { Metric, Registry } from 'prom-client'

export interface CountedHistogram {
  /** one observation; a value that is no finite number is not counted (prom-client's own would throw) */
  observe(value: number): void
}

export function countedHistogram(
  registers: readonly Registry[],
  name: string,
  help: string,
  buckets: readonly number[],
): CountedHistogram {
  const bounds = Float64Array.from(buckets).sort()
  const counts = new Float64Array(bounds.length + 1) // the last cell: above every bound
  let sum = 0
  let count = 0
  const bucketName = `${name}_bucket`
  const snapshot = () => {
    const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = []
    let below = 0
    for (let i = 0; i < bounds.length; i++) {
      below += counts[i]!
      values.push({ value: below, labels: { le: bounds[i]! }, metricName: bucketName })
    }
    values.push({ value: count, labels: { le: '+Inf' }, metricName: bucketName })
    values.push({ value: sum, labels: {}, metricName: `${name}_sum` })
    values.push({ value: count, labels: {}, metricName: `${name}_count` })
    return { name, help, type: 'histogram', values, aggregator: 'sum' }
  }
  // what the registry asks of a metric: its name, get() (and getForPromString() when there), reset()
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => snapshot(),
    reset() {
      counts.fill(0)
      sum = 0
      count = 0
    },
  }
  for (const r of registers) r.registerMetric(metric as unknown as Metric)
  return {
    observe(value) {
      if (!Number.isFinite(value)) return
      let i = 0
      while (i < bounds.length && value > bounds[i]!) i++
      counts[i]! += 1
      sum += value
      count++
    },
  }
}
