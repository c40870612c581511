// Route-finder bench: a synthetic graph (bench/lib/syntheticGraph.ts: V2, V3 and stable-swap pools, 10 pools
// per token, a few hubs) of BENCH_POOLS pools (default 1,000), built here from a fixed seed and held as the route
// threads hold it (workers/sor/routeGraph.ts). Reports quote latency (maxHops 2, maxSplit 4) with the CPU a quote
// costs and the candidate paths it really evaluates against all it could, the memory the graph and its caches
// take, and (up to QUALITY_MAX pools, or BENCH_QUALITY=1) the output gain over the best single route and over
// the best 5%-step split, the shortfall against a brute-force fine-grained optimum, the pruned search against
// the exhaustive one (the same answer, to the wei), and our per-pool V3 quote time against
// @uniswap/v3-sdk's Pool.getOutputAmount on the same ticks.
// Run: npx tsc -p tsconfig.json && BENCH_POOLS=10000 node dist/bench/route.js
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { createRequire } from 'node:module'
import { noPretenuring } from '../engine/ops/pretenuring.js'
import { exposedGc } from './lib/exposedGc.js'
import { Bench } from 'tinybench'
import {
  diffBps,
  findRouteExhaustive,
  searchRoute,
  type FindRouteInput,
  type RouteSearch,
} from '../workers/sor/findRoute.js'
import { RouteGraph } from '../workers/sor/routeGraph.js'
import { enumeratePaths } from '../workers/sor/graph.js'
import { quoteExactIn, poolTokens } from '../workers/sor/pool.js'
import { stepSplitExact } from '../workers/sor/split.js'
import { fineOptimum } from '../workers/sor/fineOptimum.js'
import type { Address, PoolState, V3Pool } from '../workers/sor/types.js'
import { HUBS, SEED, syntheticGraph } from './lib/syntheticGraph.js'

parseCli(
  'route.js',
  benchUsage(
    'route',
    'Route-finder latency, CPU, work and memory on a synthetic graph, against the best single route, the 5%-step split, a fine optimum and the exhaustive search.',
    {
      BENCH_POOLS: 'pools in the graph (1000; tokens scale with it)',
      BENCH_QUALITY: '1: the quality and exhaustive comparisons at any size (default up to 2,000 pools)',
    },
  ),
  {},
)

// the searches run here as in the engine's route process, which turns V8's allocation-site pretenuring off
// (engine/ops/pretenuring.ts); `node --allocation-site-pretenuring dist/bench/route.js` measures them with it
noPretenuring()
const gc = exposedGc()
const heapMb = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

// the SDKs' ESM builds use directory imports Node rejects; their CommonJS builds load fine
const require = createRequire(import.meta.url)
const v3sdk: typeof import('@uniswap/v3-sdk') = require('@uniswap/v3-sdk')
const sdkCore: typeof import('@uniswap/sdk-core') = require('@uniswap/sdk-core')

const POOL_COUNT = Number(process.env.BENCH_POOLS ?? 1000)
const QUALITY_MAX = 2000
const QUERIES = 40

// ---- the graph, and what it costs to hold ---------------------------------------------------------

const heap0 = heapMb()
const { tokens, pools, poolMeta, counts: kinds, rand, raw } = syntheticGraph(POOL_COUNT)
const heapStates = heapMb()
const t0 = performance.now()
const graph = RouteGraph.from(pools, poolMeta)
const buildMs = performance.now() - t0
const heapIndex = heapMb()
console.log(
  `machine: ${(await import('node:os')).availableParallelism()} cores, load average ${(await import('node:os'))
    .loadavg()
    .map(x => x.toFixed(1))
    .join(' ')}, node ${process.version}`,
)
console.log(
  `graph: ${pools.length} pools (v2 ${kinds.v2}, v3 ${kinds.v3}, stable ${kinds.stable}) over ${tokens.length} tokens, seed ${SEED}; route index built in ${buildMs.toFixed(0)} ms`,
)

// ---- the queries: hub to hub, token to hub, token to token ---------------------------------------

const uniform = (lo: number, hi: number) => lo + (hi - lo) * rand()
const logUniform = (lo: number, hi: number) => Math.exp(uniform(Math.log(lo), Math.log(hi)))
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
const queries: RouteSearch[] = []
while (queries.length < QUERIES) {
  const kind = queries.length % 5
  const a = kind < 2 ? tokens[Math.floor(rand() * HUBS)]! : pick(tokens)
  const b = kind < 4 ? tokens[Math.floor(rand() * HUBS)]! : pick(tokens)
  if (a === b) continue
  const usd = logUniform(1e3, 3e6)
  const q: RouteSearch = {
    tokenIn: a.address,
    tokenOut: b.address,
    amountIn: raw(usd / a.usd, a.decimals),
    maxHops: 2,
    maxRoutes: 5,
    maxSplit: 4,
  }
  if (q.amountIn > 0n && searchRoute(graph, q).explain.candidatePaths > 0) queries.push(q)
}

