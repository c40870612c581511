// Options market data at scale: 1,000,000 trades and 200,000 ticker snapshots from the synthetic
// market (two underlyings, 6 expiries × 40 strikes × call/put each, 30 days), bulk-inserted through
// the store's batch writers, then GET /options/tape (with and without filters), /options/ladder,
// /options/strike-detail and /options/venues one request at a time (latency, not throughput),
// through the real engine in its own process. Targets: tape p99 < 10 ms, ladder p99 < 25 ms.
// `node dist/bench/options.js` (BENCH_TRADES, BENCH_SNAPSHOTS, BENCH_REQUESTS to scale).
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { SyntheticMarket } from '../engine/ingest/sources/synthetic.js'
import { mapTrade, mapTicker, type TradeRow, type SnapshotRow } from '../workers/options/deribit/map.js'
import { upsertInstruments, insertTrades, insertSnapshots, insertSpotRefs } from '../engine/store/options.js'
import { mapInstrument, type InstrumentRow } from '../workers/options/deribit/map.js'
import type { DeribitInstrument } from '../workers/options/deribit/types.js'
import { startEngineProcess } from './lib/engineProcess.js'
import { benchDatabase } from './lib/benchDb.js'
import { load } from './lib/load.js'

parseCli(
  'options.js',
  benchUsage(
    'options',
    'Options market-data latency at scale (1,000,000 trades, 200,000 snapshots): tape, ladder, strike detail, venues.',
    { BENCH_TRADES: 'trades (1000000)', BENCH_SNAPSHOTS: 'snapshots (200000)', BENCH_REQUESTS: 'requests per case' },
  ),
  {},
)

const TRADES = Number(process.env.BENCH_TRADES ?? 1_000_000)
const SNAPSHOTS = Number(process.env.BENCH_SNAPSHOTS ?? 200_000)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 500)
const DAYS = 30
const BATCH = 10_000

