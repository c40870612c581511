// The live `deribit` source against a local HTTP server that answers in Deribit's JSON-RPC format:
// backfill by start_timestamp, paging by start_id while has_more, an upstream error mid-way
// (logged, counted, backed off, then resumed from the stored cursor with no gap and no double),
// and later polls picking up only new trades.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { createLogger } from '../../engine/log.js'
import { deribitClient, DeribitError } from '../../engine/ingest/deribit/client.js'
import { createSink } from '../../engine/ingest/sink.js'
import { createIngestMetrics } from '../../engine/ingest/metrics.js'
import { runDeribitSource } from '../../engine/ingest/sources/deribit.js'
import type { DeribitTrade } from '../../workers/options/deribit/types.js'

const NAME = 'BTC-27DEC30-60000-C'
const EXPIRY = Date.UTC(2030, 11, 27, 8)
let db: TestDatabase
let server: http.Server
let base: string
const requests: { method: string; params: Record<string, string> }[] = []
const trades: DeribitTrade[] = []
let tradeCalls = 0
const FAILING_CALL = 2 // the second trades request gets an upstream error

const mk = (id: number, agoMs: number, extra: Partial<DeribitTrade> = {}): DeribitTrade => ({
  trade_id: String(id),
  trade_seq: id,
  instrument_name: NAME,
  price: 0.01 * id,
  amount: id,
  direction: id % 2 ? 'buy' : 'sell',
  index_price: 60_000 + id,
  iv: 50,
  mark_price: 0.01 * id,
  timestamp: Date.now() - agoMs,
  ...extra,
})

