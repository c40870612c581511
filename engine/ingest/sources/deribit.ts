// The live source: polls VENUE_A's public API on a schedule, per currency:
//   trades      public/get_last_trades_by_currency, kind=option, sorting=asc, paged by trade id:
//               the first run starts at now - INGEST_BACKFILL_MINUTES (start_timestamp); after that
//               every page starts at the stored cursor (start_id, inclusive, so the cursor's own trade
//               is dropped), and pages follow while has_more. Trades and the cursor commit together,
//               so a crash between pages neither loses nor doubles a trade.
//   summaries   public/get_book_summary_by_currency every INGEST_SNAPSHOT_INTERVAL_MS
//   tickers     public/ticker for INGEST_TICKERS_PER_CYCLE instruments per cycle, round robin
//   instruments public/get_instruments at start and hourly (exact expiration timestamps)
// A failed step is logged, counted in ingest_state and backs the whole cycle off.
import type { Logger } from 'pino'
import type { Sql } from '../../store/db.js'
import type { Config } from '../../config.js'
import type { DeribitClient } from '../deribit/client.js'
import type {
  DeribitTradesPage,
  DeribitBookSummary,
  DeribitTicker,
  DeribitInstrument,
  RecordedCall,
} from '../../../workers/options/deribit/types.js'
import type { Sink } from '../sink.js'
import { tradeIdOrder } from '../sink.js'
import { readCursor, recordSuccess, recordError } from '../../store/options.js'
import { backoffDelay, sleep } from '../backoff.js'
import type { IngestMetrics } from '../metrics.js'

const INSTRUMENTS_REFRESH_MS = 3_600_000
const MAX_PAGES_PER_CYCLE = 200

export interface DeribitSourceOptions {
  sql: Sql
  log: Logger
  config: Pick<
    Config,
    | 'INGEST_CURRENCIES'
    | 'INGEST_INTERVAL_MS'
    | 'INGEST_SNAPSHOT_INTERVAL_MS'
    | 'INGEST_TICKERS_PER_CYCLE'
    | 'INGEST_TRADES_PAGE'
    | 'INGEST_BACKFILL_MINUTES'
    | 'INGEST_BACKOFF_MAX_MS'
  >
  client: DeribitClient
  sink: Sink
  metrics: IngestMetrics
  signal: AbortSignal
}

interface CurrencyState {
  instrumentsAt: number
  summaryAt: number
  tickerNames: string[]
  tickerNext: number
}

export async function runDeribitSource(o: DeribitSourceOptions): Promise<void> {
  const currencies = o.config.INGEST_CURRENCIES.split(',')
  const state = new Map<string, CurrencyState>(
    currencies.map(c => [c, { instrumentsAt: 0, summaryAt: 0, tickerNames: [], tickerNext: 0 }]),
  )
  let failures = 0
  while (!o.signal.aborted) {
    let failed = false
    for (const currency of currencies) {
      if (o.signal.aborted) break
      try {
        await cycle(o, currency, state.get(currency)!)
        o.metrics.success(currency)
      } catch (e) {
        failed = true
        const error = (e as Error).message
        o.log.warn({ currency, err: error, failures: failures + 1 }, 'ingest: deribit poll failed')
        o.metrics.error(currency)
        await recordError(o.sql, { source: 'deribit', currency, error }).catch((err: unknown) =>
          o.log.error({ err }, 'ingest: cannot record the error'),
        )
      }
    }
    failures = failed ? failures + 1 : 0
    const delay = backoffDelay(o.config.INGEST_INTERVAL_MS, failures, o.config.INGEST_BACKOFF_MAX_MS)
    if (failed) o.log.info({ retryInMs: delay, failures }, 'ingest: backing off')
    await sleep(delay, o.signal)
  }
}

