// The synthetic source: a simulated market, labelled so it is never mistaken for real data.
// Its underlyings are SIM<currency> (SIMBTC, SIMETH), its trade ids SIM-<n>, its rows carry
// source 'synthetic'. It speaks Deribit's format (the same sink and mapping rules as the live
// source): a spot path (geometric Brownian motion), a volatility smile, Black-Scholes prices in
// the underlying (as VENUE_A quotes inverse options), Poisson trade arrivals of which some are
// block trades and some Block RFQ trades, tickers with greeks and book summaries.
// Trade ids continue across runs from the stored cursor (ingest_state), because trades are unique by
// id: a restarted market that counted from SIM-1 again had its new trades dropped as duplicates, and
// the trade count stood still. Each batch and its count commit together, as the live source's pages do.
import type { Logger } from 'pino'
import type { Sql } from '../../store/db.js'
import type { DeribitTrade, DeribitTicker, DeribitBookSummary, DeribitInstrument, RecordedCall } from '../../../workers/options/deribit/types.js'
import { deribitDate } from '../../../workers/options/deribit/instrumentName.js'
import { createSink, tradeIdOrder } from '../sink.js'
import { readCursor, recordSuccess } from '../../store/options.js'
import { sleep } from '../backoff.js'
import type { IngestMetrics } from '../metrics.js'

const YEAR_MS = 365 * 24 * 3_600_000
const SPOT0: Record<string, number> = { BTC: 60_000, ETH: 3_000, SOL: 150 }

interface Chain { underlying: string; currency: string; spot: number; step: number; instruments: SynthInstrument[] }
interface SynthInstrument { name: string; expiry: number; strike: number; isCall: boolean }

export class SyntheticMarket {
  readonly chains: Chain[]
  private nextTradeId = 1
  private blockId = 1
  private rfqId = 1
  private readonly rand: () => number

  constructor(currencies: string[], startMs: number, { seed = 7, expiries = 6, strikesPerExpiry = 15 } = {}) {
    this.rand = mulberry32(seed)
    this.chains = currencies.map(currency => {
      const spot = SPOT0[currency] ?? 100
      const step = niceStep(spot * 0.035)
      const instruments: SynthInstrument[] = []
      for (const expiry of fridays(startMs, expiries)) {
        for (let k = 0; k < strikesPerExpiry; k++) {
          const strike = Math.round(spot * (0.75 + (0.5 * k) / (strikesPerExpiry - 1)) / step) * step
          for (const isCall of [true, false]) {
            instruments.push({ name: `SIM${currency}-${deribitDate(new Date(expiry))}-${strike}-${isCall ? 'C' : 'P'}`, expiry, strike, isCall })
          }
        }
      }
      return { underlying: `SIM${currency}`, currency, spot, step, instruments }
    })
  }

  /** The next trade id follows `lastId` (the numeric part of the newest id a previous run stored). */
  resumeAfter(lastId: number): void {
    this.nextTradeId = Math.max(this.nextTradeId, lastId + 1)
  }

  instrumentsCall(chain: Chain): RecordedCall {
    const result: DeribitInstrument[] = chain.instruments.map(i => ({
      instrument_name: i.name, kind: 'option', expiration_timestamp: i.expiry, strike: i.strike, option_type: i.isCall ? 'call' : 'put',
      base_currency: chain.underlying, is_active: true,
    }))
    return { method: 'public/get_instruments', params: { currency: chain.underlying, kind: 'option' }, result }
  }

