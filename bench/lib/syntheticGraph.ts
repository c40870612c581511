// A synthetic pool graph for the route finder's benches (and the relay bench's route searches): V2, V3 and
// stable-swap pools over a token set with a few hubs, from a fixed seed. At 1,000 pools it is the graph
// bench/route.ts always used (same seed, same draws); larger graphs keep the proportions: 10 pools per token,
// 44% V2, 50% V3, 6% stable, 5 hubs that about 45% of pools touch, 10 stablecoins.
import type { PoolMeta } from '../../workers/sor/findRoute.js'
import type { Address, PoolState, StablePool, V2Pool, V3Pool } from '../../workers/sor/types.js'
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from '../../workers/sor/v3/tickMath.js'
import { v3PoolFromPositions, type V3Position } from '../../workers/sor/v3/poolFromPositions.js'

export const SEED = 0x5eed
export const HUBS = 5

export interface TokenInfo {
  address: Address
  usd: number
  decimals: number
  stable: boolean
}

export interface SyntheticGraph {
  tokens: TokenInfo[]
  pools: PoolState[]
  poolMeta: Record<string, PoolMeta>
  counts: { v2: number; v3: number; stable: number }
  /** the seeded generator, where the graph's draws ended: queries drawn from it are the same every run */
  rand: () => number
  /** raw units of `units` whole tokens at `decimals` */
  raw: (units: number, decimals: number) => bigint
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function syntheticGraph(poolTotal = 1000, seed = SEED): SyntheticGraph {
  const counts = { v2: Math.round(poolTotal * 0.44), v3: Math.round(poolTotal * 0.5), stable: 0 }
  counts.stable = poolTotal - counts.v2 - counts.v3
  const tokenTotal = Math.max(20, Math.round(poolTotal / 10))
  const rand = mulberry32(seed)
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * rand()
  const logUniform = (lo: number, hi: number) => Math.exp(uniform(Math.log(lo), Math.log(hi)))
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  const raw = (units: number, decimals: number) =>
    BigInt(Math.floor(units * 10 ** Math.min(decimals, 6))) * 10n ** BigInt(Math.max(0, decimals - 6))

  const address = (prefix: number, n: number): Address =>
    `0x${prefix.toString(16)}${n.toString(16).padStart(39, '0')}` as Address
  const tokens: TokenInfo[] = [
    { usd: 3000, decimals: 18, stable: false },
    { usd: 1, decimals: 6, stable: true },
    { usd: 1, decimals: 6, stable: true },
    { usd: 1, decimals: 18, stable: true },
    { usd: 60000, decimals: 8, stable: false },
  ].map((t, i) => ({ ...t, address: address(1, i) }))
  for (let i = tokens.length; i < tokenTotal; i++) {
    const stable = i < 10
    tokens.push({
      address: address(1, i),
      stable,
      usd: stable ? 1 : logUniform(1e-3, 1e3),
      decimals: stable ? pick([6, 18]) : pick([18, 18, 18, 6, 8, 9]),
    })
  }
  const pickToken = () => (rand() < 0.45 ? tokens[Math.floor(rand() * HUBS)]! : pick(tokens))
  const pickPair = (): [TokenInfo, TokenInfo] => {
    for (;;) {
      const a = pickToken(),
        b = pickToken()
      if (a !== b) return [a, b]
    }
  }
  const isHub = (t: TokenInfo) => tokens.indexOf(t) < HUBS

  const pools: PoolState[] = []
  const poolMeta: Record<string, PoolMeta> = {}
  let poolCount = 0
  const nextPool = () => address(2, poolCount++)

  for (let n = 0; n < counts.v2; n++) {
    const [a, b] = pickPair()
    const tvl = logUniform(5e4, 5e7) * (isHub(a) && isHub(b) ? 5 : 1)
    const feePpm = pick([3000, 3000, 2500, 2000])
    const noise = 1 + uniform(-0.005, 0.005)
    const ra = raw(tvl / 2 / a.usd, a.decimals),
      rb = raw((tvl / 2 / b.usd) * noise, b.decimals)
    const [t0, t1, r0, r1] = a.address < b.address ? [a, b, ra, rb] : [b, a, rb, ra]
    const pool: V2Pool = {
      kind: 'v2',
      address: nextPool(),
      token0: t0.address,
      token1: t1.address,
      reserve0: r0,
      reserve1: r1,
      feePpm,
    }
    pools.push(pool)
    poolMeta[pool.address] = {
      protocol: feePpm === 3000 ? 'uniswap-v2' : feePpm === 2500 ? 'pancakeswap-v2' : 'fork-v2',
      poolType: 'v2',
      fee: feePpm,
    }
  }

  const SPACING: Record<number, number> = { 500: 10, 3000: 60, 10000: 200 }
  for (let n = 0; n < counts.v3; n++) {
    const [a, b] = pickPair()
    const [t0, t1] = a.address < b.address ? [a, b] : [b, a]
    const fee = pick([500, 3000, 3000, 10000])
    const spacing = SPACING[fee]!
    const price = (t0.usd / t1.usd) * 10 ** (t1.decimals - t0.decimals) * (1 + uniform(-0.005, 0.005)) // token1 per token0, raw
    const tick = Math.max(
      MIN_TICK + 100_000,
      Math.min(MAX_TICK - 100_000, Math.floor(Math.log(price) / Math.log(1.0001))),
    )
    const tvl = logUniform(5e4, 5e7) * (isHub(a) && isHub(b) ? 5 : 1)
    const sqrtP = Math.sqrt(1.0001 ** tick)
    const positions: V3Position[] = []
    const base = Math.floor(tick / spacing) * spacing
    const count = 2 + Math.floor(rand() * 5)
    for (let p = 0; p < count; p++) {
      const width = p === 0 ? 400 : 2 + Math.floor(logUniform(1, 300))
      const centre = p === 0 ? base : base + spacing * Math.round(uniform(-width, width) / 2)
      const lower = centre - spacing * Math.ceil(width / 2),
        upper = centre + spacing * Math.ceil(width / 2 + 1)
      // liquidity holding about its share of tvl in token1 across the range's lower half
      const share = (tvl / count / t1.usd) * 10 ** t1.decimals
      const liquidity = share / (sqrtP * Math.max(1e-6, 1 - 1.0001 ** (-(upper - lower) / 4)))
      if (Number.isFinite(liquidity) && liquidity >= 1)
        positions.push({ lower, upper, liquidity: BigInt(Math.floor(liquidity)) })
    }
    const pool = v3Pool(nextPool(), t0.address, t1.address, fee, spacing, tick, positions)
    pools.push(pool)
    poolMeta[pool.address] = { protocol: 'uniswap-v3', poolType: 'v3', fee }
  }

  const stables = tokens.filter(t => t.stable)
  for (let n = 0; n < counts.stable; n++) {
    const coins = [...stables].sort(() => rand() - 0.5).slice(0, rand() < 0.5 ? 2 : 3)
    const size = logUniform(1e6, 2e8)
    const pool: StablePool = {
      kind: 'stable',
      address: nextPool(),
      coins: coins.map(c => c.address),
      balances: coins.map(c => raw(size * uniform(0.8, 1.2), c.decimals)),
      A: BigInt(Math.floor(logUniform(20, 2000))) * 100n,
      fee: 4_000_000n,
      rates: coins.map(c => 10n ** BigInt(36 - c.decimals)),
    }
    pools.push(pool)
    poolMeta[pool.address] = { protocol: 'stableswap', poolType: 'stable', fee: 400 }
  }
  return { tokens, pools, poolMeta, counts, rand, raw }
}

function v3Pool(
  addr: Address,
  token0: Address,
  token1: Address,
  fee: number,
  tickSpacing: number,
  tick: number,
  positions: V3Position[],
): V3Pool {
  const sqrtPriceX96 = (getSqrtRatioAtTick(tick) + getSqrtRatioAtTick(tick + 1)) / 2n
  return v3PoolFromPositions({
    address: addr,
    tokenA: token0,
    tokenB: token1,
    fee,
    tickSpacing,
    tick,
    positions,
    sqrtPriceX96,
  })
}