before(async () => {
  db = await testDatabase('ing')
  for (let i = 1; i <= 5; i++)
    trades.push(
      mk(
        100 + i,
        600_000 - i * 1000,
        i === 2 ? { block_trade_id: 'B1' } : i === 3 ? { block_trade_id: 'B2', block_rfq_id: 9 } : {},
      ),
    )
  trades.push(mk(1, 7_200_000)) // older than the backfill window: never fetched
  server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x')
    const method = u.pathname.replace('/api/v2/', '')
    const params = Object.fromEntries(u.searchParams)
    requests.push({ method, params })
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    const rpc = (result: unknown) => send(200, { jsonrpc: '2.0', result, usIn: 1, usOut: 2, usDiff: 1, testnet: false })
    switch (method) {
      case 'public/get_instruments':
        return rpc([
          {
            instrument_name: NAME,
            kind: 'option',
            expiration_timestamp: EXPIRY,
            strike: 60000,
            option_type: 'call',
            base_currency: 'BTC',
          },
        ])
      case 'public/get_last_trades_by_currency': {
        if (++tradeCalls === FAILING_CALL) {
          return send(429, { jsonrpc: '2.0', error: { message: 'too_many_requests', code: 10028 }, testnet: false })
        }
        const count = Number(params.count)
        const sorted = [...trades].sort((a, b) => Number(a.trade_id) - Number(b.trade_id))
        const from =
          params.start_id !== undefined
            ? sorted.filter(t => Number(t.trade_id) >= Number(params.start_id)) // inclusive, like Deribit
            : sorted.filter(t => t.timestamp >= Number(params.start_timestamp))
        return rpc({ trades: from.slice(0, count), has_more: from.length > count })
      }
      case 'public/get_book_summary_by_currency':
        return rpc([
          {
            instrument_name: NAME,
            creation_timestamp: Date.now(),
            bid_price: 0.02,
            ask_price: 0.03,
            mark_price: 0.025,
            mark_iv: 50,
            estimated_delivery_price: 60_100,
            open_interest: 10,
            volume: 3,
          },
        ])
      case 'public/ticker':
        return rpc({
          instrument_name: NAME,
          timestamp: Date.now(),
          best_bid_price: 0.021,
          best_bid_amount: 4,
          best_ask_price: 0.029,
          best_ask_amount: 5,
          mark_price: 0.025,
          index_price: 60_200,
          mark_iv: 51,
          open_interest: 10,
          greeks: { delta: 0.3 },
          stats: { volume: 3 },
        })
      default:
        return send(400, { jsonrpc: '2.0', error: { message: 'Method not found', code: -32601 } })
    }
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`
})
after(async () => {
  if (server) await new Promise(r => server.close(r))
  await db?.drop()
})

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return
    await new Promise(r => setTimeout(r, 25))
  }
  assert.fail(`timed out waiting for ${what}`)
}

const tradeRefs = async () =>
  (await db.sql<{ trade_ref: string }[]>`select trade_ref from option_trades order by trade_ref`).map(r => r.trade_ref)

test('backfill pages by trade id, survives an upstream error, then follows new trades only', async () => {
  const stop = new AbortController()
  const config = {
    INGEST_CURRENCIES: 'BTC',
    INGEST_INTERVAL_MS: 30,
    INGEST_SNAPSHOT_INTERVAL_MS: 60_000,
    INGEST_TICKERS_PER_CYCLE: 1,
    INGEST_TRADES_PAGE: 2,
    INGEST_BACKFILL_MINUTES: 60,
    INGEST_BACKOFF_MAX_MS: 100,
  }
  const log = createLogger('silent')
  // page 1 answers, page 2 fails: the first cycle stores trades 101-102 and the cursor with them
  const running = runDeribitSource({
    sql: db.sql,
    log,
    config,
    client: deribitClient({ baseUrl: base, timeoutMs: 2000 }),
    sink: createSink({ sql: db.sql, source: 'deribit', log }),
    metrics: createIngestMetrics('deribit'),
    signal: stop.signal,
  })
  try {
    await until(async () => (await tradeRefs()).length === 5, 'the backfill')
    assert.deepEqual(await tradeRefs(), ['101', '102', '103', '104', '105'])
    const [state] =
      await db.sql`select cursor, errors_total, last_error, last_success_at, last_trade_ts from ingest_state where source = 'deribit' and currency = 'BTC'`
    assert.equal(state!.cursor, '105')
    assert.equal(Number(state!.errors_total), 1)
    assert.match(state!.last_error, /get_last_trades_by_currency: error 10028: too_many_requests/)
    assert.ok(state!.last_success_at instanceof Date)
    const tradeReqs = requests.filter(r => r.method === 'public/get_last_trades_by_currency').map(r => r.params)
    assert.ok(
      tradeReqs[0]!.start_timestamp && !tradeReqs[0]!.start_id,
      'the first page starts from the backfill window',
    )
    assert.deepEqual(
      tradeReqs.slice(0, 5).map(p => [p.start_id ?? null, p.sorting, p.kind, p.currency, p.count]),
      [
        [null, 'asc', 'option', 'BTC', '2'], // 101, 102 (has_more)
        ['102', 'asc', 'option', 'BTC', '2'], // upstream error: cycle fails, cursor stays at 102
        ['102', 'asc', 'option', 'BTC', '2'], // after backoff: 102 (dropped: inclusive), 103
        ['103', 'asc', 'option', 'BTC', '2'], // 103 (dropped), 104
        ['104', 'asc', 'option', 'BTC', '2'], // 104 (dropped), 105
      ],
    )
    // mapping through the live path: block trades and the Block RFQ trade
    const rows =
      await db.sql`select trade_ref, liquidity_guess, instrument, expiry_ts, source from option_trades order by trade_ref`
    assert.deepEqual(
      rows.map(r => r.liquidity_guess),
      ['LIKELY_CLOB', 'LIKELY_RFQ', 'RFQ', 'LIKELY_CLOB', 'LIKELY_CLOB'],
    )
    assert.equal(rows[0]!.instrument, 'BTC-20301227-60000-C')
    assert.equal((rows[0]!.expiry_ts as Date).getTime(), EXPIRY)
    assert.ok(rows.every(r => r.source === 'deribit'))
    // snapshots from the book summary and a ticker with greeks (they follow the trades in a cycle)
    await until(
      async () => (await db.sql`select 1 from option_snapshots where kind = 'ticker'`).length > 0,
      'a ticker snapshot',
    )
    const snaps = await db.sql`select kind, delta, bid_size from option_snapshots order by kind`
    assert.ok(snaps.some(s => s.kind === 'summary' && s.delta === null))
    assert.ok(snaps.some(s => s.kind === 'ticker' && s.delta === 0.3 && s.bid_size === 4))

    trades.push(mk(106, 1000), mk(107, 500))
    await until(async () => (await tradeRefs()).length === 7, 'the new trades')
    assert.deepEqual(await tradeRefs(), ['101', '102', '103', '104', '105', '106', '107'])
    await until(
      async () => (await db.sql`select cursor from ingest_state where source = 'deribit'`)[0]!.cursor === '107',
      'the cursor',
    )
    const after = requests.filter(r => r.method === 'public/get_last_trades_by_currency').map(r => r.params.start_id)
    assert.ok(
      after.slice(5).every(id => id !== undefined),
      'no second backfill: every later page starts at the cursor',
    )
  } finally {
    stop.abort()
    await running
  }
  const [{ n }] = (await db.sql`select count(*)::int as n from option_trades`) as unknown as [{ n: number }]
  assert.equal(n, 7) // no doubles after all those overlapping pages
})

test('the client turns every upstream failure into a DeribitError naming the method', async () => {
  const c = deribitClient({ baseUrl: base, timeoutMs: 2000 })
  await assert.rejects(
    c.call('public/nope', {}),
    (e: unknown) =>
      e instanceof DeribitError && e.code === -32601 && /public\/nope: error -32601: Method not found/.test(e.message),
  )
  const dead = deribitClient({ baseUrl: 'http://127.0.0.1:9/api/v2', timeoutMs: 500 })
  await assert.rejects(
    dead.call('public/ticker', { instrument_name: NAME }),
    (e: unknown) => e instanceof DeribitError && /request failed/.test(e.message),
  )
  const html = http.createServer((_q, r) => {
    r.writeHead(502)
    r.end('<html>bad gateway</html>')
  })
  await new Promise<void>(r => html.listen(0, '127.0.0.1', r))
  try {
    const c2 = deribitClient({ baseUrl: `http://127.0.0.1:${(html.address() as AddressInfo).port}`, timeoutMs: 2000 })
    await assert.rejects(
      c2.call('public/ticker', {}),
      (e: unknown) => e instanceof DeribitError && e.httpStatus === 502 && /not JSON/.test(e.message),
    )
  } finally {
    await new Promise(r => html.close(r))
  }
})
