// The mapping rules from VENUE_A (Deribit) records, one rule a test.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseOptionName, parseExpiryDay } from '../../workers/options/deribit/instrumentName.js'
import {
  mapTrade,
  mapTicker,
  mapSummary,
  mapInstrument,
  liquidityGuess,
  premiumUsd,
} from '../../workers/options/deribit/map.js'
import { tradeIdOrder } from '../../engine/ingest/sink.js'
import { backoffDelay } from '../../engine/ingest/backoff.js'
import type { DeribitTrade } from '../../workers/options/deribit/types.js'

test('instrument names become <UNDERLYING>-<YYYYMMDD>-<strike>-<C|P>, expiring 08:00 UTC', () => {
  const o = parseOptionName('BTC-27DEC24-60000-C')!
  assert.equal(o.name, 'BTC-20241227-60000-C')
  assert.deepEqual(
    [o.underlying, o.expiryDay, o.strike, o.isCall, o.pricedInUnderlying],
    ['BTC', '20241227', 60000, true, true],
  )
  assert.equal(o.expiryTs.toISOString(), '2024-12-27T08:00:00.000Z')
  assert.equal(parseOptionName('ETH-3JAN25-3500-P')!.name, 'ETH-20250103-3500-P')
  const linear = parseOptionName('XRP_USDC-30MAY25-2d25-C')!
  assert.deepEqual([linear.name, linear.strike, linear.pricedInUnderlying], ['XRP_USDC-20250530-2.25-C', 2.25, false])
})

test('names that are not options are refused', () => {
  for (const n of [
    'BTC-PERPETUAL',
    'BTC-27DEC24',
    'BTC-31FEB25-60000-C',
    'BTC-27XYZ24-60000-C',
    'BTC-27DEC24-60000-X',
    'BTC-CS-27DEC24-100000_105000',
    '',
    'btc-27DEC24-1-C',
  ]) {
    assert.equal(parseOptionName(n), null, n)
  }
})

test('expiry parameters must name a real date', () => {
  assert.equal(parseExpiryDay('20240229')!.date.toISOString(), '2024-02-29T08:00:00.000Z')
  for (const s of ['20230229', '20241301', '2024-12-27', '241227', '20241227x'])
    assert.equal(parseExpiryDay(s), null, s)
})

test('liquidity guess: Block RFQ id → RFQ; other block → LIKELY_RFQ; combo leg → UNKNOWN; else LIKELY_CLOB', () => {
  assert.equal(liquidityGuess({ block_rfq_id: 7, block_trade_id: '1' }), 'RFQ')
  assert.equal(liquidityGuess({ block_rfq_id: 7 }), 'RFQ')
  assert.equal(liquidityGuess({ block_trade_id: '1' }), 'LIKELY_RFQ')
  assert.equal(liquidityGuess({ block_trade_id: '1', combo_id: 'X' }), 'LIKELY_RFQ')
  assert.equal(liquidityGuess({ combo_id: 'BTC-CS-27DEC24-100000_105000' }), 'UNKNOWN')
  assert.equal(liquidityGuess({}), 'LIKELY_CLOB')
})

const trade: DeribitTrade = {
  trade_id: '42',
  instrument_name: 'BTC-27DEC24-60000-C',
  price: 0.05,
  amount: 2,
  direction: 'sell',
  index_price: 65000,
  iv: 60,
  mark_price: 0.049,
  timestamp: 1734688800000,
}

test('a trade: premium_usd = price × amount × index, side from the taker direction, counterparty null', () => {
  const r = mapTrade(trade)!
  assert.equal(r.premiumUsd, 6500)
  assert.equal(r.side, 'sell')
  assert.equal(r.counterparty, null)
  assert.equal(r.spotRef, 65000)
  assert.equal(r.ts.toISOString(), '2024-12-20T10:00:00.000Z')
  assert.equal(mapTrade({ ...trade, index_price: undefined })!.premiumUsd, null) // cannot price without the index
  assert.equal(premiumUsd(parseOptionName('SOL_USDC-27DEC24-200-C')!, 3.5, 10, 190), 35) // linear: already in USD
  // cents by the terminal's rule: a written half goes up (Math.round(1.005 * 100) / 100 gave 1), and no float noise
  assert.equal(premiumUsd(parseOptionName('SOL_USDC-27DEC24-200-C')!, 1.005, 1, 190), 1.01)
  assert.equal(premiumUsd(parseOptionName('BTC-27DEC24-60000-C')!, 0.1 + 0.2, 1, 1), 0.3)
  assert.equal(mapTrade(trade, 1000)!.ts.getTime(), 1734688801000)
})

