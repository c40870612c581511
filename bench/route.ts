// Route-finder bench: a synthetic graph of 1,000 pools (V2, V3, stable-swap) over 100 tokens,
// built here from a fixed seed. Reports quote latency (maxHops 2, maxSplit 4), the output gain
// over the best single route and over the best 5%-step split on the same candidates, the
// shortfall against a brute-force fine-grained optimum, and our per-pool V3 quote time against
// @uniswap/v3-sdk's Pool.getOutputAmount on the same ticks.
// Run: npx tsc -p tsconfig.json && node dist/bench/route.js
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { createRequire } from 'node:module'
import { Bench } from 'tinybench'
import { findRoute, diffBps, type FindRouteInput, type PoolMeta } from '../workers/sor/findRoute.js'
import { enumeratePaths } from '../workers/sor/graph.js'
import { quoteExactIn, poolTokens } from '../workers/sor/pool.js'
import { stepSplitExact } from '../workers/sor/split.js'
import { fineOptimum } from '../workers/sor/fineOptimum.js'
import type { Address, PoolState, StablePool, V2Pool, V3Pool } from '../workers/sor/types.js'
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../workers/sor/v3/tickMath.js'
import { v3PoolFromPositions, type V3Position } from '../workers/sor/v3/poolFromPositions.js'

parseCli('route.js', benchUsage('route', 'Route-finder latency on a synthetic 1,000-pool graph, against the best single route, the 5%-step split and a fine optimum.', {}), {})

// the SDKs' ESM builds use directory imports Node rejects; their CommonJS builds load fine
const require = createRequire(import.meta.url)
const v3sdk: typeof import('@uniswap/v3-sdk') = require('@uniswap/v3-sdk')
const sdkCore: typeof import('@uniswap/sdk-core') = require('@uniswap/sdk-core')

const SEED = 0x5eed
const TOKENS = 100
const POOLS = { v2: 440, v3: 500, stable: 60 }
const QUERIES = 40

// ---- the synthetic graph -------------------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const rand = mulberry32(SEED)
const uniform = (lo: number, hi: number) => lo + (hi - lo) * rand()
const logUniform = (lo: number, hi: number) => Math.exp(uniform(Math.log(lo), Math.log(hi)))
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
const raw = (units: number, decimals: number) => BigInt(Math.floor(units * 10 ** Math.min(decimals, 6))) * 10n ** BigInt(Math.max(0, decimals - 6))

interface TokenInfo { address: Address; usd: number; decimals: number; stable: boolean }
const address = (prefix: number, n: number): Address => `0x${prefix.toString(16)}${n.toString(16).padStart(39, '0')}` as Address
const tokens: TokenInfo[] = [
  { usd: 3000, decimals: 18, stable: false }, { usd: 1, decimals: 6, stable: true }, { usd: 1, decimals: 6, stable: true },
  { usd: 1, decimals: 18, stable: true }, { usd: 60000, decimals: 8, stable: false },
].map((t, i) => ({ ...t, address: address(1, i) }))
for (let i = tokens.length; i < TOKENS; i++) {
  const stable = i < 10
  tokens.push({ address: address(1, i), stable, usd: stable ? 1 : logUniform(1e-3, 1e3), decimals: stable ? pick([6, 18]) : pick([18, 18, 18, 6, 8, 9]) })
}
const HUBS = 5
const pickToken = () => (rand() < 0.45 ? tokens[Math.floor(rand() * HUBS)]! : pick(tokens))
const pickPair = (): [TokenInfo, TokenInfo] => { for (;;) { const a = pickToken(), b = pickToken(); if (a !== b) return [a, b] } }
const isHub = (t: TokenInfo) => tokens.indexOf(t) < HUBS

const pools: PoolState[] = []
const poolMeta: Record<string, PoolMeta> = {}
let poolCount = 0
const nextPool = () => address(2, poolCount++)

