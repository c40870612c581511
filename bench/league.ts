// League and performance-summary latency at scale: 1,000,000 fills across 5,000 addresses seeded
// in bulk (generate_series), rollups rebuilt from them, then GET /api/v1/league per role and
// period and GET /api/v1/rfq/performance-summary per window, one request at a time (latency, not
// throughput), through the real engine in its own process on a fresh database.
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { rebuildRollups, totalsFromDaily } from '../engine/store/league.js'
import { startEngineProcess } from './lib/engineProcess.js'
import { benchDatabase } from './lib/benchDb.js'
import { load } from './lib/load.js'

parseCli(
  'league.js',
  benchUsage(
    'league',
    'League and performance-summary latency at scale (1,000,000 fills, 5,000 addresses), through the real engine.',
    { BENCH_FILLS: 'fills seeded (1000000)', BENCH_ADDRESSES: 'addresses (5000)', BENCH_DAYS: 'days spread over (60)' },
  ),
  {},
)

const FILLS = Number(process.env.BENCH_FILLS ?? 1_000_000)
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 5_000)
const DAYS = Number(process.env.BENCH_DAYS ?? 60)
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200)

const db = await benchDatabase('league', { max: 2 })
const sql = db.sql
let engine: Awaited<ReturnType<typeof startEngineProcess>> | undefined
try {
  let t0 = performance.now()
  // addresses 0x...<i>; the maker is i, the taker a different address; 30% benchmarked, 20% private
  await sql`
    insert into fills (tx_hash, rfq_id, taker, maker, token_in, token_out, amount_in, amount_out, amount_in_usd, is_private,
      benchmark_available, improvement_bps, baseline_source, taker_points, maker_points, points_version, filled_at)
    select '0x' || lpad(to_hex(g), 64, '0'), null,
      '0x' || lpad(to_hex(((g::bigint * 7919) % ${ADDRESSES} + 1 + (g % 3)) % ${ADDRESSES}), 40, '0'),
      '0x' || lpad(to_hex(g % ${ADDRESSES}), 40, '0'),
      '0x' || lpad(to_hex(1 + g % 4), 40, '0'), '0x' || lpad(to_hex(11 + g % 3), 40, '0'),
      (1000000 + g)::numeric, (2000000 + g)::numeric, round((random() * 20000)::numeric, 2)::float8, random() < 0.2,
      b, case when b then round((random() * 100 - 50)::numeric, 2) else 0 end, case when b then 'client' end,
      1, 2, 'v2', now() - random() * make_interval(days => ${DAYS})
    from (select g, random() < 0.3 as b from generate_series(1, ${FILLS}) g) s`
  const seeded = performance.now() - t0
  t0 = performance.now()
  await rebuildRollups(sql)
  const rolled = performance.now() - t0
  // reliability evidence: a few judged RFQs per maker per week (what the rfqs trigger writes)
  await sql`
    insert into league_daily (address, role, day, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points, judged, failed)
    select '0x' || lpad(to_hex(a), 40, '0'), 'maker', current_date - d, 0, 0, 0, 0, 0, 0, 3, (random() < 0.2)::int
    from generate_series(0, ${ADDRESSES - 1}) a, generate_series(0, ${DAYS - 1}, 7) d
    on conflict (role, day, address) do update set judged = excluded.judged, failed = excluded.failed`
  await totalsFromDaily(sql)
  for (const table of [
    'fills',
    'league_daily',
    'league_totals',
    'fill_summary',
    'fill_summary_buckets',
    'fill_summary_values',
  ])
    await sql.unsafe(`vacuum analyze ${table}`)
  const [{ daily }] = (await sql`select count(*)::int as daily from league_daily`) as unknown as [{ daily: number }]
  console.log(
    `bench/league: ${FILLS.toLocaleString()} fills, ${ADDRESSES} addresses over ${DAYS} days; seed ${(seeded / 1000).toFixed(1)} s, rollups ${(rolled / 1000).toFixed(1)} s (${daily.toLocaleString()} daily rows)`,
  )

  engine = await startEngineProcess({ DATABASE_URL: db.url, PUBLIC_RATE_LIMIT_PER_MIN: '100000000', POOL_THREADS: '1' })
  const api = `http://127.0.0.1:${engine.ports.api}`
  const cases = [
    '/api/v1/health', // reference: one SELECT 1 through the same front, on the same (shared) machine
    ...['7d', '30d', 'all'].flatMap(p => ['maker', 'taker'].map(r => `/api/v1/league?role=${r}&period=${p}`)),
    '/api/v1/league?role=maker&period=30d&offset=2500&limit=50',
    '/api/v1/league?role=maker&period=30d&search=0abc',
    ...['24h', '7d', '30d'].map(w => `/api/v1/rfq/performance-summary?window=${w}`),
    '/api/v1/rfq/performance-summary?window=30d&tokenIn=0x' +
      '1'.padStart(40, '0') +
      '&tokenOut=0x' +
      'b'.padStart(40, '0'),
    '/api/v1/rfq/performance-summary?window=7d&tokenIn=0x' + '1'.padStart(40, '0'),
  ]
  console.log(
    `sequential requests (concurrency 1), ${REQUESTS} per case after 10 warm-up (the first league request of a day per period computes that period's base; the first summary request of a minute per window moves that window's base)`,
  )
  for (const path of cases) {
    await load(api + path, { concurrency: 1, maxRequests: 10, durationMs: 60_000 })
    const r = await load(api + path, { concurrency: 1, maxRequests: REQUESTS, durationMs: 60_000 })
    console.log(
      `${path.padEnd(100)} p50 ${r.p50Ms.toFixed(2).padStart(7)} ms  p99 ${r.p99Ms.toFixed(2).padStart(7)} ms  (${r.requests} req, ${r.errors} errors)`,
    )
  }
} finally {
  await engine?.stop()
  await db.drop()
}