test('unreadable trades map to null', () => {
  for (const bad of [
    { ...trade, instrument_name: 'BTC-PERPETUAL' },
    { ...trade, direction: 'hold' },
    { ...trade, price: Number.NaN },
    { ...trade, trade_id: '' },
    { ...trade, timestamp: undefined },
  ]) {
    assert.equal(mapTrade(bad as unknown as DeribitTrade), null)
  }
})

test('a ticker: greeks delta, stats volume, mark_iv; an empty side (0 / 0) is null', () => {
  const s = mapTicker({
    instrument_name: 'BTC-27DEC24-60000-P',
    timestamp: 1,
    best_bid_price: 0,
    best_bid_amount: 0,
    best_ask_price: 0.1,
    best_ask_amount: 3,
    mark_price: 0.09,
    index_price: 64000,
    mark_iv: 70,
    open_interest: 5,
    greeks: { delta: -0.4 },
    stats: { volume: 12 },
  })!
  assert.deepEqual(
    { ...s, option: undefined },
    {
      option: undefined,
      kind: 'ticker',
      bid: null,
      bidSize: null,
      ask: 0.1,
      askSize: 3,
      mark: 0.09,
      index: 64000,
      iv: 70,
      delta: -0.4,
      oi: 5,
      volume24h: 12,
      takenAt: new Date(1),
    },
  )
})

test('a book summary: no sizes or delta; the index is the estimated delivery price', () => {
  const s = mapSummary({
    instrument_name: 'BTC-27DEC24-60000-C',
    creation_timestamp: 5,
    bid_price: null,
    ask_price: 0.2,
    mark_price: 0.19,
    mark_iv: 65,
    underlying_price: 66000,
    estimated_delivery_price: 65000,
    open_interest: 9,
    volume: 1,
  })!
  assert.deepEqual(
    [s.bid, s.bidSize, s.ask, s.askSize, s.delta, s.index, s.oi, s.volume24h, s.kind],
    [null, null, 0.2, null, null, 65000, 9, 1, 'summary'],
  )
})

test('get_instruments: expiration_timestamp overrides the 08:00 convention; non-options are skipped', () => {
  const i = mapInstrument({
    instrument_name: 'BTC-27DEC24-60000-C',
    kind: 'option',
    expiration_timestamp: 1735286400123,
  })!
  assert.equal(i.exactExpiry, true)
  assert.equal(i.option.expiryTs.getTime(), 1735286400123)
  assert.equal(mapInstrument({ instrument_name: 'BTC-27DEC24', kind: 'future' }), null)
})

test('trade ids order by their number, with or without a currency prefix', () => {
  assert.ok(tradeIdOrder('ETH-100') > tradeIdOrder('ETH-99'))
  assert.ok(tradeIdOrder('330000010') > tradeIdOrder('330000009'))
})

test('backoff doubles per failure up to the cap, jittered down by at most 20 %: the cap is the longest wait', () => {
  assert.equal(backoffDelay(100, 0, 10_000), 100)
  assert.equal(
    backoffDelay(100, 1, 10_000, () => 0),
    100,
  )
  assert.equal(
    backoffDelay(100, 3, 10_000, () => 0),
    400,
  )
  assert.equal(
    backoffDelay(100, 3, 10_000, () => 0.5),
    360,
  )
  assert.equal(
    backoffDelay(100, 3, 10_000, () => 0.999999),
    320,
  )
  assert.equal(
    backoffDelay(100, 30, 1000, () => 0),
    1000,
  )
  assert.ok(backoffDelay(100, 30, 1000, () => 0.999999) <= 1000, 'INGEST_BACKOFF_MAX_MS is never passed')
})
