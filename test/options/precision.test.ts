// Every figure on every terminal endpoint leaves at VENUE_A's precision with no float noise (the rule:
// workers/options/precision.ts, docs/options.md). Trades, a ticker and book summaries whose values carry
// float noise go in through the real ingest sink; every endpoint is read over HTTP; every number in
// every reply is checked against its field's decimals, and the noisy inputs come back rounded.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { createSink } from '../../engine/ingest/sink.js'
import { createLogger } from '../../engine/log.js'
import { PRECISION } from '../../workers/options/precision.js'

let t: TestEngine
const now = Date.now()
const CALL = 'BTC-27DEC30-60000-C',
  PUT = 'BTC-27DEC30-60000-P',
  CALL2 = 'BTC-27DEC30-65000-C'
const EXPIRY = '20301227'

// Each input is a noisy double; `want` is the figure a person reads at the field's precision.
const noisy = {
  price: { x: 0.1 + 0.2, want: 0.3 }, // 0.30000000000000004
  tick: { x: 0.00015, want: 0.0002 }, // half away from zero (toFixed(4) says 0.0001)
  amount: { x: 0.1 + 0.2, want: 0.3 },
  amountHalf: { x: 1.25, want: 1.3 },
  index: { x: 60000.1 + 0.2, want: 60000.3 }, // 60000.299999999996
  iv: { x: 55.1 + 0.2, want: 55.3 }, // 55.300000000000004
  bid: { x: 0.0123456789, want: 0.0123 },
  bidSize: { x: 12.1 + 0.2, want: 12.3 }, // 12.299999999999999
  mark: { x: 0.4 + 0.2, want: 0.6 }, // 0.6000000000000001
  delta: { x: 0.123456789, want: 0.12346 },
  oi: { x: 1520.3 + 0.1, want: 1520.4 }, // 1520.3999999999999
  volume: { x: 0.7 + 0.1, want: 0.8 }, // 0.7999999999999999
}

before(async () => {
  for (const { x, want } of Object.values(noisy)) assert.notEqual(x, want) // the inputs really are noisy
  t = await startTestEngine()
  const sink = createSink({ sql: t.db.sql, source: 'replay', log: createLogger('silent') })
  const trade = (id: string, instrument_name: string, price: number, amount: number, agoMs: number) => ({
    trade_id: id,
    instrument_name,
    price,
    amount,
    direction: 'buy',
    index_price: noisy.index.x,
    iv: noisy.iv.x,
    timestamp: now - agoMs,
  })
  await sink.apply({
    method: 'public/get_last_trades_by_currency',
    params: { currency: 'BTC' },
    result: {
      has_more: false,
      trades: [
        trade('P-1', CALL, noisy.price.x, noisy.amount.x, 120_000),
        trade('P-2', CALL, noisy.tick.x, noisy.amountHalf.x, 60_000), // the call's last trade
        trade('P-3', PUT, 0.7 + 0.1, 0.1, 90_000),
      ],
    },
  })
  await sink.apply({
    method: 'public/ticker',
    params: { instrument_name: CALL },
    result: {
      instrument_name: CALL,
      timestamp: now - 10_000,
      best_bid_price: noisy.bid.x,
      best_bid_amount: noisy.bidSize.x,
      best_ask_price: noisy.price.x,
      best_ask_amount: noisy.amount.x,
      mark_price: noisy.mark.x,
      index_price: noisy.index.x,
      mark_iv: noisy.iv.x,
      greeks: { delta: noisy.delta.x },
      open_interest: noisy.oi.x,
      stats: { volume: noisy.volume.x },
    },
  })
  // book summaries: their open interest and volume sum into the venues' totals, where sums add noise of their own
  await sink.apply({
    method: 'public/get_book_summary_by_currency',
    params: { currency: 'BTC' },
    result: [PUT, CALL2].map((name, i) => ({
      instrument_name: name,
      creation_timestamp: now - 20_000,
      bid_price: 0.01 + 0.02,
      ask_price: 0.1 + 0.2,
      mark_price: 0.00015,
      mark_iv: 0.1 + 0.2,
      estimated_delivery_price: noisy.index.x,
      open_interest: [0.1, 0.2][i],
      volume: [0.7, 0.1][i],
    })),
  })
})
after(async () => {
  await t?.stop()
})

// The decimals every numeric key may carry; a key missing here fails the walk, so a new field must be placed.
const DECIMALS: Record<string, number> = {
  price: PRECISION.price,
  bid: PRECISION.price,
  ask: PRECISION.price,
  mark: PRECISION.price,
  index: PRECISION.index,
  spot: PRECISION.index,
  spot_ref: PRECISION.index,
  iv: PRECISION.iv,
  delta: PRECISION.greek,
  premium_usd: PRECISION.usd,
  amount: PRECISION.size,
  quantity_display: PRECISION.size,
  bidSize: PRECISION.size,
  askSize: PRECISION.size,
  oi: PRECISION.size,
  volume24h: PRECISION.size,
  volume1h: PRECISION.size,
  totalOI: PRECISION.size,
  totalVolume24h: PRECISION.size,
  count: 0,
  instruments: 0,
  calls: 0,
  puts: 0,
  tradeCount24h: 0,
  tradeCount1h: 0,
  tradeCount: 0,
}
const STRIKES = new Set(['strike', 'strike_display']) // from the instrument's name: checked against it below

const decimals = (n: number) =>
  /^-?\d+(?:\.(\d+))?$/.exec(String(n))?.[1]?.length ?? (Number.isInteger(n) ? 0 : Infinity)

