// Prometheus metrics (prom-client): one registry per engine so tests can run several engines
// in one process without their series colliding.
import { Counter, Histogram, Gauge, Registry, collectDefaultMetrics } from 'prom-client'

export interface Metrics {
  registry: Registry
  httpRequests: Counter<'surface' | 'route' | 'method' | 'status'>
  httpLatency: Histogram<'surface' | 'route' | 'method'>
  /** sampled at scrape time from whatever reports a depth (mailboxes, the pool queue) */
  gauge(name: string, help: string, collect: () => number): void
}

export function createMetrics(): Metrics {
  const registry = new Registry()
  // The event-loop lag histogram samples with a timer. prom-client's default (every 10 ms) wakes an idle
  // engine 100 times a second, and on these machines a wake-up costs ~170-215 us of CPU: 26 ms of CPU a second
  // for a node doing nothing, a tenth of a core per ten nodes. Every 100 ms still catches any stall that
  // matters to a scrape every 15 s (a stall delays the next sample), at a tenth of the cost.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 })
  const httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by surface, route, method and status',
    labelNames: ['surface', 'route', 'method', 'status'] as const,
    registers: [registry],
  })
  const httpLatency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['surface', 'route', 'method'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  })
  return {
    registry,
    httpRequests,
    httpLatency,
    gauge(name, help, collect) {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(collect())
        },
      })
    },
  }
}
