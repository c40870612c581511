// The synthetic source: labelled (SIM* underlyings, SIM-* trade ids, source 'synthetic'), in
// Deribit's format through the same mapping, with block, Block RFQ and combo trades in the mix.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { createLogger } from '../../engine/log.js'
import { createIngestMetrics } from '../../engine/ingest/metrics.js'
import { runSynthetic, SyntheticMarket } from '../../engine/ingest/sources/synthetic.js'
import { parseOptionName } from '../../workers/options/deribit/instrumentName.js'
import { figure } from '../../workers/options/precision.js'

let db: TestDatabase
before(async () => {
  db = await testDatabase('syn')
})
after(async () => {
  await db?.drop()
})

test('the market speaks Deribit: parseable names, prices in the underlying, deltas in range', () => {
  const m = new SyntheticMarket(['BTC'], Date.UTC(2025, 0, 1), { seed: 1 })
  const chain = m.chains[0]!
  assert.equal(chain.underlying, 'SIMBTC')
  for (const i of chain.instruments) assert.ok(parseOptionName(i.name), i.name)
  const trades = m.trades(chain, 2000, Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 2))
  assert.ok(trades.every(t => t.trade_id.startsWith('SIM-') && t.price > 0 && t.price < 1 && t.amount > 0))
  assert.ok(
    trades.some(t => t.block_rfq_id !== undefined) &&
      trades.some(t => t.block_trade_id !== undefined && t.block_rfq_id === undefined) &&
      trades.some(t => t.combo_id !== undefined) &&
      trades.some(t => t.block_trade_id === undefined && t.combo_id === undefined),
  )
  const tk = m.ticker(chain, chain.instruments[0]!, Date.UTC(2025, 0, 1))
  assert.ok(tk.greeks!.delta! > 0 && tk.greeks!.delta! <= 1) // first instrument is a call
  assert.ok(tk.best_bid_price! < tk.best_ask_price!)
})

test('a run stores labelled data: SIM underlyings and ids, source synthetic, all four liquidity guesses', async () => {
  const stop = new AbortController()
  const running = runSynthetic({
    sql: db.sql,
    log: createLogger('silent'),
    currencies: ['BTC'],
    intervalMs: 1000,
    tradesPerCycle: 20,
    snapshotIntervalMs: 60_000,
    tickersPerCycle: 3,
    backfillMinutes: 1,
    metrics: createIngestMetrics('synthetic'),
    signal: stop.signal,
  })
  try {
    for (let i = 0; i < 400; i++) {
      const [{ n }] =
        (await db.sql`select count(*)::int as n from option_snapshots where kind = 'ticker'`) as unknown as [
          { n: number },
        ]
      if (n >= 3) break
      await new Promise(r => setTimeout(r, 25))
    }
  } finally {
    stop.abort()
    await running
  }
  const trades =
    await db.sql`select trade_ref, underlying, source, liquidity_guess, premium_usd, price, amount, spot_ref from option_trades`
  assert.ok(trades.length >= 1000, String(trades.length)) // the 1-minute backfill at 20 per second
  assert.ok(trades.every(t => t.trade_ref.startsWith('SIM-') && t.underlying === 'SIMBTC' && t.source === 'synthetic'))
  assert.deepEqual(
    new Set(trades.map(t => t.liquidity_guess)),
    new Set(['RFQ', 'LIKELY_RFQ', 'LIKELY_CLOB', 'UNKNOWN']),
  )
  for (const t of trades.slice(0, 50)) assert.equal(t.premium_usd, figure('usd', t.price * t.amount * t.spot_ref))
  const [{ summaries }] =
    (await db.sql`select count(*)::int as summaries from option_snapshots where kind = 'summary'`) as unknown as [
      { summaries: number },
    ]
  assert.ok(summaries > 0)
  const [state] = await db.sql`select trades_total from ingest_state where source = 'synthetic' and currency = 'SIMBTC'`
  assert.equal(Number(state!.trades_total), trades.length)
})