async function cycle(o: DeribitSourceOptions, currency: string, st: CurrencyState): Promise<void> {
  const now = Date.now()
  if (now - st.instrumentsAt >= INSTRUMENTS_REFRESH_MS) {
    const params = { currency, kind: 'option', expired: false }
    const result = await o.client.call<DeribitInstrument[]>('public/get_instruments', params)
    const a = await o.sink.apply({ method: 'public/get_instruments', params, result })
    st.tickerNames = result.map(i => i.instrument_name)
    st.instrumentsAt = now
    o.log.info({ currency, instruments: a.instruments }, 'ingest: instruments refreshed')
  }
  const { trades, lastTradeTs } = await pollTrades(o, currency)
  if (now - st.summaryAt >= o.config.INGEST_SNAPSHOT_INTERVAL_MS) {
    const params = { currency, kind: 'option' }
    const result = await o.client.call<DeribitBookSummary[]>('public/get_book_summary_by_currency', params)
    await o.sink.apply({ method: 'public/get_book_summary_by_currency', params, result })
    st.summaryAt = now
  }
  for (let i = 0; i < o.config.INGEST_TICKERS_PER_CYCLE && st.tickerNames.length; i++) {
    const instrument_name = st.tickerNames[st.tickerNext++ % st.tickerNames.length]!
    const params = { instrument_name }
    const result = await o.client.call<DeribitTicker>('public/ticker', params)
    await o.sink.apply({ method: 'public/ticker', params, result })
  }
  await recordSuccess(o.sql, { source: 'deribit', currency, trades: 0, lastTradeTs })
  if (lastTradeTs) o.metrics.lastTrade(currency, lastTradeTs)
  o.log.debug({ currency, trades }, 'ingest: cycle done')
}

/** Pages forward from the cursor until has_more is false; returns how many trades were new. */
async function pollTrades(
  o: DeribitSourceOptions,
  currency: string,
): Promise<{ trades: number; lastTradeTs: Date | null }> {
  let cursor = await readCursor(o.sql, 'deribit', currency)
  const backfill = cursor === null
  let total = 0,
    pages = 0
  let lastTradeTs: Date | null = null
  while (pages < MAX_PAGES_PER_CYCLE && !o.signal.aborted) {
    const params: Record<string, string | number | boolean> = {
      currency,
      kind: 'option',
      count: o.config.INGEST_TRADES_PAGE,
      sorting: 'asc',
    }
    if (cursor === null) params.start_timestamp = Date.now() - o.config.INGEST_BACKFILL_MINUTES * 60_000
    else params.start_id = cursor
    const page = await o.client.call<DeribitTradesPage>('public/get_last_trades_by_currency', params)
    pages++
    const after = cursor === null ? -1n : tradeIdOrder(cursor)
    const fresh = (Array.isArray(page?.trades) ? page.trades : []).filter(t => tradeIdOrder(String(t.trade_id)) > after)
    // the cursor follows every id the venue sent, readable or not, so an unreadable trade cannot stall paging
    const pageMax = fresh.reduce<string | null>(
      (m, t) => (m === null || tradeIdOrder(String(t.trade_id)) > tradeIdOrder(m) ? String(t.trade_id) : m),
      null,
    )
    const call: RecordedCall = {
      method: 'public/get_last_trades_by_currency',
      params,
      result: { ...page, trades: fresh },
    }
    const applied = await o.sql.begin(async tx => {
      const a = await o.sink.apply(call, tx as unknown as Sql)
      await recordSuccess(tx as unknown as Sql, {
        source: 'deribit',
        currency,
        cursor: pageMax ?? cursor,
        trades: a.newTrades,
        lastTradeTs: a.lastTradeTs,
      })
      return a
    })
    total += applied.newTrades
    if (applied.lastTradeTs && (!lastTradeTs || applied.lastTradeTs > lastTradeTs)) lastTradeTs = applied.lastTradeTs
    o.metrics.trades(currency, applied.newTrades)
    if (applied.skipped) o.log.warn({ currency, skipped: applied.skipped }, 'ingest: unreadable trades skipped')
    if (backfill || pages > 1 || page.has_more) {
      o.log.info(
        {
          currency,
          page: pages,
          newTrades: applied.newTrades,
          total,
          upTo: applied.lastTradeTs?.toISOString() ?? null,
          hasMore: !!page.has_more,
        },
        backfill ? 'ingest: backfill progress' : 'ingest: catching up',
      )
    }
    if (pageMax) cursor = pageMax
    if (!page.has_more || fresh.length === 0) break // nothing new on a has_more page would loop forever
  }
  return { trades: total, lastTradeTs }
}
