// Rows to the spec's resources: Ladder strike, Expiry summary, Strike detail. (A Trade, the tape's
// item, is written by PostgreSQL with the trade: migrations 060 and 092.) Every figure goes out at
// VENUE_A's precision through the one rule in workers/options/precision.ts; counts are integers and
// strikes are not rounded: a strike is read from the instrument's name, so it carries no noise, and
// it is the key a client sends back to /options/strike-detail.
import type { LadderRow, ExpiryRow, StrikeDetailRow, LastTradeRow } from '../store/options.js'
import { figure } from '../../workers/options/precision.js'

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null)

export function ladderStrikeView(r: LadderRow) {
  return {
    instrument: r.name,
    strike: r.strike,
    isCall: r.is_call,
    bid: figure('price', r.bid),
    bidSize: figure('size', r.bid_size),
    ask: figure('price', r.ask),
    askSize: figure('size', r.ask_size),
    mark: figure('price', r.mark),
    index: figure('index', r.index_price),
    iv: figure('iv', r.iv),
    delta: figure('greek', r.delta ?? r.ticker_delta), // a book summary has none: its latest ticker's
    oi: figure('size', r.open_interest),
    volume24h: figure('size', r.volume_24h),
    lastTrade: lastTrade(r, true),
    snapshotAt: iso(r.taken_at),
  }
}

export function expiryView(r: ExpiryRow, spot: number | null) {
  return {
    expiry: r.expiry_ts.toISOString(),
    instruments: r.instruments,
    calls: r.calls,
    puts: r.puts,
    tradeCount24h: r.trade_count_24h,
    spot: figure('index', spot),
    totalOI: figure('size', r.total_oi),
    totalVolume24h: figure('size', r.total_volume_24h),
    lastSnapshot: iso(r.last_snapshot),
  }
}

export const EMPTY_STRIKE_DETAIL = {
  instrument: null,
  bid: null,
  ask: null,
  mark: null,
  iv: null,
  lastTrade: null,
  volume1h: null,
  tradeCount1h: null,
  spot: null,
} as const

export function strikeDetailView(r: StrikeDetailRow, spot: number | null) {
  return {
    instrument: r.name,
    bid: figure('price', r.bid),
    ask: figure('price', r.ask),
    mark: figure('price', r.mark),
    iv: figure('iv', r.iv),
    lastTrade: lastTrade(r, false),
    volume1h: figure('size', r.volume_1h),
    tradeCount1h: r.trade_count_1h,
    spot: figure('index', spot),
  }
}

function lastTrade(r: LastTradeRow, withDirection: boolean) {
  if (r.trade_ts == null) return null
  const price = figure('price', r.trade_price),
    amount = figure('size', r.trade_amount)
  return withDirection
    ? { price, amount, direction: r.trade_side, tradedAt: r.trade_ts.toISOString() }
    : { price, amount, tradedAt: r.trade_ts.toISOString() }
}