/** Every number under `v`, with the key it sits at; fails on a figure sent as a string. */
function numbers(v: unknown, key = '', out: [string, number][] = []): [string, number][] {
  if (typeof v === 'number') out.push([key, v])
  else if (Array.isArray(v)) for (const x of v) numbers(x, key, out)
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) numbers(x, k, out)
  else if (typeof v === 'string' && key in DECIMALS) assert.fail(`${key} is a string: ${v}`)
  return out
}

async function read(path: string): Promise<{ body: any; text: string }> {
  const res = await fetch(t.terminal + path)
  const text = await res.text()
  assert.equal(res.status, 200, path)
  return { body: JSON.parse(text), text }
}

const PATHS = [
  '/options/tape?limit=500',
  `/options/ladder?underlying=BTC&expiry=${EXPIRY}`,
  '/options/venues?underlying=BTC',
  `/options/strike-detail?underlying=BTC&expiry=${EXPIRY}&strike=60000&isCall=true`,
  `/options/strike-detail?underlying=BTC&expiry=${EXPIRY}&strike=60000&isCall=false`,
  '/options/underlyings',
]

test('no number on any endpoint has more decimals than its field allows, and each is the same text everywhere', async () => {
  let seen = 0
  for (const path of PATHS) {
    const { body, text } = await read(path)
    // formatting is the same on every endpoint: compact JSON, as JSON.stringify writes it (the tape is built by PostgreSQL)
    assert.equal(text, JSON.stringify(body), path)
    for (const [key, n] of numbers(body)) {
      seen++
      if (STRIKES.has(key)) {
        assert.ok([60000, 65000].includes(n), `${path} ${key}=${n}`)
        continue
      }
      assert.ok(key in DECIMALS, `${path}: numeric field ${key} has no precision`)
      assert.ok(decimals(n) <= DECIMALS[key]!, `${path}: ${key}=${n} has more than ${DECIMALS[key]} decimals`)
    }
  }
  assert.ok(seen > 40, String(seen))
})

test('tape: the noisy trade figures come back rounded, as numbers', async () => {
  const { body } = await read('/options/tape?limit=500')
  const by = new Map(body.trades.map((x: any) => [x.trade_ref, x]))
  const p1: any = by.get('P-1'),
    p2: any = by.get('P-2'),
    p3: any = by.get('P-3')
  assert.deepEqual(
    [p1.price, p1.quantity_display, p1.iv, p1.spot_ref],
    [noisy.price.want, noisy.amount.want, noisy.iv.want, noisy.index.want],
  )
  assert.deepEqual([p2.price, p2.quantity_display], [noisy.tick.want, noisy.amountHalf.want])
  assert.deepEqual([p3.price, p3.quantity_display], [0.8, 0.1])
  const [stored] = await t.db.sql`select price, amount, spot_ref from option_trades where trade_ref = 'P-1'`
  assert.deepEqual([stored!.price, stored!.amount, stored!.spot_ref], [noisy.price.x, noisy.amount.x, noisy.index.x]) // stored as given
})

test('ladder: quote, greek, size and last-trade figures rounded', async () => {
  const { body } = await read(`/options/ladder?underlying=BTC&expiry=${EXPIRY}`)
  const call = body.strikes.find((s: any) => s.instrument === 'BTC-20301227-60000-C')
  assert.deepEqual(call, {
    instrument: 'BTC-20301227-60000-C',
    strike: 60000,
    isCall: true,
    bid: noisy.bid.want,
    bidSize: noisy.bidSize.want,
    ask: noisy.price.want,
    askSize: noisy.amount.want,
    mark: noisy.mark.want,
    index: noisy.index.want,
    iv: noisy.iv.want,
    delta: noisy.delta.want,
    oi: noisy.oi.want,
    volume24h: noisy.volume.want,
    lastTrade: {
      price: noisy.tick.want,
      amount: noisy.amountHalf.want,
      direction: 'buy',
      tradedAt: new Date(now - 60_000).toISOString(),
    },
    snapshotAt: new Date(now - 10_000).toISOString(),
  })
  const put = body.strikes.find((s: any) => s.instrument === 'BTC-20301227-60000-P')
  assert.deepEqual([put.bid, put.ask, put.mark, put.iv, put.index], [0.03, 0.3, 0.0002, 0.3, noisy.index.want])
})

test('venues: summed open interest and volume, and spot, rounded', async () => {
  const { body } = await read('/options/venues?underlying=BTC')
  const [e] = body.expiries
  // 1520.4 + 0.1 + 0.2 and 0.8 + 0.7 + 0.1, summed in float8 by PostgreSQL
  assert.deepEqual([e.totalOI, e.totalVolume24h, e.spot, e.tradeCount24h], [1520.7, 1.6, noisy.index.want, 3])
})

test('strike detail: quote figures, 1-hour volume (a float sum) and spot rounded', async () => {
  const { body } = await read(`/options/strike-detail?underlying=BTC&expiry=${EXPIRY}&strike=60000&isCall=true`)
  assert.deepEqual(body, {
    instrument: 'BTC-20301227-60000-C',
    bid: noisy.bid.want,
    ask: noisy.price.want,
    mark: noisy.mark.want,
    iv: noisy.iv.want,
    lastTrade: {
      price: noisy.tick.want,
      amount: noisy.amountHalf.want,
      tradedAt: new Date(now - 60_000).toISOString(),
    },
    volume1h: 1.6,
    tradeCount1h: 2,
    spot: noisy.index.want, // 0.30000000000000004 + 1.25 = 1.55 → 1.6
  })
})
