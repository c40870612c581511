// The mapping rules from Deribit (VENUE_A) records to our rows. Pure functions: the live, replay
// and synthetic sources all go through them, and the tests pin every rule here.
import type { DeribitTrade, DeribitTicker, DeribitBookSummary, DeribitInstrument } from './types.js'
import { parseOptionName, type OptionName } from './instrumentName.js'
import { figure } from '../precision.js'

export type LiquidityGuess = 'RFQ' | 'LIKELY_RFQ' | 'LIKELY_CLOB' | 'UNKNOWN'

export interface InstrumentRow {
  venue: 'VENUE_A'
  option: OptionName
  /** true when expiryTs came from get_instruments' expiration_timestamp (it then overrides the 08:00 convention) */
  exactExpiry: boolean
}

export interface TradeRow {
  venue: 'VENUE_A'
  tradeRef: string
  option: OptionName
  price: number
  amount: number
  premiumUsd: number | null
  iv: number | null
  spotRef: number | null
  markPrice: number | null
  side: 'buy' | 'sell'
  /** Deribit does not disclose counterparties */
  counterparty: null
  liquidityGuess: LiquidityGuess
  blockTradeId: string | null
  blockRfqId: string | null
  ts: Date
}

export interface SnapshotRow {
  option: OptionName
  kind: 'ticker' | 'summary'
  bid: number | null
  bidSize: number | null
  ask: number | null
  askSize: number | null
  mark: number | null
  index: number | null
  iv: number | null
  delta: number | null
  oi: number | null
  volume24h: number | null
  takenAt: Date
}

/**
 * RFQ: the trade carries a Block RFQ id. LIKELY_RFQ: another block trade (negotiated off-book,
 * usually by RFQ). LIKELY_CLOB: an ordinary order-book trade. UNKNOWN: a combo-book leg with no
 * block id, which may have come from either a resting combo order or a negotiated one.
 */
export function liquidityGuess(
  t: Pick<DeribitTrade, 'block_rfq_id' | 'block_trade_id' | 'combo_id' | 'combo_trade_id'>,
): LiquidityGuess {
  if (t.block_rfq_id != null && t.block_rfq_id !== '') return 'RFQ'
  if (t.block_trade_id != null && t.block_trade_id !== '') return 'LIKELY_RFQ'
  if (t.combo_id != null || t.combo_trade_id != null) return 'UNKNOWN'
  return 'LIKELY_CLOB'
}

/**
 * price × amount × index for inverse options (priced in the underlying); price × amount for linear ones;
 * cents, by the terminal's one rounding rule (workers/options/precision.ts), so 1.005 is 1.01 here too.
 */
export function premiumUsd(
  option: OptionName,
  price: number,
  amount: number,
  indexPrice: number | null,
): number | null {
  if (!option.pricedInUnderlying) return figure('usd', price * amount)
  return indexPrice == null ? null : figure('usd', price * amount * indexPrice)
}

/** null when the record is not an option trade we can read (the caller counts and logs it). */
export function mapTrade(t: DeribitTrade, shiftMs = 0): TradeRow | null {
  if (!t || typeof t !== 'object') return null
  const option = typeof t.instrument_name === 'string' ? parseOptionName(t.instrument_name) : null
  const ref = typeof t.trade_id === 'number' ? String(t.trade_id) : t.trade_id
  if (!option || typeof ref !== 'string' || !ref) return null
  if (!finite(t.price) || !finite(t.amount) || !finite(t.timestamp)) return null
  if (t.direction !== 'buy' && t.direction !== 'sell') return null
  const index = num(t.index_price)
  return {
    venue: 'VENUE_A',
    tradeRef: ref,
    option,
    price: t.price,
    amount: t.amount,
    premiumUsd: premiumUsd(option, t.price, t.amount, index),
    iv: num(t.iv),
    spotRef: index,
    markPrice: num(t.mark_price),
    side: t.direction,
    counterparty: null,
    liquidityGuess: liquidityGuess(t),
    blockTradeId: t.block_trade_id == null ? null : String(t.block_trade_id),
    blockRfqId: t.block_rfq_id == null ? null : String(t.block_rfq_id),
    ts: new Date(t.timestamp + shiftMs),
  }
}

/** Deribit reports an empty side as price 0 / amount 0: that is no bid (or ask), so null. */
export function mapTicker(t: DeribitTicker, shiftMs = 0): SnapshotRow | null {
  const option = t && typeof t.instrument_name === 'string' ? parseOptionName(t.instrument_name) : null
  if (!option || !finite(t.timestamp)) return null
  const bidSize = num(t.best_bid_amount),
    askSize = num(t.best_ask_amount)
  const hasBid = bidSize != null && bidSize > 0,
    hasAsk = askSize != null && askSize > 0
  return {
    option,
    kind: 'ticker',
    bid: hasBid ? num(t.best_bid_price) : null,
    bidSize: hasBid ? bidSize : null,
    ask: hasAsk ? num(t.best_ask_price) : null,
    askSize: hasAsk ? askSize : null,
    mark: num(t.mark_price),
    index: num(t.index_price),
    iv: num(t.mark_iv),
    delta: num(t.greeks?.delta),
    oi: num(t.open_interest),
    volume24h: num(t.stats?.volume),
    takenAt: new Date(t.timestamp + shiftMs),
  }
}

/** A book summary has no sizes and no greeks: those stay null. Its index is the estimated delivery price. */
export function mapSummary(s: DeribitBookSummary, shiftMs = 0): SnapshotRow | null {
  const option = s && typeof s.instrument_name === 'string' ? parseOptionName(s.instrument_name) : null
  if (!option || !finite(s.creation_timestamp)) return null
  const bid = num(s.bid_price),
    ask = num(s.ask_price)
  return {
    option,
    kind: 'summary',
    bid: bid != null && bid > 0 ? bid : null,
    bidSize: null,
    ask: ask != null && ask > 0 ? ask : null,
    askSize: null,
    mark: num(s.mark_price),
    index: num(s.estimated_delivery_price),
    iv: num(s.mark_iv),
    delta: null,
    oi: num(s.open_interest),
    volume24h: num(s.volume),
    takenAt: new Date(s.creation_timestamp + shiftMs),
  }
}

export function mapInstrument(i: DeribitInstrument): InstrumentRow | null {
  if (!i || typeof i.instrument_name !== 'string' || (i.kind !== undefined && i.kind !== 'option')) return null
  const option = parseOptionName(i.instrument_name)
  if (!option) return null
  const exact = finite(i.expiration_timestamp)
  return {
    venue: 'VENUE_A',
    exactExpiry: exact,
    option: exact ? { ...option, expiryTs: new Date(i.expiration_timestamp!) } : option,
  }
}

function finite(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x)
}

function num(x: unknown): number | null {
  return finite(x) ? x : null
}