for (let n = 0; n < POOLS.v2; n++) {
  const [a, b] = pickPair()
  const tvl = logUniform(5e4, 5e7) * (isHub(a) && isHub(b) ? 5 : 1)
  const feePpm = pick([3000, 3000, 2500, 2000])
  const noise = 1 + uniform(-0.005, 0.005)
  const ra = raw(tvl / 2 / a.usd, a.decimals), rb = raw((tvl / 2 / b.usd) * noise, b.decimals)
  const [t0, t1, r0, r1] = a.address < b.address ? [a, b, ra, rb] : [b, a, rb, ra]
  const pool: V2Pool = { kind: 'v2', address: nextPool(), token0: t0.address, token1: t1.address, reserve0: r0, reserve1: r1, feePpm }
  pools.push(pool)
  poolMeta[pool.address] = { protocol: feePpm === 3000 ? 'uniswap-v2' : feePpm === 2500 ? 'pancakeswap-v2' : 'fork-v2', poolType: 'v2', fee: feePpm }
}

const SPACING: Record<number, number> = { 500: 10, 3000: 60, 10000: 200 }
for (let n = 0; n < POOLS.v3; n++) {
  const [a, b] = pickPair()
  const [t0, t1] = a.address < b.address ? [a, b] : [b, a]
  const fee = pick([500, 3000, 3000, 10000])
  const spacing = SPACING[fee]!
  const price = (t0.usd / t1.usd) * 10 ** (t1.decimals - t0.decimals) * (1 + uniform(-0.005, 0.005)) // token1 per token0, raw
  const tick = Math.max(MIN_TICK + 100_000, Math.min(MAX_TICK - 100_000, Math.floor(Math.log(price) / Math.log(1.0001))))
  const tvl = logUniform(5e4, 5e7) * (isHub(a) && isHub(b) ? 5 : 1)
  const sqrtP = Math.sqrt(1.0001 ** tick)
  const positions: Array<{ lower: number; upper: number; liquidity: bigint }> = []
  const base = Math.floor(tick / spacing) * spacing
  const count = 2 + Math.floor(rand() * 5)
  for (let p = 0; p < count; p++) {
    const width = p === 0 ? 400 : 2 + Math.floor(logUniform(1, 300))
    const centre = p === 0 ? base : base + spacing * Math.round(uniform(-width, width) / 2)
    const lower = centre - spacing * Math.ceil(width / 2), upper = centre + spacing * Math.ceil(width / 2 + 1)
    // liquidity holding about its share of tvl in token1 across the range's lower half
    const share = tvl / count / t1.usd * 10 ** t1.decimals
    const liquidity = share / (sqrtP * Math.max(1e-6, 1 - 1.0001 ** (-(upper - lower) / 4)))
    if (Number.isFinite(liquidity) && liquidity >= 1) positions.push({ lower, upper, liquidity: BigInt(Math.floor(liquidity)) })
  }
  const pool = v3Pool(nextPool(), t0.address, t1.address, fee, spacing, tick, positions)
  pools.push(pool)
  poolMeta[pool.address] = { protocol: 'uniswap-v3', poolType: 'v3', fee }
}

const stables = tokens.filter(t => t.stable)
for (let n = 0; n < POOLS.stable; n++) {
  const coins = [...stables].sort(() => rand() - 0.5).slice(0, rand() < 0.5 ? 2 : 3)
  const size = logUniform(1e6, 2e8)
  const pool: StablePool = {
    kind: 'stable', address: nextPool(), coins: coins.map(c => c.address),
    balances: coins.map(c => raw(size * uniform(0.8, 1.2), c.decimals)),
    A: BigInt(Math.floor(logUniform(20, 2000))) * 100n, fee: 4_000_000n,
    rates: coins.map(c => 10n ** BigInt(36 - c.decimals)),
  }
  pools.push(pool)
  poolMeta[pool.address] = { protocol: 'stableswap', poolType: 'stable', fee: 400 }
}

