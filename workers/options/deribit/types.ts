// The slices of Deribit's public JSON-RPC API v2 (VENUE_A) we read, with Deribit's own field
// names, so a line of code can be checked against the API documentation by search. Everything
// is optional that the documentation marks optional or that old recordings may lack.

/** public/get_last_trades_by_currency → result */
export interface DeribitTradesPage {
  trades: DeribitTrade[]
  has_more?: boolean
}

export interface DeribitTrade {
  trade_id: string
  trade_seq?: number
  instrument_name: string
  /** in the underlying for inverse options (BTC, ETH); in USDC for linear ones (SOL_USDC) */
  price: number
  /** contracts */
  amount: number
  /** the taker's side */
  direction: 'buy' | 'sell'
  index_price?: number
  mark_price?: number
  iv?: number
  timestamp: number
  tick_direction?: number
  block_trade_id?: string
  block_rfq_id?: number | string
  block_trade_leg_count?: number
  combo_id?: string
  combo_trade_id?: number | string
  liquidation?: string
}

/** public/ticker → result */
export interface DeribitTicker {
  instrument_name: string
  timestamp: number
  best_bid_price?: number | null
  best_bid_amount?: number | null
  best_ask_price?: number | null
  best_ask_amount?: number | null
  mark_price?: number | null
  index_price?: number | null
  underlying_price?: number | null
  mark_iv?: number | null
  open_interest?: number | null
  greeks?: { delta?: number; gamma?: number; vega?: number; theta?: number; rho?: number }
  stats?: {
    volume?: number | null
    volume_usd?: number | null
    high?: number | null
    low?: number | null
    price_change?: number | null
  }
  state?: string
}

/** public/get_book_summary_by_currency → result[] */
export interface DeribitBookSummary {
  instrument_name: string
  creation_timestamp: number
  bid_price?: number | null
  ask_price?: number | null
  mid_price?: number | null
  mark_price?: number | null
  mark_iv?: number | null
  underlying_price?: number | null
  underlying_index?: string
  estimated_delivery_price?: number | null
  open_interest?: number | null
  volume?: number | null
  volume_usd?: number | null
  last?: number | null
  base_currency?: string
  quote_currency?: string
}

/** public/get_instruments → result[] */
export interface DeribitInstrument {
  instrument_name: string
  kind?: string
  expiration_timestamp?: number
  strike?: number
  option_type?: 'call' | 'put'
  base_currency?: string
  is_active?: boolean
}

export type DeribitMethod =
  | 'public/get_last_trades_by_currency'
  | 'public/get_book_summary_by_currency'
  | 'public/ticker'
  | 'public/get_instruments'

/** One call and its answer: a line of a recording (INGEST_FILE), or what the live source just fetched. */
export interface RecordedCall {
  /** a DeribitMethod when the live source recorded it; a hand-made recording may name any other */
  method: string
  params?: Record<string, unknown>
  result: unknown
}
