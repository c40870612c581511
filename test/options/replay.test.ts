// The shipped recording replayed through the ingestion into a real PostgreSQL, then every
// endpoint read back field by field: tape (filters, sort, paging, count), ladder, venues, strike
// detail, idempotent re-ingestion, and each error status with its JSON body.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { runReplay } from '../../engine/ingest/sources/replay.js'
import { createLogger } from '../../engine/log.js'
import { OWN_VENUE_NOTE } from '../../engine/options/routes.js'
import { SAMPLE, at, get, close } from './fixture.js'

let t: TestEngine
const log = createLogger('silent')
before(async () => {
  t = await startTestEngine()
  const r = await runReplay({ sql: t.db.sql, log, file: SAMPLE })
  assert.equal(r.bad, 0)
  assert.equal(r.newTrades, 8) // 9 trade records, one repeated across pages
})
after(async () => {
  await t?.stop()
})

const TAPE_ORDER = [
  '330000006',
  '330000005',
  '330000004',
  '330000003',
  'ETH-210000002',
  '330000002',
  'ETH-210000001',
  '330000001',
]

test('tape: every field of a Block RFQ trade, mapped by the rules', async () => {
  const r = await get(t.terminal, '/options/tape')
  assert.equal(r.status, 200)
  assert.deepEqual(Object.keys(r.body), ['trades', 'count'])
  const trade = r.body.trades.find((x: any) => x.trade_ref === '330000003')
  assert.deepEqual(trade, {
    venue: 'VENUE_A',
    trade_ref: '330000003',
    instrument: 'BTC-20250328-100000-C',
    underlying: 'BTC',
    is_call: true,
    strike_display: 100000,
    expiry: '2025-03-28T08:00:00.000Z',
    price: 0.105,
    quantity_display: 25,
    premium_usd: 254677.5, // 0.105 BTC × 25 × 97,020 index
    iv: 57.9,
    spot_ref: 97020,
    side: 'buy',
    counterparty: null,
    venue_a_liquidity_guess: 'RFQ',
    ts: at(120_000),
  })
})

test('tape: liquidity guesses: block → LIKELY_RFQ, combo leg → UNKNOWN, ordinary → LIKELY_CLOB; puts and ETH ids', async () => {
  const { body } = await get(t.terminal, '/options/tape')
  const by = new Map(body.trades.map((x: any) => [x.trade_ref, x]))
  const block: any = by.get('330000002')
  assert.equal(block.venue_a_liquidity_guess, 'LIKELY_RFQ')
  assert.equal(block.is_call, false)
  assert.equal(block.instrument, 'BTC-20241227-95000-P')
  assert.equal(block.side, 'sell')
  assert.equal(block.expiry, '2024-12-27T08:00:00.000Z')
  assert.equal(block.premium_usd, Math.round(0.012 * 50 * 97012.4 * 100) / 100)
  assert.equal((by.get('330000004') as any).venue_a_liquidity_guess, 'UNKNOWN')
  assert.equal((by.get('330000001') as any).venue_a_liquidity_guess, 'LIKELY_CLOB')
  const eth: any = by.get('ETH-210000001')
  assert.equal(eth.instrument, 'ETH-20241227-3500-C')
  assert.equal(eth.underlying, 'ETH')
  assert.equal(eth.premium_usd, Math.round(0.045 * 10 * 3480.5 * 100) / 100)
  for (const x of body.trades) assert.equal(x.counterparty, null)
})

test('tape: sorted by ts descending (equal ts: later ingested first), count is the total matching', async () => {
  const r = await get(t.terminal, '/options/tape')
  assert.deepEqual(
    r.body.trades.map((x: any) => x.trade_ref),
    TAPE_ORDER,
  )
  assert.equal(r.body.count, 8)
  const ts = r.body.trades.map((x: any) => Date.parse(x.ts))
  assert.deepEqual(
    ts,
    [...ts].sort((a, b) => b - a),
  )
})

test('tape: limit and offset page through the same order; count stays the total', async () => {
  const r = await get(t.terminal, '/options/tape?limit=2&offset=1')
  assert.deepEqual(
    r.body.trades.map((x: any) => x.trade_ref),
    TAPE_ORDER.slice(1, 3),
  )
  assert.equal(r.body.count, 8)
  const past = await get(t.terminal, '/options/tape?offset=8')
  assert.deepEqual(past.body, { trades: [], count: 8 })
  const big = await get(t.terminal, '/options/tape?limit=100000') // clamped to 500, not refused
  assert.equal(big.status, 200)
  assert.equal(big.body.trades.length, 8)
})

