// The ingestion's own state, per currency: last success, data lag (now - newest trade), errors and
// trades. Kept in a prom-client registry in the ingest process, written to ingest_state (which the
// engine's /metrics reads, see engine/options/ingestGauges.ts) and logged as one status line a minute.
import type { Logger } from 'pino'
import { Registry, Gauge, Counter } from 'prom-client'

export interface IngestMetrics {
  registry: Registry
  success(currency: string): void
  error(currency: string): void
  trades(currency: string, n: number): void
  lastTrade(currency: string, ts: Date): void
  /** one status line per currency: last success, lag, errors, new trades stored */
  logStatus(log: Logger): void
}

export function createIngestMetrics(source: string): IngestMetrics {
  const registry = new Registry()
  const lastSuccess = new Map<string, number>()
  const lastTradeAt = new Map<string, number>()
  const errors = new Map<string, number>()
  const trades = new Map<string, number>()
  const labels = ['source', 'currency'] as const
  new Gauge({
    name: 'ingest_last_success_timestamp_seconds',
    help: 'unix time of the last successful poll',
    labelNames: labels,
    registers: [registry],
    collect() {
      for (const [c, t] of lastSuccess) this.set({ source, currency: c }, t / 1000)
    },
  })
  new Gauge({
    name: 'ingest_lag_seconds',
    help: 'now minus the newest ingested trade',
    labelNames: labels,
    registers: [registry],
    collect() {
      for (const [c, t] of lastTradeAt) this.set({ source, currency: c }, (Date.now() - t) / 1000)
    },
  })
  const errorsTotal = new Counter({
    name: 'ingest_errors_total',
    help: 'failed polls',
    labelNames: labels,
    registers: [registry],
  })
  const tradesTotal = new Counter({
    name: 'ingest_trades_total',
    help: 'new trades stored',
    labelNames: labels,
    registers: [registry],
  })
  return {
    registry,
    success(c) {
      lastSuccess.set(c, Date.now())
    },
    error(c) {
      errors.set(c, (errors.get(c) ?? 0) + 1)
      errorsTotal.inc({ source, currency: c })
    },
    trades(c, n) {
      trades.set(c, (trades.get(c) ?? 0) + n)
      tradesTotal.inc({ source, currency: c }, n) // also 0: the stream's series exists from its first poll
    },
    lastTrade(c, ts) {
      lastTradeAt.set(c, Math.max(lastTradeAt.get(c) ?? 0, ts.getTime()))
    },
    logStatus(log) {
      const currencies = new Set([...lastSuccess.keys(), ...errors.keys(), ...lastTradeAt.keys(), ...trades.keys()])
      for (const c of currencies) {
        const s = lastSuccess.get(c),
          t = lastTradeAt.get(c)
        log.info(
          {
            source,
            currency: c,
            lastSuccess: s ? new Date(s).toISOString() : null,
            lagSeconds: t ? Math.round((Date.now() - t) / 1000) : null,
            errors: errors.get(c) ?? 0,
            trades: trades.get(c) ?? 0,
          },
          'ingest: status',
        )
      }
    },
  }
}