const db = await benchDatabase('options', { max: 4 })
const sql = db.sql
let engine: Awaited<ReturnType<typeof startEngineProcess>> | undefined
try {
  const end = Date.now(),
    start = end - DAYS * 86_400_000
  const market = new SyntheticMarket(['BTC', 'ETH'], end - 3 * 86_400_000, { seed: 42, strikesPerExpiry: 40 })
  const ids = new Map<string, number>()
  for (const chain of market.chains) {
    const rows = (market.instrumentsCall(chain).result as DeribitInstrument[])
      .map(mapInstrument)
      .filter((r): r is InstrumentRow => r !== null)
    for (const [k, v] of await upsertInstruments(sql, rows, 'synthetic')) ids.set(k, v)
  }
  let t0 = performance.now()
  const perChain = Math.ceil(TRADES / market.chains.length)
  for (const chain of market.chains) {
    for (let done = 0; done < perChain; done += BATCH) {
      const n = Math.min(BATCH, perChain - done)
      const from = start + ((end - start) * done) / perChain,
        to = start + ((end - start) * (done + n)) / perChain
      const rows = market
        .trades(chain, n, from, to)
        .map(t => mapTrade(t))
        .filter((r): r is TradeRow => r !== null)
      await insertTrades(
        sql,
        rows.map(r => ({ ...r, instrumentId: ids.get(r.option.venueName)! })),
        'synthetic',
      )
      await insertSpotRefs(
        sql,
        rows
          .filter((_, i) => i % 20 === 0)
          .map(r => ({ underlying: r.option.underlying, takenAt: r.ts, indexPrice: r.spotRef! })),
        'synthetic',
      )
    }
  }
  const seededTrades = performance.now() - t0
  t0 = performance.now()
  const snapsPerChain = Math.ceil(SNAPSHOTS / market.chains.length)
  for (const chain of market.chains) {
    for (let done = 0; done < snapsPerChain; done += BATCH) {
      const n = Math.min(BATCH, snapsPerChain - done)
      const rows: SnapshotRow[] = []
      for (let k = 0; k < n; k++) {
        const inst = chain.instruments[(done + k) % chain.instruments.length]!
        const ts = start + Math.floor(((end - start) * (done + k)) / snapsPerChain)
        rows.push(mapTicker(market.ticker(chain, inst, ts))!)
      }
      await insertSnapshots(
        sql,
        rows.map(r => ({ ...r, instrumentId: ids.get(r.option.venueName)! })),
        'synthetic',
      )
    }
  }
  const seededSnaps = performance.now() - t0
  for (const table of ['option_trades', 'option_snapshots', 'option_instruments', 'option_spot_refs'])
    await sql.unsafe(`vacuum analyze ${table}`)
  const [counts] =
    await sql`select (select count(*) from option_trades)::int8 as trades, (select count(*) from option_snapshots)::int8 as snaps`
  console.log(
    `bench/options: ${Number(counts!.trades).toLocaleString()} trades in ${(seededTrades / 1000).toFixed(1)} s, ` +
      `${Number(counts!.snaps).toLocaleString()} snapshots in ${(seededSnaps / 1000).toFixed(1)} s, ${ids.size} instruments, ${DAYS} days`,
  )

  if (process.env.BENCH_EXPLAIN) {
    for (const q of [
      `select * from option_trades order by ts desc, id desc limit 50`,
      `select * from option_trades where underlying = 'SIMBTC' and liq_class = 2 order by ts desc, id desc limit 500`,
      `select coalesce(sum(n), 0)::int8 as n from option_trade_counts where true`,
    ])
      console.log((await sql.unsafe(`explain analyze ${q}`)).map(r => r['QUERY PLAN']).join('\n'))
  }
  engine = await startEngineProcess({ DATABASE_URL: db.url, POOL_THREADS: '1' })
  const terminal = `http://127.0.0.1:${engine.ports.terminal}`
  const chain = market.chains[0]!
  const lastExpiry = chain.instruments[chain.instruments.length - 1]!
  const expiry = new Date(lastExpiry.expiry).toISOString().slice(0, 10).replaceAll('-', '')
  const atm = chain.instruments.filter(i => i.expiry === lastExpiry.expiry && i.isCall)[20]!
  const cases: [string, string, number | null][] = [
    ['tape', '/options/tape', 10],
    ['tape', '/options/tape?underlying=simbtc', 10],
    ['tape', '/options/tape?liquidityGuess=rfq', 10],
    ['tape', '/options/tape?underlying=SIMETH&liquidityGuess=unknown&venue=VENUE_A', 10],
    ['tape', '/options/tape?underlying=SIMBTC&liquidityGuess=clob&limit=500', 10],
    ['tape', '/options/tape?venue=VENUE_B', 10],
    ['tape', '/options/tape?underlying=SIMBTC&offset=5000', null],
    ['ladder', `/options/ladder?underlying=SIMBTC&expiry=${expiry}`, 25],
    [
      'strike-detail',
      `/options/strike-detail?underlying=SIMBTC&expiry=${expiry}&strike=${atm.strike}&isCall=true`,
      null,
    ],
    ['venues', '/options/venues?underlying=SIMBTC', null],
  ]
  console.log(`sequential requests (concurrency 1), ${REQUESTS} per case after 20 warm-up`)
  for (const [, path, target] of cases) {
    await load(terminal + path, { concurrency: 1, maxRequests: 20, durationMs: 60_000 })
    const r = await load(terminal + path, { concurrency: 1, maxRequests: REQUESTS, durationMs: 60_000 })
    const verdict =
      target === null
        ? ''
        : r.p99Ms < target
          ? `  (target p99 < ${target} ms: met)`
          : `  (target p99 < ${target} ms: MISSED)`
    console.log(
      `${path.padEnd(80)} p50 ${r.p50Ms.toFixed(2).padStart(6)} ms  p99 ${r.p99Ms.toFixed(2).padStart(6)} ms  (${r.requests} req, ${r.errors} errors)${verdict}`,
    )
  }
} finally {
  await engine?.stop()
  await db.drop()
}
