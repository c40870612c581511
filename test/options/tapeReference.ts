// The tape as the spec's Trade resource, shaped row by row in Node: the reference the PostgreSQL-built
// reply (engine/store/options.ts tapeBody) is held equal to. Written straight from the option_trades
// table (the count included), independent of the engine's filter and counting code. Its figures go
// through the Node side of the precision rule, so the comparison also holds migration 092's SQL side to it.
import type { Sql } from '../../engine/store/db.js'
import type { TapeFilter } from '../../engine/store/options.js'
import { figure } from '../../workers/options/precision.js'

export interface TapeRow {
  venue: string
  trade_ref: string
  instrument: string
  underlying: string
  is_call: boolean
  strike: number
  expiry_ts: Date
  price: number
  amount: number
  premium_usd: number | null
  iv: number | null
  spot_ref: number | null
  side: string
  counterparty: string | null
  liquidity_guess: string
  ts: Date
}

/** One page, newest first (ts, then id), and the number of trades matching the filters. */
export async function tape(sql: Sql, f: TapeFilter): Promise<{ rows: TapeRow[]; total: number }> {
  const where = sql`where (${f.underlying}::text is null or underlying = ${f.underlying})
    and (${f.liqClass}::int is null or liq_class = ${f.liqClass}) and (${f.venue}::text is null or venue = ${f.venue})`
  const rows = await sql<TapeRow[]>`
    select venue, trade_ref, instrument, underlying, is_call, strike, expiry_ts, price, amount, premium_usd, iv, spot_ref, side,
      counterparty, liquidity_guess, ts
    from option_trades ${where} order by ts desc, id desc limit ${f.limit} offset ${f.offset}`
  const [c] = await sql`select count(*)::int as n from option_trades ${where}`
  return { rows: [...rows], total: c!.n as number }
}

export function tradeView(r: TapeRow) {
  return {
    venue: r.venue,
    trade_ref: r.trade_ref,
    instrument: r.instrument,
    underlying: r.underlying,
    is_call: r.is_call,
    strike_display: r.strike,
    expiry: r.expiry_ts.toISOString(),
    price: figure('price', r.price),
    quantity_display: figure('size', r.amount),
    premium_usd: figure('usd', r.premium_usd),
    iv: figure('iv', r.iv),
    spot_ref: figure('index', r.spot_ref),
    side: r.side,
    counterparty: r.counterparty,
    venue_a_liquidity_guess: r.liquidity_guess,
    ts: r.ts.toISOString(),
  }
}
