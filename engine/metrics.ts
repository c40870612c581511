// Prometheus metrics (prom-client): one registry per engine so tests can run several engines
// in one process without their series colliding. By Prometheus' conventions (`promtool check metrics`
// prints nothing, test/metrics/conventions.test.ts): what only grows is a counter named `_total`, what
// goes up and down is a gauge without it, units are seconds and bytes, label values come from a fixed set.
import { Counter, Histogram, Gauge, Registry, collectDefaultMetrics } from 'prom-client'
import { createFlowMetrics, type FlowMetrics } from './metrics/flow.js'
import { scrapedCounterBy } from './metrics/scraped.js'

export interface Metrics {
  registry: Registry
  httpRequests: Counter<'surface' | 'route' | 'method' | 'status'>
  httpLatency: Histogram<'surface' | 'route' | 'method'>
  /** the quote flow's histograms and counters, observed where things happen (engine/metrics/flow.ts) */
  flow: FlowMetrics
  /** sampled at scrape time from whatever reports a level (mailboxes, the pool queue) */
  gauge(name: string, help: string, collect: () => number): void
  /** the same, one series per value of `label` (values from a fixed set: codes, never ids) */
  gaugeBy(name: string, help: string, label: string, collect: () => Iterable<readonly [string, number]>): void
  /** a count kept elsewhere that only grows (since this process started), exported as a counter */
  counter(name: string, help: string, collect: () => number): void
  /** the same, one series per value of `label` (values from a fixed set: codes, never ids) */
  counterBy(name: string, help: string, label: string, collect: () => Iterable<readonly [string, number]>): void
}

// prom-client's defaults export these three levels as gauges named `_total`; the same counts, by type,
// are `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources`.
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
]

export function createMetrics(): Metrics {
  const registry = new Registry()
  // The event-loop lag histogram samples with a timer. prom-client's default (every 10 ms) wakes an idle
  // engine 100 times a second, and on these machines a wake-up costs ~170-215 us of CPU: 26 ms of CPU a second
  // for a node doing nothing, a tenth of a core per ten nodes. Every 100 ms still catches any stall that
  // matters to a scrape every 15 s (a stall delays the next sample), at a tenth of the cost.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 })
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name)
  const registers = [registry]
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by surface, route, method and status',
    labelNames: ['surface', 'route', 'method', 'status'] as const,
    registers,
  })
  const httpLatency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['surface', 'route', 'method'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers,
  })
  return {
    registry,
    httpRequests,
    httpLatency,
    flow: createFlowMetrics(registry),
    gauge(name, help, collect) {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(collect())
        },
      })
    },
    gaugeBy(name, help, label, collect) {
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers,
        collect() {
          for (const [value, n] of collect()) this.set({ [label]: value }, n)
        },
      })
    },
    // reset then inc: a counter has no set, and a collect runs whole before the scrape reads the value
    counter(name, help, collect) {
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset()
          this.inc(collect())
        },
      })
    },
    counterBy(name, help, label, collect) {
      scrapedCounterBy(registers, name, help, label, collect)
    },
  }
}
