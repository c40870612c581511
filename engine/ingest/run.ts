// Picks the source named by INGEST_SOURCE and runs it until the signal aborts (a replay ends by itself).
import type { Logger } from 'pino'
import type { Sql } from '../store/db.js'
import type { Config } from '../config.js'
import { deribitClient } from './deribit/client.js'
import { createSink } from './sink.js'
import { createIngestMetrics, type IngestMetrics } from './metrics.js'
import { runDeribitSource } from './sources/deribit.js'
import { runReplay } from './sources/replay.js'
import { runSynthetic } from './sources/synthetic.js'

export async function runIngestion({
  config,
  sql,
  log,
  signal,
  metrics,
}: {
  config: Config
  sql: Sql
  log: Logger
  signal: AbortSignal
  metrics?: IngestMetrics
}): Promise<void> {
  const source = config.INGEST_SOURCE
  if (source === 'off') throw new Error('INGEST_SOURCE is off: set it to deribit, replay or synthetic')
  const m = metrics ?? createIngestMetrics(source)
  const status = setInterval(() => m.logStatus(log), 60_000)
  status.unref()
  try {
    switch (source) {
      case 'deribit': {
        log.info(
          {
            baseUrl: config.DERIBIT_BASE_URL,
            currencies: config.INGEST_CURRENCIES,
            intervalMs: config.INGEST_INTERVAL_MS,
          },
          'ingest: polling VENUE_A',
        )
        const client = deribitClient({ baseUrl: config.DERIBIT_BASE_URL, timeoutMs: config.INGEST_TIMEOUT_MS })
        return await runDeribitSource({
          sql,
          log,
          config,
          client,
          sink: createSink({ sql, source: 'deribit', log }),
          metrics: m,
          signal,
        })
      }
      case 'replay': {
        if (!config.INGEST_FILE) throw new Error('INGEST_SOURCE=replay needs INGEST_FILE (a JSON-lines recording)')
        await runReplay({ sql, log, file: config.INGEST_FILE, rebase: config.INGEST_REPLAY_REBASE, metrics: m, signal })
        return
      }
      case 'synthetic':
        return await runSynthetic({
          sql,
          log,
          currencies: config.INGEST_CURRENCIES.split(','),
          intervalMs: config.INGEST_INTERVAL_MS,
          tradesPerCycle: config.INGEST_SYNTHETIC_TRADES_PER_CYCLE,
          snapshotIntervalMs: config.INGEST_SNAPSHOT_INTERVAL_MS,
          tickersPerCycle: config.INGEST_TICKERS_PER_CYCLE,
          backfillMinutes: config.INGEST_BACKFILL_MINUTES,
          metrics: m,
          signal,
        })
    }
  } finally {
    clearInterval(status)
    m.logStatus(log)
  }
}
