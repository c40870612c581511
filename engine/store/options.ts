// Options market data in PostgreSQL: the ingestion's writes (batched through jsonb_to_recordset,
// idempotent by the tables' unique keys) and the terminal's reads (tape, ladder, venues, strike
// detail), each one query shaped for an index in migrations/040_options.sql.
import type { Sql } from './db.js'
import type { InstrumentRow, TradeRow, SnapshotRow } from '../../workers/options/deribit/map.js'

export type IngestSource = 'deribit' | 'replay' | 'synthetic'
export type LiqClass = 1 | 2 | 3
export const LIQ_CLASS = { rfq: 1, clob: 2, unknown: 3 } as const

/** venue_name → instrument id, for the instruments given (inserted when new). */
export async function upsertInstruments(sql: Sql, rows: InstrumentRow[], source: IngestSource): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  if (!rows.length) return ids
  const unique = new Map(rows.map(r => [r.option.venueName, r]))
  const json = (list: InstrumentRow[]) => sql.json(list.map(r => ({
    venue: r.venue, name: r.option.name, venue_name: r.option.venueName, underlying: r.option.underlying,
    expiry_day: r.option.expiryDay, expiry_ts: r.option.expiryTs.toISOString(), strike: r.option.strike, is_call: r.option.isCall, source,
  })))
  const exact = [...unique.values()].filter(r => r.exactExpiry)
  const guessed = [...unique.values()].filter(r => !r.exactExpiry)
  const cols = sql`r(venue text, name text, venue_name text, underlying text, expiry_day date, expiry_ts timestamptz, strike float8, is_call bool, source text)`
  if (exact.length) await sql`
    insert into option_instruments (venue, name, venue_name, underlying, expiry_day, expiry_ts, strike, is_call, source)
    select venue, name, venue_name, underlying, expiry_day, expiry_ts, strike, is_call, source from jsonb_to_recordset(${json(exact)}::jsonb) as ${cols}
    on conflict (venue, venue_name) do update set expiry_ts = excluded.expiry_ts`
  if (guessed.length) await sql`
    insert into option_instruments (venue, name, venue_name, underlying, expiry_day, expiry_ts, strike, is_call, source)
    select venue, name, venue_name, underlying, expiry_day, expiry_ts, strike, is_call, source from jsonb_to_recordset(${json(guessed)}::jsonb) as ${cols}
    on conflict do nothing`
  const names = [...unique.keys()]
  const found = await sql<{ id: number; venue_name: string }[]>`
    select id, venue_name from option_instruments where venue = 'VENUE_A' and venue_name = any(${names}::text[])`
  for (const f of found) ids.set(f.venue_name, f.id)
  return ids
}

/** Inserts the trades not seen before; returns how many were new. */
export async function insertTrades(sql: Sql, rows: (TradeRow & { instrumentId: number })[], source: IngestSource): Promise<number> {
  if (!rows.length) return 0
  const data = sql.json(rows.map(t => ({
    venue: t.venue, trade_ref: t.tradeRef, instrument_id: t.instrumentId, price: t.price, amount: t.amount,
    premium_usd: t.premiumUsd, iv: t.iv, spot_ref: t.spotRef, mark_price: t.markPrice, side: t.side, counterparty: t.counterparty,
    liquidity_guess: t.liquidityGuess, block_trade_id: t.blockTradeId, block_rfq_id: t.blockRfqId, ts: t.ts.toISOString(),
  })))
  const r = await sql`
    insert into option_trades (venue, trade_ref, instrument_id, instrument, underlying, is_call, strike, expiry_ts, price, amount,
      premium_usd, iv, spot_ref, mark_price, side, counterparty, liquidity_guess, block_trade_id, block_rfq_id, source, ts)
    select r.venue, r.trade_ref, i.id, i.name, i.underlying, i.is_call, i.strike, i.expiry_ts, r.price, r.amount,
      r.premium_usd, r.iv, r.spot_ref, r.mark_price, r.side, r.counterparty, r.liquidity_guess, r.block_trade_id, r.block_rfq_id, ${source}, r.ts
    from jsonb_to_recordset(${data}::jsonb) as r(venue text, trade_ref text, instrument_id int, price float8, amount float8,
      premium_usd float8, iv float8, spot_ref float8, mark_price float8, side text, counterparty text, liquidity_guess text,
      block_trade_id text, block_rfq_id text, ts timestamptz)
    join option_instruments i on i.id = r.instrument_id
    on conflict (venue, trade_ref) do nothing`
  return r.count
}

