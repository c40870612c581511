// The ingestion runs in its own process; its state reaches the engine's /metrics through the
// ingest_state table, read when /metrics is scraped (prom-client awaits an async collect). It used to
// be sampled every 15 s, so right after a replay /metrics still said 0 trades. A scrape waits at most
// READ_TIMEOUT_MS for the table and otherwise answers with the last state read: /metrics never hangs
// on a slow or absent database. A scrape collects every gauge at once, so they share one read.
import { Counter, Gauge } from 'prom-client'
import type { EngineContext } from '../context.js'
import { ingestStates, type IngestState } from '../store/options.js'

const READ_TIMEOUT_MS = 1_000

export function ingestGauges({ metrics, sql, log }: EngineContext): void {
  let states: IngestState[] = []
  let reading: Promise<void> | undefined
  const refresh = (): Promise<void> => {
    reading ??= ingestStates(sql)
      .then(
        s => {
          states = s
        },
        (err: unknown) => log.debug({ err }, 'ingest state not readable'),
      )
      .finally(() => {
        reading = undefined
      })
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>(resolve => {
      timer = setTimeout(resolve, READ_TIMEOUT_MS)
      timer.unref()
    })
    return Promise.race([reading, late]).finally(() => clearTimeout(timer))
  }
  const registers = [metrics.registry]
  const worst = (f: (s: IngestState) => number | null) => states.reduce((m, s) => Math.max(m, f(s) ?? 0), 0)
  // undefined: no value to show, and the series is left out of the scrape (an age of 0 would read "just now")
  const gauge = (name: string, help: string, value: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        await refresh()
        const v = value()
        if (v === undefined) this.remove()
        else this.set(v)
      },
    })
  /** when the stalest stream last succeeded; null when ingestion never ran, or one of its streams never succeeded */
  const stalestSuccess = () =>
    states.length && states.every(s => s.lastSuccessAt)
      ? Math.min(...states.map(s => s.lastSuccessAt!.getTime()))
      : null

  // never: 0, so `time() - options_ingest_last_success_timestamp_seconds > N` fires (docs/operations.md)
  gauge(
    'options_ingest_last_success_timestamp_seconds',
    'unix time the stalest ingestion stream last succeeded; 0: never',
    () => (stalestSuccess() ?? 0) / 1000,
  )
  gauge(
    'options_ingest_last_success_age_seconds',
    'seconds since the stalest ingestion stream last succeeded; absent: never',
    () => {
      const t = stalestSuccess()
      return t === null ? undefined : (Date.now() - t) / 1000
    },
  )
  gauge('options_ingest_lag_seconds', 'now minus the newest ingested trade, worst stream; absent: no trade yet', () =>
    states.some(s => s.lastTradeTs)
      ? worst(s => (s.lastTradeTs ? (Date.now() - s.lastTradeTs.getTime()) / 1000 : null))
      : undefined,
  )
  // the ingestion's own counters, read from ingest_state: counters, which restart from what the table holds
  new Counter({
    name: 'options_ingest_errors_total',
    help: 'failed ingestion polls, all streams',
    registers,
    async collect() {
      await refresh()
      this.reset()
      this.inc(states.reduce((n, s) => n + s.errorsTotal, 0))
    },
  })
  // per source (deribit, replay, synthetic), each summed over its currencies
  new Counter({
    name: 'options_ingest_trades_total',
    help: 'trades stored by ingestion, per source, all its streams',
    labelNames: ['source'] as const,
    registers,
    async collect() {
      await refresh()
      this.reset()
      const bySource = new Map<string, number>()
      for (const s of states) bySource.set(s.source, (bySource.get(s.source) ?? 0) + s.tradesTotal)
      for (const [source, n] of bySource) this.inc({ source }, n)
    },
  })
}