test('tape: underlying is case-insensitive; liquidityGuess and venue filter, alone and together', async () => {
  const refs = async (q: string) => {
    const r = await get(t.terminal, '/options/tape?' + q)
    assert.equal(r.status, 200, q)
    return { refs: r.body.trades.map((x: any) => x.trade_ref), count: r.body.count }
  }
  assert.deepEqual(await refs('underlying=btc'), { refs: TAPE_ORDER.filter(x => !x.startsWith('ETH')), count: 6 })
  assert.deepEqual(await refs('underlying=Eth'), { refs: ['ETH-210000002', 'ETH-210000001'], count: 2 })
  assert.deepEqual(await refs('liquidityGuess=rfq'), { refs: ['330000003', 'ETH-210000002', '330000002'], count: 3 })
  assert.deepEqual(await refs('liquidityGuess=clob'), {
    refs: ['330000006', '330000005', 'ETH-210000001', '330000001'],
    count: 4,
  })
  assert.deepEqual(await refs('liquidityGuess=unknown'), { refs: ['330000004'], count: 1 })
  assert.deepEqual(await refs('liquidityGuess=all&venue=all'), { refs: TAPE_ORDER, count: 8 })
  assert.deepEqual(await refs('underlying=ETH&liquidityGuess=rfq'), { refs: ['ETH-210000002'], count: 1 })
  assert.deepEqual(await refs('venue=VENUE_A&underlying=BTC&liquidityGuess=rfq&limit=1'), {
    refs: ['330000003'],
    count: 2,
  })
  assert.deepEqual(await refs('venue=VENUE_B'), { refs: [], count: 0 })
  assert.deepEqual(await refs('underlying=DOGE'), { refs: [], count: 0 })
})

test('tape: invalid parameters are 400 with {error}', async () => {
  for (const q of [
    'limit=0',
    'limit=abc',
    'limit=-1',
    'offset=-1',
    'offset=x',
    'liquidityGuess=RFQ',
    'liquidityGuess=block',
    'venue=venue_a',
    'venue=X',
    'underlying=b-t-c',
  ]) {
    const r = await get(t.terminal, '/options/tape?' + q)
    assert.equal(r.status, 400, q)
    assert.equal(typeof r.body.error, 'string', q)
  }
  assert.equal(
    (await get(t.terminal, '/options/tape?limit=0')).body.error,
    'Invalid limit (an integer from 1, max 500)',
  )
  assert.equal(
    (await get(t.terminal, '/options/tape?liquidityGuess=x')).body.error,
    'Invalid liquidityGuess (all, rfq, clob or unknown)',
  )
  assert.equal((await get(t.terminal, '/options/tape?venue=x')).body.error, 'Invalid venue (all, VENUE_A or VENUE_B)')
})