export async function insertSnapshots(sql: Sql, rows: (SnapshotRow & { instrumentId: number })[], source: IngestSource): Promise<number> {
  if (!rows.length) return 0
  const data = sql.json(rows.map(s => ({
    instrument_id: s.instrumentId, kind: s.kind, bid: s.bid, bid_size: s.bidSize, ask: s.ask, ask_size: s.askSize, mark: s.mark,
    index_price: s.index, iv: s.iv, delta: s.delta, open_interest: s.oi, volume_24h: s.volume24h, taken_at: s.takenAt.toISOString(),
  })))
  const r = await sql`
    insert into option_snapshots (instrument_id, kind, bid, bid_size, ask, ask_size, mark, index_price, iv, delta, open_interest, volume_24h, taken_at, source)
    select instrument_id, kind, bid, bid_size, ask, ask_size, mark, index_price, iv, delta, open_interest, volume_24h, taken_at, ${source}
    from jsonb_to_recordset(${data}::jsonb) as r(instrument_id int, kind text, bid float8, bid_size float8, ask float8, ask_size float8,
      mark float8, index_price float8, iv float8, delta float8, open_interest float8, volume_24h float8, taken_at timestamptz)
    on conflict (instrument_id, kind, taken_at) do nothing`
  return r.count
}

export interface SpotRef { underlying: string; takenAt: Date; indexPrice: number }

export async function insertSpotRefs(sql: Sql, refs: SpotRef[], source: IngestSource): Promise<void> {
  if (!refs.length) return
  const unique = new Map(refs.map(r => [`${r.underlying}|${r.takenAt.getTime()}`, r]))
  const data = sql.json([...unique.values()].map(r => ({ underlying: r.underlying, taken_at: r.takenAt.toISOString(), index_price: r.indexPrice })))
  await sql`
    insert into option_spot_refs (underlying, taken_at, index_price, source)
    select underlying, taken_at, index_price, ${source} from jsonb_to_recordset(${data}::jsonb) as r(underlying text, taken_at timestamptz, index_price float8)
    on conflict do nothing`
}

// ---- ingestion state ----

export interface IngestState {
  source: string
  currency: string
  cursor: string | null
  lastSuccessAt: Date | null
  lastTradeTs: Date | null
  lastError: string | null
  lastErrorAt: Date | null
  errorsTotal: number
  tradesTotal: number
}

export async function readCursor(sql: Sql, source: IngestSource, currency: string): Promise<string | null> {
  const [row] = await sql<{ cursor: string | null }[]>`select cursor from ingest_state where source = ${source} and currency = ${currency}`
  return row?.cursor ?? null
}

/** A successful step: the cursor moves only with the trades it covers (same transaction when given one). */
export async function recordSuccess(sql: Sql, s: { source: IngestSource; currency: string; cursor?: string | null; trades: number; lastTradeTs?: Date | null }): Promise<void> {
  await sql`
    insert into ingest_state (source, currency, cursor, last_success_at, last_trade_ts, trades_total)
    values (${s.source}, ${s.currency}, ${s.cursor ?? null}, now(), ${s.lastTradeTs ?? null}, ${s.trades})
    on conflict (source, currency) do update set
      cursor = coalesce(excluded.cursor, ingest_state.cursor),
      last_success_at = now(),
      last_trade_ts = greatest(ingest_state.last_trade_ts, excluded.last_trade_ts),
      trades_total = ingest_state.trades_total + excluded.trades_total`
}

export async function recordError(sql: Sql, s: { source: IngestSource; currency: string; error: string }): Promise<void> {
  await sql`
    insert into ingest_state (source, currency, last_error, last_error_at, errors_total)
    values (${s.source}, ${s.currency}, ${s.error.slice(0, 500)}, now(), 1)
    on conflict (source, currency) do update set last_error = excluded.last_error, last_error_at = now(),
      errors_total = ingest_state.errors_total + 1`
}

export async function ingestStates(sql: Sql): Promise<IngestState[]> {
  const rows = await sql<{ source: string; currency: string; cursor: string | null; last_success_at: Date | null; last_trade_ts: Date | null;
    last_error: string | null; last_error_at: Date | null; errors_total: number; trades_total: number }[]>`
    select source, currency, cursor, last_success_at, last_trade_ts, last_error, last_error_at, errors_total, trades_total
    from ingest_state order by source, currency`
  return rows.map(r => ({ source: r.source, currency: r.currency, cursor: r.cursor, lastSuccessAt: r.last_success_at, lastTradeTs: r.last_trade_ts,
    lastError: r.last_error, lastErrorAt: r.last_error_at, errorsTotal: Number(r.errors_total), tradesTotal: Number(r.trades_total) }))
}

