// Rows to the spec's resources: Ladder strike, Expiry summary, Strike detail. (A Trade, the tape's
// item, is written by PostgreSQL with the trade: migration 060.)
import type { LadderRow, ExpiryRow, StrikeDetailRow, LastTradeRow } from '../store/options.js'

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null)

export function ladderStrikeView(r: LadderRow) {
  return {
    instrument: r.name, strike: r.strike, isCall: r.is_call,
    bid: r.bid, bidSize: r.bid_size, ask: r.ask, askSize: r.ask_size, mark: r.mark, index: r.index_price, iv: r.iv, delta: r.delta,
    oi: r.open_interest, volume24h: r.volume_24h,
    lastTrade: lastTrade(r, true),
    snapshotAt: iso(r.taken_at),
  }
}

export function expiryView(r: ExpiryRow, spot: number | null) {
  return {
    expiry: r.expiry_ts.toISOString(), instruments: r.instruments, calls: r.calls, puts: r.puts, tradeCount24h: r.trade_count_24h,
    spot, totalOI: r.total_oi, totalVolume24h: r.total_volume_24h, lastSnapshot: iso(r.last_snapshot),
  }
}

export const EMPTY_STRIKE_DETAIL = {
  instrument: null, bid: null, ask: null, mark: null, iv: null, lastTrade: null, volume1h: null, tradeCount1h: null, spot: null,
} as const

export function strikeDetailView(r: StrikeDetailRow, spot: number | null) {
  return {
    instrument: r.name, bid: r.bid, ask: r.ask, mark: r.mark, iv: r.iv, lastTrade: lastTrade(r, false),
    volume1h: r.volume_1h, tradeCount1h: r.trade_count_1h, spot,
  }
}

function lastTrade(r: LastTradeRow, withDirection: boolean) {
  if (r.trade_ts == null) return null
  return withDirection
    ? { price: r.trade_price, amount: r.trade_amount, direction: r.trade_side, tradedAt: r.trade_ts.toISOString() }
    : { price: r.trade_price, amount: r.trade_amount, tradedAt: r.trade_ts.toISOString() }
}