  /** `n` trades spread evenly over [fromMs, toMs), the spot walking between them. */
  trades(chain: Chain, n: number, fromMs: number, toMs: number): DeribitTrade[] {
    const out: DeribitTrade[] = []
    const dt = (toMs - fromMs) / Math.max(1, n)
    for (let k = 0; k < n; k++) {
      const ts = Math.floor(fromMs + k * dt + this.rand() * dt)
      this.walk(chain, dt)
      const live = chain.instruments.filter(i => i.expiry > ts)
      const inst = live.length ? live[Math.floor(this.rand() * live.length)]! : chain.instruments[chain.instruments.length - 1]!
      const q = this.quote(chain, inst, ts)
      const kind = this.rand()
      const block = kind < 0.15, rfq = kind < 0.05, combo = !block && kind < 0.2
      const t: DeribitTrade = {
        trade_id: `SIM-${this.nextTradeId++}`, trade_seq: k + 1, instrument_name: inst.name, timestamp: ts,
        price: round(Math.max(0.0001, q.mark * (1 + (this.rand() - 0.5) * 0.04)), 4),
        amount: block ? round(25 + this.rand() * 475, 1) : round(0.1 + this.rand() * 4.9, 1),
        direction: this.rand() < 0.5 ? 'buy' : 'sell', index_price: round(chain.spot, 2), mark_price: round(q.mark, 6), iv: round(q.iv, 2),
        tick_direction: 0,
      }
      if (block) t.block_trade_id = `SIMBLK-${this.blockId++}`
      if (rfq) t.block_rfq_id = this.rfqId++
      if (combo) { t.combo_id = `${chain.underlying}-SIMCOMBO`; t.combo_trade_id = this.nextTradeId }
      out.push(t)
    }
    return out
  }

  ticker(chain: Chain, inst: SynthInstrument, ts: number): DeribitTicker {
    const q = this.quote(chain, inst, ts)
    const half = Math.max(0.0001, q.mark * 0.02)
    return {
      instrument_name: inst.name, timestamp: ts, state: 'open',
      best_bid_price: round(Math.max(0.0001, q.mark - half), 4), best_bid_amount: round(1 + this.rand() * 50, 1),
      best_ask_price: round(q.mark + half, 4), best_ask_amount: round(1 + this.rand() * 50, 1),
      mark_price: round(q.mark, 6), index_price: round(chain.spot, 2), underlying_price: round(chain.spot, 2), mark_iv: round(q.iv, 2),
      open_interest: round(this.rand() * 2000, 1), greeks: { delta: round(q.delta, 5) }, stats: { volume: round(this.rand() * 500, 1) },
    }
  }

  summaries(chain: Chain, ts: number): DeribitBookSummary[] {
    return chain.instruments.filter(i => i.expiry > ts).map(inst => {
      const t = this.ticker(chain, inst, ts)
      return { instrument_name: inst.name, creation_timestamp: ts, bid_price: t.best_bid_price, ask_price: t.best_ask_price,
        mark_price: t.mark_price, mark_iv: t.mark_iv, underlying_price: t.underlying_price, estimated_delivery_price: t.index_price,
        open_interest: t.open_interest, volume: t.stats!.volume, base_currency: chain.underlying, quote_currency: chain.underlying }
    })
  }

  private walk(chain: Chain, dtMs: number): void {
    const sigma = 0.6, dt = Math.max(0, dtMs) / YEAR_MS
    chain.spot *= Math.exp(-0.5 * sigma * sigma * dt + sigma * Math.sqrt(dt) * gauss(this.rand))
  }

  /** Black-Scholes on a smile (atm 55 %, skewed and curved in log-moneyness), price in the underlying. */
  private quote(chain: Chain, inst: SynthInstrument, ts: number): { mark: number; iv: number; delta: number } {
    const tau = Math.max(1 / 365 / 24, (inst.expiry - ts) / YEAR_MS)
    const m = Math.log(inst.strike / chain.spot)
    const iv = 55 - 8 * m + 40 * m * m
    const s = iv / 100
    const d1 = (-m + 0.5 * s * s * tau) / (s * Math.sqrt(tau)), d2 = d1 - s * Math.sqrt(tau)
    const usd = inst.isCall ? chain.spot * cdf(d1) - inst.strike * cdf(d2) : inst.strike * cdf(-d2) - chain.spot * cdf(-d1)
    return { mark: Math.max(usd, 0) / chain.spot, iv, delta: inst.isCall ? cdf(d1) : cdf(d1) - 1 }
  }
}

export interface SyntheticOptions {
  sql: Sql
  log: Logger
  currencies: string[]
  intervalMs: number
  tradesPerCycle: number
  snapshotIntervalMs: number
  tickersPerCycle: number
  backfillMinutes: number
  metrics: IngestMetrics
  signal: AbortSignal
}