// ---- reads for the terminal ----

export interface TapeFilter {
  underlying: string | null
  liqClass: LiqClass | null
  venue: 'VENUE_A' | 'VENUE_B' | null
  limit: number
  offset: number
}

/**
 * The whole tape reply, `{"trades":[...],"count":N}`, as UTF-8 bytes: one page newest first (ts, then
 * id, so equal timestamps page stably) and the exact total matching, each trade's document having
 * been written with the trade (migrations 060 and 092: compact JSON, figures at VENUE_A's precision,
 * rounded by option_round, the SQL side of workers/options/precision.ts). PostgreSQL concatenates the
 * page and Node passes the bytes on without decoding them: shaping 500 rows per request, or even
 * holding 500 strings, made the garbage collector the tape's p99 (above 10 ms).
 * test/options/tapeReference.ts shapes the same page row by row, as the reference.
 */
export async function tapeBody(sql: Sql, f: TapeFilter): Promise<Buffer> {
  const [row] = await sql`
    with page as (select doc, ts, id from option_trades ${tapeWhere(sql, f)} order by ts desc, id desc limit ${f.limit} offset ${f.offset})
    select '{"trades":[' || coalesce((select string_agg(doc, ',' order by ts desc, id desc) from page), '') || '],"count":'
      || (select coalesce(sum(n), 0)::int8 from option_trade_counts ${tapeWhere(sql, f)}) || '}' as body`.raw()
  return row![0] as Buffer
}

function tapeWhere(sql: Sql, f: TapeFilter) {
  return sql`
    where true ${f.underlying === null ? sql`` : sql`and underlying = ${f.underlying}`} ${f.liqClass === null ? sql`` : sql`and liq_class = ${f.liqClass}`}
    ${f.venue === null ? sql`` : sql`and venue = ${f.venue}`}`
}

export interface QuoteRow {
  bid: number | null; bid_size: number | null; ask: number | null; ask_size: number | null; mark: number | null; index_price: number | null
  iv: number | null; delta: number | null; open_interest: number | null; volume_24h: number | null; taken_at: Date | null
}

export interface LastTradeRow { trade_price: number | null; trade_amount: number | null; trade_side: string | null; trade_ts: Date | null }

export interface LadderRow extends QuoteRow, LastTradeRow {
  name: string; strike: number; is_call: boolean; expiry_ts: Date
  /** delta of the latest ticker that has one: book summaries carry no greeks */
  ticker_delta: number | null
}

// The latest snapshot of an instrument (a ticker wins a tie with a book summary taken at the same moment)
// and its latest trade: both index lookups per instrument.
const latestSnapshot = (sql: Sql) => sql`
  left join lateral (select bid, bid_size, ask, ask_size, mark, index_price, iv, delta, open_interest, volume_24h, taken_at
    from option_snapshots s where s.instrument_id = i.id order by s.taken_at desc, s.kind desc limit 1) s on true`
const latestTrade = (sql: Sql) => sql`
  left join lateral (select price as trade_price, amount as trade_amount, side as trade_side, ts as trade_ts
    from option_trades t where t.instrument_id = i.id order by t.ts desc limit 1) t on true`

/**
 * Every VENUE_A instrument of one expiry, strikes ascending, calls before puts at equal strike. The latest
 * snapshot is often a book summary (one call reads them all, every snapshot interval), which has no
 * greeks: its delta comes from the instrument's latest ticker instead, so a strike shows delta whenever
 * one was read.
 */
export async function ladder(sql: Sql, underlying: string, expiryDay: string): Promise<LadderRow[]> {
  return sql<LadderRow[]>`
    select i.name, i.strike, i.is_call, i.expiry_ts, s.*, t.*, g.ticker_delta
    from option_instruments i ${latestSnapshot(sql)} ${latestTrade(sql)}
    left join lateral (select g.delta as ticker_delta from option_snapshots g
      where g.instrument_id = i.id and g.kind = 'ticker' and g.delta is not null order by g.taken_at desc limit 1) g on true
    where i.venue = 'VENUE_A' and i.underlying = ${underlying} and i.expiry_day = to_date(${expiryDay}::text, 'YYYYMMDD')
    order by i.strike asc, i.is_call desc`
}

