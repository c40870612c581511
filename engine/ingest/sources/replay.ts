// The replay source: INGEST_FILE is a JSON-lines recording of VENUE_A answers, one
// {"method", "params", "result"} a line, applied in order through the same sink as the live
// source. With INGEST_REPLAY_REBASE every venue timestamp moves by (now - the newest timestamp in
// the file), so an old recording looks like the last minutes of a market (for demos and windows
// such as "last hour"); expiries never move.
// A replay is counted like the live source, per stream (the recorded call's currency): each trades
// line's new trades are added to ingest_state in the same transaction that stores them, and to the
// process's ingest_trades_total, so the counts equal the stored trades at every moment, also when a
// replay is stopped half-way (it used to record one total at the very end, and no metric at all).
import { readFile } from 'node:fs/promises'
import type { Logger } from 'pino'
import type { Sql } from '../../store/db.js'
import type { RecordedCall } from '../../../workers/options/deribit/types.js'
import { createSink } from '../sink.js'
import { recordSuccess, recordError } from '../../store/options.js'
import { createIngestMetrics, type IngestMetrics } from '../metrics.js'

const TRADES = 'public/get_last_trades_by_currency'

export interface ReplayResult {
  lines: number
  bad: number
  newTrades: number
  trades: number
  snapshots: number
  instruments: number
  shiftMs: number
}

export interface ReplayOptions {
  sql: Sql
  log: Logger
  file: string
  rebase?: boolean
  now?: number
  /** the ingest process's metrics (a private registry when not given) */
  metrics?: IngestMetrics
  /** stops between lines */
  signal?: AbortSignal
}

export async function runReplay({
  sql,
  log,
  file,
  rebase = false,
  now = Date.now(),
  metrics = createIngestMetrics('replay'),
  signal,
}: ReplayOptions): Promise<ReplayResult> {
  const text = await readFile(file, 'utf8')
  const lines = text.split('\n')
  const calls: { n: number; call: RecordedCall }[] = []
  let bad = 0
  lines.forEach((line, i) => {
    if (!line.trim()) return
    try {
      const call = JSON.parse(line) as RecordedCall
      if (!call || typeof call.method !== 'string' || !('result' in call))
        throw new Error('not a {method, params, result} object')
      calls.push({ n: i + 1, call })
    } catch (e) {
      bad++
      log.warn({ file, line: i + 1, err: (e as Error).message }, 'ingest: replay line skipped')
    }
  })
  const shiftMs = rebase ? now - newestTimestamp(calls.map(c => c.call)) : 0
  const sink = createSink({ sql, source: 'replay', log, shiftMs })
  const out: ReplayResult = { lines: calls.length, bad, newTrades: 0, trades: 0, snapshots: 0, instruments: 0, shiftMs }
  log.info({ file, lines: calls.length, shiftMs }, 'ingest: replay started')
  for (const [k, { n, call }] of calls.entries()) {
    if (signal?.aborted) break
    const currency = streamOf(call)
    try {
      const a =
        call.method !== TRADES
          ? await sink.apply(call)
          : await sql.begin(async tx => {
              const a = await sink.apply(call, tx as unknown as Sql)
              await recordSuccess(tx as unknown as Sql, {
                source: 'replay',
                currency,
                trades: a.newTrades,
                lastTradeTs: a.lastTradeTs,
              })
              return a
            })
      out.newTrades += a.newTrades
      out.trades += call.method === TRADES ? a.records - a.skipped : 0
      out.snapshots += a.snapshots
      out.instruments += a.instruments
      if (call.method === TRADES) {
        metrics.trades(currency, a.newTrades) // after the commit: the metric never counts a rolled-back trade
        metrics.success(currency)
        if (a.lastTradeTs) metrics.lastTrade(currency, a.lastTradeTs)
      }
    } catch (e) {
      bad++
      log.warn({ file, line: n, err: (e as Error).message }, 'ingest: replay line failed')
      metrics.error(currency)
      await recordError(sql, { source: 'replay', currency, error: `line ${n}: ${(e as Error).message}` })
    }
    if ((k + 1) % 500 === 0)
      log.info({ done: k + 1, of: calls.length, newTrades: out.newTrades }, 'ingest: replay progress')
  }
  out.bad = bad
  log.info({ file, ...out }, 'ingest: replay done')
  return out
}

/** A recording's stream is its call's currency, as the live source's are; '*' when the call names none. */
function streamOf(call: RecordedCall): string {
  const c = call.params?.currency
  return typeof c === 'string' && c ? c.toUpperCase() : '*'
}

function newestTimestamp(calls: RecordedCall[]): number {
  let max = -Infinity
  const see = (x: unknown) => {
    if (typeof x === 'number' && Number.isFinite(x) && x > max) max = x
  }
  for (const c of calls) {
    // a recording is hand-editable: every level may be missing, so each is read optionally
    const r = c.result as
      { trades?: { timestamp?: unknown }[]; timestamp?: unknown } | { creation_timestamp?: unknown }[] | undefined
    if (Array.isArray(r)) {
      if (c.method === 'public/get_book_summary_by_currency') for (const s of r) see(s?.creation_timestamp)
    } else if (c.method === 'public/get_last_trades_by_currency') for (const t of r?.trades ?? []) see(t?.timestamp)
    else if (c.method === 'public/ticker') see(r?.timestamp)
  }
  return Number.isFinite(max) ? max : Date.now()
}
