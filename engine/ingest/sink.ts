// Where every source's data lands: one Deribit call and its answer in, rows out, through the
// mapping rules in deribit/map.ts. The live poller, the replay of a recording and the synthetic
// market all call apply(), so a recording ingests exactly as the live source would.
import type { Logger } from 'pino'
import type { Sql } from '../store/db.js'
import type {
  RecordedCall,
  DeribitTradesPage,
  DeribitBookSummary,
  DeribitTicker,
  DeribitInstrument,
} from '../../workers/options/deribit/types.js'
import {
  mapTrade,
  mapTicker,
  mapSummary,
  mapInstrument,
  type InstrumentRow,
  type TradeRow,
  type SnapshotRow,
} from '../../workers/options/deribit/map.js'
import {
  upsertInstruments,
  insertTrades,
  insertSnapshots,
  insertSpotRefs,
  type IngestSource,
  type SpotRef,
} from '../store/options.js'

export interface Applied {
  /** records read from the answer */
  records: number
  /** records that were not options we can read (futures in a recording, malformed lines) */
  skipped: number
  newTrades: number
  snapshots: number
  instruments: number
  lastTradeTs: Date | null
  /** the highest trade id in the answer (by its numeric part), for paging */
  maxTradeId: string | null
}

export interface Sink {
  /** `tx` carries the trade and snapshot writes (so a cursor can move in the same transaction); instruments always commit */
  apply(call: RecordedCall, tx?: Sql): Promise<Applied>
}

export function createSink({
  sql,
  source,
  log,
  shiftMs = 0,
}: {
  sql: Sql
  source: IngestSource
  log: Logger
  shiftMs?: number
}): Sink {
  const ids = new Map<string, number>() // venue_name → instrument id, filled as instruments are met

  return {
    async apply(call, tx = sql) {
      const out: Applied = {
        records: 0,
        skipped: 0,
        newTrades: 0,
        snapshots: 0,
        instruments: 0,
        lastTradeTs: null,
        maxTradeId: null,
      }
      switch (call.method) {
        case 'public/get_last_trades_by_currency': {
          const page = call.result as DeribitTradesPage
          const raw = Array.isArray(page?.trades) ? page.trades : []
          out.records = raw.length
          const rows = raw.map(t => mapTrade(t, shiftMs)).filter((r): r is TradeRow => r !== null)
          out.skipped = raw.length - rows.length
          const known = await instrumentIds(rows.map(r => ({ venue: 'VENUE_A', option: r.option, exactExpiry: false })))
          out.newTrades = await insertTrades(
            tx,
            rows.map(r => ({ ...r, instrumentId: known.get(r.option.venueName)! })),
            source,
          )
          await insertSpotRefs(
            tx,
            rows.flatMap(r =>
              r.spotRef == null ? [] : [{ underlying: r.option.underlying, takenAt: r.ts, indexPrice: r.spotRef }],
            ),
            source,
          )
          for (const r of rows) {
            if (!out.lastTradeTs || r.ts > out.lastTradeTs) out.lastTradeTs = r.ts
            if (!out.maxTradeId || tradeIdOrder(r.tradeRef) > tradeIdOrder(out.maxTradeId)) out.maxTradeId = r.tradeRef
          }
          break
        }
        case 'public/get_book_summary_by_currency':
        case 'public/ticker': {
          const raw: unknown[] =
            call.method === 'public/ticker' ? [call.result] : Array.isArray(call.result) ? call.result : []
          out.records = raw.length
          const rows =
            call.method === 'public/ticker'
              ? raw.map(t => mapTicker(t as DeribitTicker, shiftMs)).filter((r): r is SnapshotRow => r !== null)
              : raw.map(s => mapSummary(s as DeribitBookSummary, shiftMs)).filter((r): r is SnapshotRow => r !== null)
          out.skipped = raw.length - rows.length
          const known = await instrumentIds(rows.map(r => ({ venue: 'VENUE_A', option: r.option, exactExpiry: false })))
          out.snapshots = await insertSnapshots(
            tx,
            rows.map(r => ({ ...r, instrumentId: known.get(r.option.venueName)! })),
            source,
          )
          const spots: SpotRef[] = rows.flatMap(r =>
            r.kind === 'ticker' && r.index != null
              ? [{ underlying: r.option.underlying, takenAt: r.takenAt, indexPrice: r.index }]
              : [],
          )
          await insertSpotRefs(tx, spots, source)
          break
        }
        case 'public/get_instruments': {
          const raw = Array.isArray(call.result) ? (call.result as DeribitInstrument[]) : []
          out.records = raw.length
          const rows = raw.map(mapInstrument).filter((r): r is InstrumentRow => r !== null)
          out.skipped = raw.length - rows.length
          const fresh = await upsertInstruments(sql, rows, source) // exact expiries overwrite the 08:00 guess
          for (const [k, v] of fresh) ids.set(k, v)
          out.instruments = fresh.size
          break
        }
        default:
          log.warn({ method: call.method }, 'ingest: unknown method, skipped')
          out.skipped = 1
      }
      return out
    },
  }

  async function instrumentIds(rows: InstrumentRow[]): Promise<Map<string, number>> {
    const missing = rows.filter(r => !ids.has(r.option.venueName))
    if (missing.length) for (const [k, v] of await upsertInstruments(sql, missing, source)) ids.set(k, v)
    return ids
  }
}

/** Deribit trade ids are numbers, or a currency prefix and a number (ETH-123): order by the number. */
export function tradeIdOrder(id: string): bigint {
  const m = /(\d+)$/.exec(id)
  return m ? BigInt(m[1]!) : -1n
}
