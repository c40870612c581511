// Pool-state builders for the route-search tests: plain V2, V3 (positions -> ticks and bitmap)
// and stable-swap states, shaped as the engine reads them from chain.
import type { Address, StablePool, V2Pool, V3Pool } from '../../../../workers/sor/types.js'
import { getSqrtRatioAtTick } from '../../../../workers/sor/v3/tickMath.js'

export const token = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
export const poolAddress = (n: number): Address => `0x${(0xa0000 + n).toString(16).padStart(40, 'f')}` as Address

export function v2(address: Address, a: Address, b: Address, reserveA: bigint, reserveB: bigint, feePpm = 3000): V2Pool {
  return a < b
    ? { kind: 'v2', address, token0: a, token1: b, reserve0: reserveA, reserve1: reserveB, feePpm }
    : { kind: 'v2', address, token0: b, token1: a, reserve0: reserveB, reserve1: reserveA, feePpm }
}

export interface Position { lower: number; upper: number; liquidity: bigint }

/** A V3 pool of token0 < token1 at `tick` (price between that tick and the next), with these positions. */
export function v3(address: Address, a: Address, b: Address, { fee = 3000, tickSpacing = 60, tick, positions }:
  { fee?: number; tickSpacing?: number; tick: number; positions: Position[] }): V3Pool {
  const [token0, token1] = a < b ? [a, b] : [b, a]
  const net = new Map<number, bigint>()
  let liquidity = 0n
  for (const p of positions) {
    net.set(p.lower, (net.get(p.lower) ?? 0n) + p.liquidity)
    net.set(p.upper, (net.get(p.upper) ?? 0n) - p.liquidity)
    if (p.lower <= tick && tick < p.upper) liquidity += p.liquidity
  }
  const ticks = [...net].filter(([, n]) => n !== 0n).sort((x, y) => x[0] - y[0]).map(([t, liquidityNet]) => ({ tick: t, liquidityNet }))
  const bitmap: Record<string, bigint> = {}
  const word = (t: number) => Math.floor(t / tickSpacing) >> 8
  for (const { tick: t } of ticks) {
    const compressed = Math.floor(t / tickSpacing)
    bitmap[String(compressed >> 8)] = (bitmap[String(compressed >> 8)] ?? 0n) | (1n << BigInt(compressed & 0xff))
  }
  const words = [word(tick), ...ticks.map(t => word(t.tick))]
  const sqrtPriceX96 = (getSqrtRatioAtTick(tick) + getSqrtRatioAtTick(tick + 1)) / 2n
  return { kind: 'v3', address, token0, token1, fee, tickSpacing, sqrtPriceX96, liquidity, tick, bitmap, ticks,
    wordRange: [Math.min(...words) - 1, Math.max(...words) + 1] }
}

export function stable(address: Address, coins: Address[], balances: bigint[], decimals: number[], A = 200n, fee = 4_000_000n): StablePool {
  return { kind: 'stable', address, coins, balances, A: A * 100n, fee, rates: decimals.map(d => 10n ** BigInt(36 - d)) }
}