test('ladder: strikes ascending, calls before puts, latest snapshot merged with the last trade', async () => {
  const r = await get(t.terminal, '/options/ladder?underlying=btc&expiry=20241227')
  assert.equal(r.status, 200)
  assert.deepEqual(Object.keys(r.body), ['underlying', 'expiry', 'expiryTs', 'strikes'])
  assert.equal(r.body.underlying, 'BTC')
  assert.equal(r.body.expiry, '20241227')
  assert.equal(r.body.expiryTs, '2024-12-27T08:00:00.000Z')
  assert.deepEqual(
    r.body.strikes.map((s: any) => s.instrument),
    [
      'BTC-20241227-95000-C',
      'BTC-20241227-95000-P',
      'BTC-20241227-100000-C',
      'BTC-20241227-100000-P',
      'BTC-20241227-105000-C',
      'BTC-20241227-105000-P',
    ],
  )
  // the newer of two tickers wins over the older ticker and the book summary
  assert.deepEqual(r.body.strikes[2], {
    instrument: 'BTC-20241227-100000-C',
    strike: 100000,
    isCall: true,
    bid: 0.021,
    bidSize: 12.5,
    ask: 0.0225,
    askSize: 8,
    mark: 0.0218,
    index: 97010.5,
    iv: 54.8,
    delta: 0.48123,
    oi: 1520.3,
    volume24h: 340.2,
    lastTrade: { price: 0.0221, amount: 0.3, direction: 'sell', tradedAt: at(240_000) },
    snapshotAt: at(200_000),
  })
  // an empty ask side (0 / 0 on VENUE_A) is null
  assert.deepEqual(r.body.strikes[3], {
    instrument: 'BTC-20241227-100000-P',
    strike: 100000,
    isCall: false,
    bid: 0.0299,
    bidSize: 3.2,
    ask: null,
    askSize: null,
    mark: 0.0304,
    index: 97011,
    iv: 54.6,
    delta: -0.51877,
    oi: 995,
    volume24h: 151,
    lastTrade: { price: 0.0302, amount: 2, direction: 'buy', tradedAt: at(240_000) },
    snapshotAt: at(210_000),
  })
  // a book summary only: no sizes, no delta; its index is the estimated delivery price; never traded
  assert.deepEqual(r.body.strikes[0], {
    instrument: 'BTC-20241227-95000-C',
    strike: 95000,
    isCall: true,
    bid: 0.0405,
    bidSize: null,
    ask: 0.042,
    askSize: null,
    mark: 0.0411,
    index: 97040,
    iv: 57.5,
    delta: null,
    oi: 820.4,
    volume24h: 120.5,
    lastTrade: null,
    snapshotAt: at(150_000),
  })
  assert.equal(r.body.strikes[5].bid, null) // summary with bid_price null
  assert.equal(r.body.strikes[5].ask, 0.0875)
  assert.deepEqual(r.body.strikes[4].lastTrade, { price: 0.0081, amount: 4, direction: 'buy', tradedAt: at(180_000) })
})

test('ladder: an instrument known only from trades has null quotes and the 08:00 UTC expiry convention', async () => {
  const r = await get(t.terminal, '/options/ladder?underlying=ETH&expiry=20241227')
  assert.equal(r.body.expiryTs, '2024-12-27T08:00:00.000Z')
  assert.deepEqual(
    r.body.strikes.map((s: any) => [s.instrument, s.isCall]),
    [
      ['ETH-20241227-3500-C', true],
      ['ETH-20241227-3500-P', false],
    ],
  )
  const put = r.body.strikes[1]
  for (const k of ['bid', 'bidSize', 'ask', 'askSize', 'mark', 'index', 'iv', 'delta', 'oi', 'volume24h', 'snapshotAt'])
    assert.equal(put[k], null, k)
  assert.deepEqual(put.lastTrade, { price: 0.06, amount: 200, direction: 'sell', tradedAt: at(90_000) })
  assert.equal(r.body.strikes[0].delta, 0.52011)
})

test('ladder: an expiry with no instruments is an empty ladder', async () => {
  const r = await get(t.terminal, '/options/ladder?underlying=BTC&expiry=20250101')
  assert.deepEqual(r.body, { underlying: 'BTC', expiry: '20250101', expiryTs: '2025-01-01T08:00:00.000Z', strikes: [] })
})

test('ladder: missing or invalid parameters are 400', async () => {
  assert.deepEqual((await get(t.terminal, '/options/ladder')).body, {
    error: 'Missing required params: underlying, expiry',
  })
  assert.deepEqual((await get(t.terminal, '/options/ladder?underlying=BTC')).body, {
    error: 'Missing required params: expiry',
  })
  for (const e of ['2024-12-27', '20241332', '20240230', '27DEC24', '2024122']) {
    const r = await get(t.terminal, `/options/ladder?underlying=BTC&expiry=${e}`)
    assert.equal(r.status, 400, e)
    assert.deepEqual(r.body, { error: 'Invalid expiry (YYYYMMDD)' })
  }
})

