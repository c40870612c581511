// The state a V3 pool holds after positions were minted and its price sits in `tick`: every
// position boundary is an initialized tick (even where the nets cancel, as on chain), the bitmap
// marks them, and the active liquidity is the sum of positions spanning the tick. For tests,
// benches and synthetic graphs; the engine reads real pools from chain.
import type { Address, V3Pool } from '../types.js'
import { compress, position } from './tickBitmap.js'
import { getSqrtRatioAtTick } from './tickMath.js'

export interface V3Position {
  lower: number
  upper: number
  liquidity: bigint
}

export interface V3PoolSpec {
  address: Address
  tokenA: Address
  tokenB: Address
  fee: number
  tickSpacing: number
  tick: number
  positions: readonly V3Position[]
  /** default: the price at the tick's lower edge */
  sqrtPriceX96?: bigint
  /** default: one word either side of the tick and of every initialized tick */
  wordRange?: [number, number]
}

export function v3PoolFromPositions({
  address,
  tokenA,
  tokenB,
  fee,
  tickSpacing,
  tick,
  positions,
  sqrtPriceX96,
  wordRange,
}: V3PoolSpec): V3Pool {
  const [token0, token1] = tokenA < tokenB ? [tokenA, tokenB] : [tokenB, tokenA]
  const nets = new Map<number, bigint>()
  let liquidity = 0n
  for (const p of positions) {
    nets.set(p.lower, (nets.get(p.lower) ?? 0n) + p.liquidity)
    nets.set(p.upper, (nets.get(p.upper) ?? 0n) - p.liquidity)
    if (p.lower <= tick && tick < p.upper) liquidity += p.liquidity
  }
  const ticks = [...nets].map(([t, liquidityNet]) => ({ tick: t, liquidityNet })).sort((a, b) => a.tick - b.tick)
  const bitmap: Record<string, bigint> = {}
  for (const { tick: t } of ticks) {
    const { wordPos, bitPos } = position(compress(t, tickSpacing))
    bitmap[wordPos] = (bitmap[wordPos] ?? 0n) | (1n << BigInt(bitPos))
  }
  const words = [tick, ...ticks.map(t => t.tick)].map(t => position(compress(t, tickSpacing)).wordPos)
  return {
    kind: 'v3',
    address,
    token0,
    token1,
    fee,
    tickSpacing,
    sqrtPriceX96: sqrtPriceX96 ?? getSqrtRatioAtTick(tick),
    liquidity,
    tick,
    bitmap,
    ticks,
    wordRange: wordRange ?? [Math.min(...words) - 1, Math.max(...words) + 1],
  }
}