export async function runSynthetic(o: SyntheticOptions): Promise<void> {
  const start = Date.now() - o.backfillMinutes * 60_000
  const market = new SyntheticMarket(o.currencies, start, { seed: start % 100_000 })
  const sink = createSink({ sql: o.sql, source: 'synthetic', log: o.log })
  o.log.warn({ underlyings: market.chains.map(c => c.underlying) }, 'ingest: SYNTHETIC market data (simulated, not real): underlyings SIM*, trade ids SIM-*')
  for (const chain of market.chains) {
    await sink.apply(market.instrumentsCall(chain))
    const cursor = await readCursor(o.sql, 'synthetic', chain.underlying)
    if (cursor) market.resumeAfter(Number(tradeIdOrder(cursor)))
  }
  let from = start, snapshotAt = 0
  let cycles = 0
  while (!o.signal.aborted) {
    const to = Date.now()
    const backfilling = cycles === 0 && to - from > o.intervalMs
    for (const chain of market.chains) {
      // the first cycle fills the backfill window at the usual trade rate
      const n = backfilling ? Math.max(1, Math.round(o.tradesPerCycle * (to - from) / o.intervalMs)) : poisson(o.tradesPerCycle, Math.random)
      for (let done = 0; done < n; done += 1000) {
        const batch = market.trades(chain, Math.min(1000, n - done), from + (to - from) * done / n, from + (to - from) * Math.min(n, done + 1000) / n)
        const call: RecordedCall = { method: 'public/get_last_trades_by_currency', params: { currency: chain.underlying, kind: 'option' }, result: { trades: batch, has_more: false } }
        const a = await o.sql.begin(async tx => {
          const a = await sink.apply(call, tx as unknown as Sql)
          await recordSuccess(tx as unknown as Sql, { source: 'synthetic', currency: chain.underlying, cursor: a.maxTradeId, trades: a.newTrades, lastTradeTs: a.lastTradeTs })
          return a
        })
        o.metrics.trades(chain.underlying, a.newTrades)
        if (a.lastTradeTs) o.metrics.lastTrade(chain.underlying, a.lastTradeTs)
        if (backfilling) o.log.info({ underlying: chain.underlying, done: Math.min(n, done + 1000), of: n }, 'ingest: synthetic backfill progress')
      }
      if (to - snapshotAt >= o.snapshotIntervalMs) await sink.apply({ method: 'public/get_book_summary_by_currency', params: { currency: chain.underlying, kind: 'option' }, result: market.summaries(chain, to) })
      const live = chain.instruments.filter(i => i.expiry > to)
      for (let k = 0; k < o.tickersPerCycle && live.length; k++) {
        const inst = live[Math.floor(Math.random() * live.length)]!
        await sink.apply({ method: 'public/ticker', params: { instrument_name: inst.name }, result: market.ticker(chain, inst, to) })
      }
      o.metrics.success(chain.underlying)
    }
    if (to - snapshotAt >= o.snapshotIntervalMs) snapshotAt = to
    from = to
    cycles++
    await sleep(o.intervalMs, o.signal)
  }
}

function fridays(fromMs: number, count: number): number[] {
  const out: number[] = []
  const d = new Date(fromMs)
  let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 8)
  while (out.length < count) {
    t += 86_400_000
    if (new Date(t).getUTCDay() === 5 && t - fromMs > 2 * 86_400_000) out.push(t)
  }
  return out
}

function niceStep(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x))
  return [1, 2, 5, 10].map(k => k * p).find(s => s >= x) ?? 10 * p
}

function round(x: number, dp: number): number {
  const f = 10 ** dp
  return Math.round(x * f) / f
}

/** Abramowitz-Stegun 7.1.26 through erf: plenty for a simulated market. */
function cdf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x) / Math.SQRT2)
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x / 2)
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y)
}

function gauss(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
}

function poisson(lambda: number, rand: () => number): number {
  let k = 0, p = Math.exp(-lambda), s = p
  const u = rand()
  while (u > s && k < lambda * 10) { k++; p *= lambda / k; s += p }
  return k
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