test('venues: per-expiry summaries from the latest snapshots, spot, and the own venue coming soon', async () => {
  const r = await get(t.terminal, '/options/venues?underlying=btc')
  assert.equal(r.status, 200)
  assert.deepEqual(Object.keys(r.body), ['venue', 'underlying', 'expiries', 'own_venue'])
  assert.equal(r.body.venue, 'VENUE_A')
  assert.equal(r.body.underlying, 'BTC')
  assert.deepEqual(r.body.own_venue, { status: 'coming_soon', note: OWN_VENUE_NOTE })
  assert.equal(r.body.expiries.length, 2)
  const [dec, mar] = r.body.expiries
  assert.deepEqual(Object.keys(dec), [
    'expiry',
    'instruments',
    'calls',
    'puts',
    'tradeCount24h',
    'spot',
    'totalOI',
    'totalVolume24h',
    'lastSnapshot',
  ])
  assert.equal(dec.expiry, '2024-12-27T08:00:00.000Z')
  assert.deepEqual([dec.instruments, dec.calls, dec.puts], [6, 3, 3])
  assert.equal(dec.tradeCount24h, 0) // the recording is from 2024: nothing in the last 24 h
  assert.equal(dec.spot, 97050) // the newest index reference (trades at +240 s)
  assert.ok(close(dec.totalOI, 820.4 + 1310.2 + 1520.3 + 995 + 2400 + 35, 1e-6), String(dec.totalOI))
  assert.ok(close(dec.totalVolume24h, 120.5 + 260 + 340.2 + 151 + 410 + 0, 1e-6), String(dec.totalVolume24h))
  assert.equal(dec.lastSnapshot, at(210_000))
  assert.deepEqual(mar, {
    expiry: '2025-03-28T08:00:00.000Z',
    instruments: 2,
    calls: 1,
    puts: 1,
    tradeCount24h: 0,
    spot: 97050,
    totalOI: 4900,
    totalVolume24h: 97.5,
    lastSnapshot: at(150_000),
  })
})

test('venues: an unknown underlying has no expiries; missing underlying is 400', async () => {
  const r = await get(t.terminal, '/options/venues?underlying=DOGE')
  assert.deepEqual(r.body, {
    venue: 'VENUE_A',
    underlying: 'DOGE',
    expiries: [],
    own_venue: { status: 'coming_soon', note: OWN_VENUE_NOTE },
  })
  assert.deepEqual((await get(t.terminal, '/options/venues')).body, { error: 'Missing required params: underlying' })
  assert.equal((await get(t.terminal, '/options/venues')).status, 400)
})

test('strike detail: latest snapshot, last trade, 1-hour figures, spot', async () => {
  const r = await get(t.terminal, '/options/strike-detail?underlying=BTC&expiry=20241227&strike=100000&isCall=true')
  assert.equal(r.status, 200)
  assert.deepEqual(r.body, {
    instrument: 'BTC-20241227-100000-C',
    bid: 0.021,
    ask: 0.0225,
    mark: 0.0218,
    iv: 54.8,
    lastTrade: { price: 0.0221, amount: 0.3, tradedAt: at(240_000) },
    volume1h: 0,
    tradeCount1h: 0, // the recording's trades are older than an hour
    spot: 97050,
  })
  const dec = await get(
    t.terminal,
    '/options/strike-detail?underlying=btc&expiry=20241227&strike=100000.0&isCall=false',
  )
  assert.equal(dec.body.instrument, 'BTC-20241227-100000-P')
  assert.equal(dec.body.ask, null)
})

test('strike detail: every field null when there is no data for the instrument', async () => {
  for (const q of [
    'underlying=BTC&expiry=20241227&strike=123&isCall=true',
    'underlying=DOGE&expiry=20241227&strike=100000&isCall=true',
    'underlying=BTC&expiry=20241228&strike=100000&isCall=true',
  ]) {
    const r = await get(t.terminal, '/options/strike-detail?' + q.toString())
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, {
      instrument: null,
      bid: null,
      ask: null,
      mark: null,
      iv: null,
      lastTrade: null,
      volume1h: null,
      tradeCount1h: null,
      spot: null,
    })
  }
})