export interface ExpiryRow {
  expiry_ts: Date; instruments: number; calls: number; puts: number; trade_count_24h: number
  total_oi: number | null; total_volume_24h: number | null; last_snapshot: Date | null
}

/** Per-expiry summaries of an underlying's VENUE_A chain, nearest expiry first. */
export async function expirySummaries(sql: Sql, underlying: string): Promise<ExpiryRow[]> {
  const rows = await sql<ExpiryRow[]>`
    with inst as (
      select i.id, i.expiry_day, i.expiry_ts, i.is_call, s.open_interest, s.volume_24h, s.taken_at
      from option_instruments i
      left join lateral (select open_interest, volume_24h, taken_at from option_snapshots s
        where s.instrument_id = i.id order by s.taken_at desc, s.kind desc limit 1) s on true
      where i.venue = 'VENUE_A' and i.underlying = ${underlying}
    ), traded as (
      select i.expiry_day, count(*)::int8 as n
      from option_trades t join option_instruments i on i.id = t.instrument_id
      where t.underlying = ${underlying} and t.venue = 'VENUE_A' and t.ts > now() - interval '24 hours'
      group by i.expiry_day
    )
    select min(inst.expiry_ts) as expiry_ts, count(*)::int8 as instruments, count(*) filter (where is_call)::int8 as calls,
      count(*) filter (where not is_call)::int8 as puts, coalesce(max(traded.n), 0)::int8 as trade_count_24h,
      sum(open_interest) as total_oi, sum(volume_24h) as total_volume_24h, max(taken_at) as last_snapshot
    from inst left join traded on traded.expiry_day = inst.expiry_day
    group by inst.expiry_day order by inst.expiry_day`
  return rows.map(r => ({ ...r, instruments: Number(r.instruments), calls: Number(r.calls), puts: Number(r.puts), trade_count_24h: Number(r.trade_count_24h) }))
}

export async function latestSpot(sql: Sql, underlying: string): Promise<{ index_price: number; taken_at: Date } | null> {
  const [row] = await sql<{ index_price: number; taken_at: Date }[]>`
    select index_price, taken_at from option_spot_refs where underlying = ${underlying} order by taken_at desc limit 1`
  return row ?? null
}

/** Whether the own venue (VENUE_B) has recorded any trade for this underlying. */
export async function ownVenueActive(sql: Sql, underlying: string): Promise<boolean> {
  const [row] = await sql<{ n: number }[]>`
    select coalesce(sum(n), 0)::int8 as n from option_trade_counts where venue = 'VENUE_B' and underlying = ${underlying}`
  return Number(row!.n) > 0
}

export interface StrikeDetailRow extends QuoteRow, LastTradeRow { id: number; name: string; volume_1h: number; trade_count_1h: number }

export async function strikeDetail(sql: Sql, q: { underlying: string; expiryDay: string; strike: number; isCall: boolean }): Promise<StrikeDetailRow | null> {
  const [row] = await sql<StrikeDetailRow[]>`
    select i.id, i.name, s.*, t.*, h.volume_1h, h.trade_count_1h
    from option_instruments i ${latestSnapshot(sql)} ${latestTrade(sql)}
    cross join lateral (select coalesce(sum(amount), 0)::float8 as volume_1h, count(*)::int8 as trade_count_1h
      from option_trades h where h.instrument_id = i.id and h.ts > now() - interval '1 hour') h
    where i.venue = 'VENUE_A' and i.underlying = ${q.underlying} and i.expiry_day = to_date(${q.expiryDay}::text, 'YYYYMMDD')
      and i.strike = ${q.strike} and i.is_call = ${q.isCall}`
  return row ? { ...row, trade_count_1h: Number(row.trade_count_1h) } : null
}

/**
 * Each underlying with trades: its trade count (from the maintained counts, not a scan) and its last
 * trade's time (one walk of the (underlying, ts) index each).
 */
export async function underlyings(sql: Sql): Promise<{ underlying: string; tradeCount: number; lastTradeAt: string | null }[]> {
  const rows = await sql`
    select c.underlying, sum(c.n)::int8 as trades,
      (select t.ts from option_trades t where t.underlying = c.underlying order by t.ts desc, t.id desc limit 1) as last_ts
    from option_trade_counts c group by c.underlying having sum(c.n) > 0 order by c.underlying`
  return rows.map(r => ({ underlying: r.underlying as string, tradeCount: Number(r.trades), lastTradeAt: r.last_ts ? (r.last_ts as Date).toISOString() : null }))
}
