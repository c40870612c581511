// The replay source: INGEST_FILE is a JSON-lines recording of VENUE_A answers, one
// {"method", "params", "result"} a line, applied in order through the same sink as the live
// source. With INGEST_REPLAY_REBASE every venue timestamp moves by (now - the newest timestamp in
// the file), so an old recording looks like the last minutes of a market (for demos and windows
// such as "last hour"); expiries never move.
import { readFile } from 'node:fs/promises'
import type { Logger } from 'pino'
import type { Sql } from '../../store/db.js'
import type { RecordedCall } from '../deribit/types.js'
import { createSink } from '../sink.js'
import { recordSuccess, recordError } from '../../store/options.js'

export interface ReplayResult { lines: number; bad: number; newTrades: number; trades: number; snapshots: number; instruments: number; shiftMs: number }

export async function runReplay({ sql, log, file, rebase = false, now = Date.now() }: { sql: Sql; log: Logger; file: string; rebase?: boolean; now?: number }): Promise<ReplayResult> {
  const text = await readFile(file, 'utf8')
  const lines = text.split('\n')
  const calls: { n: number; call: RecordedCall }[] = []
  let bad = 0
  lines.forEach((line, i) => {
    if (!line.trim()) return
    try {
      const call = JSON.parse(line) as RecordedCall
      if (!call || typeof call.method !== 'string' || !('result' in call)) throw new Error('not a {method, params, result} object')
      calls.push({ n: i + 1, call })
    } catch (e) {
      bad++
      log.warn({ file, line: i + 1, err: (e as Error).message }, 'ingest: replay line skipped')
    }
  })
  const shiftMs = rebase ? now - newestTimestamp(calls.map(c => c.call)) : 0
  const sink = createSink({ sql, source: 'replay', log, shiftMs })
  const out: ReplayResult = { lines: calls.length, bad, newTrades: 0, trades: 0, snapshots: 0, instruments: 0, shiftMs }
  let lastTradeTs: Date | null = null
  log.info({ file, lines: calls.length, shiftMs }, 'ingest: replay started')
  for (const [k, { n, call }] of calls.entries()) {
    try {
      const a = await sink.apply(call)
      out.newTrades += a.newTrades
      out.trades += call.method === 'public/get_last_trades_by_currency' ? a.records - a.skipped : 0
      out.snapshots += a.snapshots
      out.instruments += a.instruments
      if (a.lastTradeTs && (!lastTradeTs || a.lastTradeTs > lastTradeTs)) lastTradeTs = a.lastTradeTs
    } catch (e) {
      bad++
      log.warn({ file, line: n, err: (e as Error).message }, 'ingest: replay line failed')
      await recordError(sql, { source: 'replay', currency: '*', error: `line ${n}: ${(e as Error).message}` })
    }
    if ((k + 1) % 500 === 0) log.info({ done: k + 1, of: calls.length, newTrades: out.newTrades }, 'ingest: replay progress')
  }
  out.bad = bad
  await recordSuccess(sql, { source: 'replay', currency: '*', trades: out.newTrades, lastTradeTs })
  log.info({ file, ...out }, 'ingest: replay done')
  return out
}

function newestTimestamp(calls: RecordedCall[]): number {
  let max = -Infinity
  const see = (x: unknown) => { if (typeof x === 'number' && Number.isFinite(x) && x > max) max = x }
  for (const c of calls) {
    const r = c.result as any
    if (c.method === 'public/get_last_trades_by_currency') for (const t of r?.trades ?? []) see(t?.timestamp)
    else if (c.method === 'public/ticker') see(r?.timestamp)
    else if (c.method === 'public/get_book_summary_by_currency') for (const s of Array.isArray(r) ? r : []) see(s?.creation_timestamp)
  }
  return Number.isFinite(max) ? max : Date.now()
}