function v3Pool(addr: Address, token0: Address, token1: Address, fee: number, tickSpacing: number, tick: number, positions: V3Position[]): V3Pool {
  const sqrtPriceX96 = (getSqrtRatioAtTick(tick) + getSqrtRatioAtTick(tick + 1)) / 2n
  return v3PoolFromPositions({ address: addr, tokenA: token0, tokenB: token1, fee, tickSpacing, tick, positions, sqrtPriceX96 })
}

// ---- the queries: the engine hands over only pools touching tokenIn or tokenOut -----------------

const byToken = new Map<Address, PoolState[]>()
for (const p of pools) for (const t of poolTokens(p)) { const l = byToken.get(t) ?? []; l.push(p); byToken.set(t, l) }
const relevant = (a: Address, b: Address) => [...new Set([...(byToken.get(a) ?? []), ...(byToken.get(b) ?? [])])]

const queries: FindRouteInput[] = []
while (queries.length < QUERIES) {
  const kind = queries.length % 5
  const a = kind < 2 ? tokens[Math.floor(rand() * HUBS)]! : pick(tokens)
  const b = kind < 4 ? tokens[Math.floor(rand() * HUBS)]! : pick(tokens)
  if (a === b) continue
  const usd = logUniform(1e3, 3e6)
  const q: FindRouteInput = { pools: relevant(a.address, b.address), tokenIn: a.address, tokenOut: b.address,
    amountIn: raw(usd / a.usd, a.decimals), maxHops: 2, maxRoutes: 5, maxSplit: 4, poolMeta }
  if (q.amountIn > 0n && enumeratePaths(q.pools, q.tokenIn, q.tokenOut, 2).length > 0) queries.push(q)
}

// ---- latency -------------------------------------------------------------------------------------

const quantile = (xs: number[], q: number) => { const s = [...xs].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(q * s.length))]! }
const fmt = (x: number, d = 3) => x.toFixed(d)

const counts = queries.map(q => ({ pools: q.pools.length, paths: enumeratePaths(q.pools, q.tokenIn, q.tokenOut, 2).length }))
console.log(`graph: ${pools.length} pools (v2 ${POOLS.v2}, v3 ${POOLS.v3}, stable ${POOLS.stable}) over ${TOKENS} tokens, seed ${SEED}`)
console.log(`queries: ${queries.length}; pools per query p50 ${quantile(counts.map(c => c.pools), 0.5)} max ${Math.max(...counts.map(c => c.pools))}; `
  + `candidate paths p50 ${quantile(counts.map(c => c.paths), 0.5)} max ${Math.max(...counts.map(c => c.paths))}`)

let cursor = 0
const bench = new Bench({ time: 4000, warmupTime: 500 })
bench.add('findRoute maxHops=2 maxSplit=4 (cycling the queries)', () => { findRoute(queries[cursor++ % queries.length]!) })
await bench.run()
const routeTask = bench.tasks[0]!
if (routeTask.result.state !== 'completed') throw new Error(`bench task ${routeTask.result.state}`)
const lat = routeTask.result.latency
console.log(`quote latency (ms): p50 ${fmt(lat.p50)}  p99 ${fmt(lat.p99)}  mean ${fmt(lat.mean)}  `
  + `[targets: p50 < 5, p99 < 25]`)

// ---- quality against the floors and the optimum ---------------------------------------------------

