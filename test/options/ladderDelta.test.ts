// The ladder's delta survives a newer book summary: summaries (no greeks) of every instrument arrive each
// snapshot interval, tickers (with delta) a few instruments per cycle, so the latest snapshot of most
// strikes is a summary. The ladder takes its prices from that summary and its delta from the latest ticker.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { createSink } from '../../engine/ingest/sink.js'
import { createLogger } from '../../engine/log.js'
import { get } from './fixture.js'

let t: TestEngine
const T0 = Date.UTC(2030, 0, 2, 12)
const NAME = 'BTC-28JUN30-100000-C'

before(async () => {
  t = await startTestEngine()
  const sink = createSink({ sql: t.db.sql, source: 'replay', log: createLogger('silent') })
  const ticker = (ts: number, delta: number, mark: number) =>
    sink.apply({
      method: 'public/ticker',
      params: { instrument_name: NAME },
      result: {
        instrument_name: NAME,
        timestamp: ts,
        state: 'open',
        best_bid_price: mark - 0.001,
        best_bid_amount: 5,
        best_ask_price: mark + 0.001,
        best_ask_amount: 5,
        mark_price: mark,
        index_price: 97_000,
        underlying_price: 97_000,
        mark_iv: 55,
        open_interest: 100,
        greeks: { delta },
        stats: { volume: 10 },
      },
    })
  await ticker(T0, 0.41, 0.05)
  await ticker(T0 + 10_000, 0.43, 0.051)
  await sink.apply({
    method: 'public/get_book_summary_by_currency',
    params: { currency: 'BTC', kind: 'option' },
    result: [
      {
        instrument_name: NAME,
        creation_timestamp: T0 + 60_000,
        bid_price: 0.049,
        ask_price: 0.053,
        mark_price: 0.052,
        mark_iv: 56,
        estimated_delivery_price: 97_100,
        open_interest: 101,
        volume: 11,
        base_currency: 'BTC',
        quote_currency: 'BTC',
      },
    ],
  })
})
after(() => t?.stop())

test("a strike whose latest snapshot is a book summary has its latest ticker's delta, and the summary's prices", async () => {
  const r = await get(t.terminal, '/options/ladder?underlying=BTC&expiry=20300628')
  assert.equal(r.status, 200, JSON.stringify(r.body))
  const [s] = r.body.strikes
  assert.equal(s.instrument, 'BTC-20300628-100000-C')
  assert.equal(s.delta, 0.43) // the newer of the two tickers
  assert.equal(s.mark, 0.052) // the summary: newest
  assert.equal(s.iv, 56)
  assert.equal(s.bidSize, null) // a summary has no sizes, and none are borrowed
  assert.equal(s.snapshotAt, new Date(T0 + 60_000).toISOString())
})