test('strike detail: missing or invalid parameters are 400', async () => {
  assert.deepEqual((await get(t.terminal, '/options/strike-detail?underlying=BTC&strike=1')).body, {
    error: 'Missing required params: expiry, isCall',
  })
  const bad: [string, string][] = [
    ['isCall=yes', 'Invalid isCall (true or false)'],
    ['isCall=TRUE', 'Invalid isCall (true or false)'],
    ['strike=-5', 'Invalid strike (a positive number)'],
    ['strike=abc', 'Invalid strike (a positive number)'],
    ['strike=0', 'Invalid strike (a positive number)'],
  ]
  for (const [over, error] of bad) {
    // a Record, not a literal: a literal's `strike` would be read as String.prototype.strike (deprecated)
    const base: Record<string, string> = { underlying: 'BTC', expiry: '20241227', strike: '100000', isCall: 'true' }
    const q = new URLSearchParams(base)
    const [k, v] = over.split('=') as [string, string]
    q.set(k, v)
    const r = await get(t.terminal, '/options/strike-detail?' + q.toString())
    assert.equal(r.status, 400, over)
    assert.deepEqual(r.body, { error }, over)
  }
})

test('re-ingesting the same recording changes nothing', async () => {
  const counts = async () =>
    (
      await t.db
        .sql`select (select count(*) from option_trades)::int as trades, (select count(*) from option_snapshots)::int as snaps,
    (select count(*) from option_instruments)::int as inst, (select sum(n) from option_trade_counts)::int as counted`
    )[0]
  const before = await counts()
  assert.deepEqual(before, { trades: 8, snaps: 12, inst: 10, counted: 8 })
  const again = await runReplay({ sql: t.db.sql, log, file: SAMPLE })
  assert.equal(again.newTrades, 0)
  assert.deepEqual(await counts(), before)
  assert.equal((await get(t.terminal, '/options/tape')).body.count, 8)
})

test('health is {status:"ok"}; unknown path 404; any method but GET 405; all with JSON bodies', async () => {
  assert.deepEqual((await get(t.terminal, '/health')).body, { status: 'ok' })
  const nf = await get(t.terminal, '/options/nope')
  assert.equal(nf.status, 404)
  assert.deepEqual(nf.body, { error: 'Not found' })
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    const res = await fetch(t.terminal + '/options/tape', { method })
    assert.equal(res.status, 405, method)
    assert.equal(typeof ((await res.json()) as any).error, 'string')
    assert.match(res.headers.get('allow') ?? '', /GET/)
  }
})

test('a database failure is 500 with {error}', async () => {
  await t.db.sql`alter table option_trades rename to option_trades_away`
  try {
    for (const path of [
      '/options/tape',
      '/options/ladder?underlying=BTC&expiry=20241227',
      '/options/strike-detail?underlying=BTC&expiry=20241227&strike=100000&isCall=true',
    ]) {
      const r = await get(t.terminal, path)
      assert.equal(r.status, 500, path)
      assert.deepEqual(r.body, { error: 'Internal server error' })
    }
  } finally {
    await t.db.sql`alter table option_trades_away rename to option_trades`
  }
  assert.equal((await get(t.terminal, '/options/tape')).status, 200)
})

test('VENUE_B: its trades are on the tape under venue=VENUE_B, and the own venue turns live', async () => {
  const [inst] = await t.db.sql`
    insert into option_instruments (venue, name, venue_name, underlying, expiry_day, expiry_ts, strike, is_call, source)
    values ('VENUE_B', 'BTC-20241227-100000-C', 'BTC-20241227-100000-C', 'BTC', '2024-12-27', '2024-12-27T08:00:00Z', 100000, true, 'replay') returning id`
  await t.db.sql`
    insert into option_trades (venue, trade_ref, instrument_id, instrument, underlying, is_call, strike, expiry_ts, price, amount, side, liquidity_guess, source, ts)
    values ('VENUE_B', '0xabc:0', ${inst!.id}, 'BTC-20241227-100000-C', 'BTC', true, 100000, '2024-12-27T08:00:00Z', 2100, 1, 'buy', 'UNKNOWN', 'replay', '2024-12-20T11:00:00Z')`
  const b = await get(t.terminal, '/options/tape?venue=VENUE_B')
  assert.deepEqual([b.body.count, b.body.trades.map((x: any) => [x.venue, x.trade_ref])], [1, [['VENUE_B', '0xabc:0']]])
  assert.equal((await get(t.terminal, '/options/tape?venue=VENUE_A')).body.count, 8)
  assert.equal((await get(t.terminal, '/options/tape')).body.count, 9)
  assert.equal((await get(t.terminal, '/options/venues?underlying=BTC')).body.own_venue.status, 'live')
  assert.equal((await get(t.terminal, '/options/venues?underlying=ETH')).body.own_venue.status, 'coming_soon')
})