// ---- latency, CPU and work -----------------------------------------------------------------------

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((x, y) => x - y)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!
}
const fmt = (x: number, d = 3) => x.toFixed(d)

const work = queries.map(q => {
  const r = searchRoute(graph, q)
  return { considered: r.candidatesConsidered, paths: r.explain.candidatePaths }
})
console.log(
  `queries: ${queries.length}; candidate paths p50 ${quantile(
    work.map(w => w.paths),
    0.5,
  )} max ${Math.max(...work.map(w => w.paths))}; ` +
    `candidatesConsidered (paths evaluated) p50 ${quantile(
      work.map(w => w.considered),
      0.5,
    )} max ${Math.max(...work.map(w => w.considered))}`,
)

let cursor = 0
const bench = new Bench({ time: 4000, warmupTime: 500 })
bench.add('searchRoute maxHops=2 maxSplit=4 (cycling the queries)', () => {
  searchRoute(graph, queries[cursor++ % queries.length]!)
})
const cpu0 = process.cpuUsage()
await bench.run()
const cpuMs = (process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1000
const routeTask = bench.tasks[0]!
if (routeTask.result.state !== 'completed') throw new Error(`bench task ${routeTask.result.state}`)
const lat = routeTask.result.latency
console.log(
  `quote latency (ms): p50 ${fmt(lat.p50)}  p99 ${fmt(lat.p99)}  mean ${fmt(lat.mean)}  ` +
    `[targets at 10,000 pools: p50 < 3, p99 < 20; at 50,000: p50 < 5, p99 < 40]`,
)
console.log(
  `CPU per quote (this process, all threads): ${fmt(cpuMs / routeTask.result.latency.samplesCount)} ms over ${routeTask.result.latency.samplesCount} quotes`,
)

// per query, by CPU (the figure that holds when other work shares the machine), the least of 3 runs; warm: the
// query's view of the graph kept from the run before (a pair quoted again between two blocks), cold: built anew
// (a pool of the pair changed since)
const cpuOf = (q: RouteSearch, cold: boolean) => {
  let least = Infinity
  for (let i = 0; i < 3; i++) {
    if (cold) graph.views.clear()
    const c = process.cpuUsage()
    searchRoute(graph, q)
    const u = process.cpuUsage(c)
    least = Math.min(least, (u.user + u.system) / 1000)
  }
  return least
}
for (const cold of [false, true]) {
  const cpu = queries.map(q => cpuOf(q, cold))
  console.log(
    `CPU per query (ms, least of 3, ${cold ? 'cold' : 'warm'}): p50 ${fmt(quantile(cpu, 0.5))}  p90 ${fmt(quantile(cpu, 0.9))}  max ${fmt(Math.max(...cpu))}`,
  )
}

const heapCurves = heapMb()
const mb = (x: number) => x.toFixed(1)
console.log(
  `graph memory at ${POOL_COUNT} pools: ${mb(heapCurves - heap0)} MB (pool states ${mb(heapStates - heap0)} MB, route index ${mb(heapIndex - heapStates)} MB, ` +
    `curves kept after the queries ${mb(heapCurves - heapIndex)} MB: ${graph.curveCount} of at most ${graph.curveCapacity}); the engine's own copy of the states is the first figure again`,
)

// ---- quality against the floors, the optimum and the exhaustive search ---------------------------

const byToken = new Map<Address, PoolState[]>()
for (const p of pools)
  for (const t of poolTokens(p)) {
    const l = byToken.get(t) ?? []
    l.push(p)
    byToken.set(t, l)
  }
const relevant = (a: Address, b: Address) => [...new Set([...(byToken.get(a) ?? []), ...(byToken.get(b) ?? [])])]

if (POOL_COUNT <= QUALITY_MAX || process.env.BENCH_QUALITY === '1') {
  const rows: Array<{ vsSingle: number; vsStep: number; shortfall: number; routes: number }> = []
  let worseThanSingle = 0,
    worseThanStep = 0,
    overTolerance = 0,
    sameAsExhaustive = 0
  for (const q of queries) {
    const result = searchRoute(graph, q)
    const input: FindRouteInput = { ...q, pools: relevant(q.tokenIn, q.tokenOut), poolMeta }
    const exhaustive = findRouteExhaustive(input)
    if (
      exhaustive.amountOut === result.amountOut &&
      JSON.stringify(exhaustive.routes, big) === JSON.stringify(result.routes, big)
    )
      sameAsExhaustive++
    const paths = enumeratePaths(input.pools, q.tokenIn, q.tokenOut, 2)
    let single = 0n
    for (const p of paths) {
      let x = q.amountIn
      for (const h of p.hops) x = x > 0n ? quoteExactIn(h.pool, h.tokenIn, h.tokenOut, x) : 0n
      if (x > single) single = x
    }
    const step = stepSplitExact(paths, q.amountIn, 4).amountOut
    const optimum = fineOptimum(paths, q.amountIn, 4, { top: 6, chunks: 400, keep: 3 }).amountOut
    const best = optimum > result.amountOut ? optimum : result.amountOut
    rows.push({
      vsSingle: diffBps(result.amountOut, single),
      vsStep: diffBps(result.amountOut, step),
      shortfall: diffBps(best, result.amountOut),
      routes: result.routes.length,
    })
    if (result.amountOut < single) worseThanSingle++
    if (result.amountOut < step) worseThanStep++
    if ((best - result.amountOut) * 100_000n > best) overTolerance++
  }
  const stat = (xs: number[]) =>
    `min ${fmt(Math.min(...xs), 4)}  p50 ${fmt(quantile(xs, 0.5), 4)}  mean ${fmt(xs.reduce((a, b) => a + b, 0) / xs.length, 4)}  max ${fmt(Math.max(...xs), 4)}`
  console.log(
    `gain over best single route (bps): ${stat(rows.map(r => r.vsSingle))}; worse in ${worseThanSingle}/${rows.length}`,
  )
  console.log(
    `gain over best 5%-step split (bps): ${stat(rows.map(r => r.vsStep))}; worse in ${worseThanStep}/${rows.length}`,
  )
  console.log(
    `shortfall vs fine-grained optimum (bps, 0 when we beat it): ${stat(rows.map(r => r.shortfall))}; over 0.1 bps in ${overTolerance}/${rows.length}`,
  )
  console.log(
    `pruned search vs exhaustive search: the same routes and amountOut, to the wei, in ${sameAsExhaustive}/${rows.length}`,
  )
  console.log(`routes used: ${[1, 2, 3, 4].map(k => `${k}:${rows.filter(r => r.routes === k).length}`).join(' ')}`)
} else {
  console.log(
    `quality and exhaustive comparisons: skipped above ${QUALITY_MAX} pools (BENCH_QUALITY=1 runs them; the exhaustive search takes seconds a query here)`,
  )
}

function big(_: string, v: unknown) {
  return typeof v === 'bigint' ? v.toString() : v
}

// ---- per-pool V3 quote time against @uniswap/v3-sdk -----------------------------------------------

const { Pool, TickListDataProvider } = v3sdk
const { Token, CurrencyAmount } = sdkCore
const v3Pools = pools.filter((p): p is V3Pool => p.kind === 'v3').slice(0, 30)
const decimalsOf = new Map(tokens.map(t => [t.address, t.decimals]))
const cases = v3Pools.map(p => {
  const t0 = new Token(1, p.token0, decimalsOf.get(p.token0)!),
    t1 = new Token(1, p.token1, decimalsOf.get(p.token1)!)
  const ticks = p.ticks.map(t => ({
    index: t.tick,
    liquidityNet: t.liquidityNet.toString(),
    liquidityGross: (t.liquidityNet < 0n ? -t.liquidityNet : t.liquidityNet).toString(),
  }))
  const sdkPool = new Pool(
    t0,
    t1,
    p.fee,
    p.sqrtPriceX96.toString(),
    p.liquidity.toString(),
    p.tick,
    new TickListDataProvider(ticks, p.tickSpacing),
  )
  // an input that crosses a few ticks but stays inside the loaded words: 2% of the active liquidity's token0
  const amountIn = (p.liquidity * (1n << 96n)) / p.sqrtPriceX96 / 50n + 1n
  return { p, t0, sdkPool, amountIn, amount: CurrencyAmount.fromRawAmount(t0, amountIn.toString()) }
})
let agree = 0
for (const c of cases) {
  const [sdkOut] = await c.sdkPool.getOutputAmount(c.amount)
  if (sdkOut.quotient.toString() === quoteExactIn(c.p, c.p.token0, c.p.token1, c.amountIn).toString()) agree++
}
let i = 0,
  j = 0
const v3bench = new Bench({ time: 2000, warmupTime: 300 })
v3bench.add('ours: quoteExactIn (V3)', () => {
  const c = cases[i++ % cases.length]!
  quoteExactIn(c.p, c.p.token0, c.p.token1, c.amountIn)
})
v3bench.add('@uniswap/v3-sdk Pool.getOutputAmount', async () => {
  const c = cases[j++ % cases.length]!
  await c.sdkPool.getOutputAmount(c.amount)
})
await v3bench.run()
for (const t of v3bench.tasks) {
  if (t.result.state !== 'completed') {
    console.log(`${t.name}: ${t.result.state}`)
    continue
  }
  console.log(
    `per-pool V3 quote, ${t.name}: p50 ${fmt(t.result.latency.p50 * 1000, 1)} us  mean ${fmt(t.result.latency.mean * 1000, 1)} us`,
  )
}
console.log(`v3-sdk and our quote agree to the wei on ${agree}/${cases.length} pools`)
