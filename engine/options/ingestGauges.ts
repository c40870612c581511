// The ingestion runs in its own process; its state reaches the engine's /metrics through the
// ingest_state table, sampled every 15 s (a gauge's collect cannot wait for a query).
import type { EngineContext } from '../context.js'
import { ingestStates, type IngestState } from '../store/options.js'

export function ingestGauges({ metrics, sql, log, onShutdown }: EngineContext): void {
  let states: IngestState[] = []
  const refresh = () => ingestStates(sql).then(s => { states = s }, err => log.debug({ err }, 'ingest state not readable'))
  void refresh()
  const timer = setInterval(refresh, 15_000)
  timer.unref()
  onShutdown(() => clearInterval(timer))
  const worst = (f: (s: IngestState) => number | null) => states.reduce((m, s) => Math.max(m, f(s) ?? 0), 0)
  metrics.gauge('options_ingest_last_success_age_seconds', 'seconds since the stalest ingestion stream last succeeded',
    () => worst(s => s.lastSuccessAt ? (Date.now() - s.lastSuccessAt.getTime()) / 1000 : null))
  metrics.gauge('options_ingest_lag_seconds', 'now minus the newest ingested trade, worst stream',
    () => worst(s => s.lastTradeTs ? (Date.now() - s.lastTradeTs.getTime()) / 1000 : null))
  metrics.gauge('options_ingest_errors_total', 'failed ingestion polls, all streams', () => states.reduce((n, s) => n + s.errorsTotal, 0))
  metrics.gauge('options_ingest_trades_total', 'trades stored by ingestion, all streams', () => states.reduce((n, s) => n + s.tradesTotal, 0))
}
