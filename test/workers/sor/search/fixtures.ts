// Pool-state builders for the route-search tests: plain V2, V3 (positions -> ticks and bitmap)
// and stable-swap states, shaped as the engine reads them from chain.
import type { Address, StablePool, V2Pool, V3Pool } from '../../../../workers/sor/types.js'
import { getSqrtRatioAtTick } from '../../../../workers/sor/v3/tickMath.js'
import { v3PoolFromPositions, type V3Position } from '../../../../workers/sor/v3/poolFromPositions.js'

export const token = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
export const poolAddress = (n: number): Address => `0x${(0xa0000 + n).toString(16).padStart(40, 'f')}`

export function v2(
  address: Address,
  a: Address,
  b: Address,
  reserveA: bigint,
  reserveB: bigint,
  feePpm = 3000,
): V2Pool {
  return a < b
    ? { kind: 'v2', address, token0: a, token1: b, reserve0: reserveA, reserve1: reserveB, feePpm }
    : { kind: 'v2', address, token0: b, token1: a, reserve0: reserveB, reserve1: reserveA, feePpm }
}

export type Position = V3Position

/** A V3 pool of token0 < token1 at `tick` (price between that tick and the next), with these positions. */
export function v3(
  address: Address,
  a: Address,
  b: Address,
  {
    fee = 3000,
    tickSpacing = 60,
    tick,
    positions,
  }: { fee?: number; tickSpacing?: number; tick: number; positions: Position[] },
): V3Pool {
  const sqrtPriceX96 = (getSqrtRatioAtTick(tick) + getSqrtRatioAtTick(tick + 1)) / 2n
  return v3PoolFromPositions({ address, tokenA: a, tokenB: b, fee, tickSpacing, tick, positions, sqrtPriceX96 })
}

export function stable(
  address: Address,
  coins: Address[],
  balances: bigint[],
  decimals: number[],
  A = 200n,
  fee = 4_000_000n,
): StablePool {
  return { kind: 'stable', address, coins, balances, A: A * 100n, fee, rates: decimals.map(d => 10n ** BigInt(36 - d)) }
}