const rows: Array<{ vsSingle: number; vsStep: number; shortfall: number; routes: number }> = []
let worseThanSingle = 0, worseThanStep = 0, overTolerance = 0
for (const q of queries) {
  const result = findRoute(q)
  const paths = enumeratePaths(q.pools, q.tokenIn, q.tokenOut, 2)
  let single = 0n
  for (const p of paths) { let x = q.amountIn; for (const h of p.hops) x = x > 0n ? quoteExactIn(h.pool, h.tokenIn, h.tokenOut, x) : 0n; if (x > single) single = x }
  const step = stepSplitExact(paths, q.amountIn, 4).amountOut
  const optimum = fineOptimum(paths, q.amountIn, 4, { top: 6, chunks: 400, keep: 3 }).amountOut
  const best = optimum > result.amountOut ? optimum : result.amountOut
  const row = { vsSingle: diffBps(result.amountOut, single), vsStep: diffBps(result.amountOut, step), shortfall: diffBps(best, result.amountOut), routes: result.routes.length }
  if (result.amountOut < single) worseThanSingle++
  if (result.amountOut < step) worseThanStep++
  if ((best - result.amountOut) * 100_000n > best) overTolerance++
  rows.push(row)
}
const stat = (xs: number[]) => `min ${fmt(Math.min(...xs), 4)}  p50 ${fmt(quantile(xs, 0.5), 4)}  mean ${fmt(xs.reduce((a, b) => a + b, 0) / xs.length, 4)}  max ${fmt(Math.max(...xs), 4)}`
console.log(`gain over best single route (bps): ${stat(rows.map(r => r.vsSingle))}; worse in ${worseThanSingle}/${rows.length}`)
console.log(`gain over best 5%-step split (bps): ${stat(rows.map(r => r.vsStep))}; worse in ${worseThanStep}/${rows.length}`)
console.log(`shortfall vs fine-grained optimum (bps, 0 when we beat it): ${stat(rows.map(r => r.shortfall))}; over 0.1 bps in ${overTolerance}/${rows.length}`)
console.log(`routes used: ${[1, 2, 3, 4].map(k => `${k}:${rows.filter(r => r.routes === k).length}`).join(' ')}`)

// ---- per-pool V3 quote time against @uniswap/v3-sdk -----------------------------------------------

const { Pool, TickListDataProvider } = v3sdk
const { Token, CurrencyAmount } = sdkCore
const v3Pools = pools.filter((p): p is V3Pool => p.kind === 'v3').slice(0, 30)
const decimalsOf = new Map(tokens.map(t => [t.address, t.decimals]))
const cases = v3Pools.map(p => {
  const t0 = new Token(1, p.token0, decimalsOf.get(p.token0)!), t1 = new Token(1, p.token1, decimalsOf.get(p.token1)!)
  const ticks = p.ticks.map(t => ({ index: t.tick, liquidityNet: t.liquidityNet.toString(),
    liquidityGross: (t.liquidityNet < 0n ? -t.liquidityNet : t.liquidityNet).toString() }))
  const sdkPool = new Pool(t0, t1, p.fee, p.sqrtPriceX96.toString(), p.liquidity.toString(), p.tick, new TickListDataProvider(ticks, p.tickSpacing))
  // an input that crosses a few ticks but stays inside the loaded words: 2% of the active liquidity's token0
  const amountIn = (p.liquidity * (1n << 96n)) / p.sqrtPriceX96 / 50n + 1n
  return { p, t0, sdkPool, amountIn, amount: CurrencyAmount.fromRawAmount(t0, amountIn.toString()) }
})
let agree = 0
for (const c of cases) {
  const [sdkOut] = await c.sdkPool.getOutputAmount(c.amount)
  if (sdkOut.quotient.toString() === quoteExactIn(c.p, c.p.token0, c.p.token1, c.amountIn).toString()) agree++
}
let i = 0, j = 0
const v3bench = new Bench({ time: 2000, warmupTime: 300 })
v3bench.add('ours: quoteExactIn (V3)', () => { const c = cases[i++ % cases.length]!; quoteExactIn(c.p, c.p.token0, c.p.token1, c.amountIn) })
v3bench.add('@uniswap/v3-sdk Pool.getOutputAmount', async () => { const c = cases[j++ % cases.length]!; await c.sdkPool.getOutputAmount(c.amount) })
await v3bench.run()
for (const t of v3bench.tasks) {
  if (t.result.state !== 'completed') { console.log(`${t.name}: ${t.result.state}`); continue }
  console.log(`per-pool V3 quote, ${t.name}: p50 ${fmt(t.result.latency.p50 * 1000, 1)} us  mean ${fmt(t.result.latency.mean * 1000, 1)} us`)
}
console.log(`v3-sdk and our quote agree to the wei on ${agree}/${cases.length} pools`)
