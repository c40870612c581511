// One entry point over the three pool kinds: which tokens a pool trades and what it pays, exactly.
import { swapExactIn as v2SwapExactIn } from './v2.js'
import { swap as v3Swap } from './v3/swap.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from './v3/tickMath.js'
import { MAX_INT256 } from './v3/evm.js'
import { getDy } from './stable/stableSwap.js'
import type { Address, PoolState, StablePool, V2Pool, V3Pool } from './types.js'

export function poolTokens(pool: PoolState): Address[] {
  return pool.kind === 'stable' ? [...pool.coins] : [pool.token0, pool.token1]
}

export interface ExactInResult {
  /** what the pool pays out */
  amountOut: bigint
  /** what the pool takes: less than the amount offered only when a V3 pool runs out of liquidity (or of loaded words) */
  amountIn: bigint
}

/**
 * What the pool contract does with amountIn of tokenIn offered for tokenOut: V2 `swap` after a transfer of
 * amountIn; V3 `swap` with exact input and no price limit (MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO - 1); stable
 * `exchange(i, j, amountIn, 0)`. { 0n, 0n } wherever the contract would revert or the pool does not trade the pair.
 */
export function simulateExactIn(pool: PoolState, tokenIn: Address, tokenOut: Address, amountIn: bigint): ExactInResult {
  const none = { amountOut: 0n, amountIn: 0n }
  if (!(amountIn > 0n) || tokenIn === tokenOut) return none
  try {
    switch (pool.kind) {
      case 'v2':
        return v2ExactIn(pool, tokenIn, tokenOut, amountIn) ?? none
      case 'v3':
        return v3ExactIn(pool, tokenIn, tokenOut, amountIn) ?? none
      case 'stable':
        return stableExactIn(pool, tokenIn, tokenOut, amountIn) ?? none
    }
  } catch {
    return none // the contract reverts here; a quote never throws
  }
}

/** Exact output the pool contract would pay for amountIn of tokenIn -> tokenOut; 0n when the pool cannot fill any of it. Never throws for amounts >= 0. */
export function quoteExactIn(pool: PoolState, tokenIn: Address, tokenOut: Address, amountIn: bigint): bigint {
  return simulateExactIn(pool, tokenIn, tokenOut, amountIn).amountOut
}

/**
 * The zero-size marginal rate (tokenOut per tokenIn, raw units, after the fee) for an optimiser's first guess:
 * a float, not a quote. 0 when the pool does not trade the pair or holds nothing.
 */
export function marginalRate(pool: PoolState, tokenIn: Address, tokenOut: Address): number {
  if (tokenIn === tokenOut) return 0
  switch (pool.kind) {
    case 'v2': {
      const zeroForOne = direction(pool, tokenIn, tokenOut)
      if (zeroForOne === undefined || pool.reserve0 === 0n || pool.reserve1 === 0n) return 0
      const price = Number(pool.reserve1) / Number(pool.reserve0)
      return (zeroForOne ? price : 1 / price) * (1 - pool.feePpm / 1e6)
    }
    case 'v3': {
      const zeroForOne = direction(pool, tokenIn, tokenOut)
      if (zeroForOne === undefined || pool.liquidity === 0n) return 0
      const sqrt = Number(pool.sqrtPriceX96) / 2 ** 96
      return (zeroForOne ? sqrt * sqrt : 1 / (sqrt * sqrt)) * (1 - pool.fee / 1e6)
    }
    case 'stable': {
      // a probe of a millionth of the input balance: small enough to be marginal, large enough to beat rounding
      const i = pool.coins.indexOf(tokenIn)
      const probe = i < 0 ? 0n : pool.balances[i]! / 1_000_000n
      if (probe === 0n) return 0
      return Number(quoteExactIn(pool, tokenIn, tokenOut, probe)) / Number(probe)
    }
  }
}

function direction(pool: V2Pool | V3Pool, tokenIn: Address, tokenOut: Address): boolean | undefined {
  if (tokenIn === pool.token0 && tokenOut === pool.token1) return true
  if (tokenIn === pool.token1 && tokenOut === pool.token0) return false
  return undefined
}

function v2ExactIn(pool: V2Pool, tokenIn: Address, tokenOut: Address, amountIn: bigint): ExactInResult | undefined {
  const zeroForOne = direction(pool, tokenIn, tokenOut)
  if (zeroForOne === undefined) return undefined
  return { amountOut: v2SwapExactIn(pool, zeroForOne, amountIn), amountIn }
}

function v3ExactIn(pool: V3Pool, tokenIn: Address, tokenOut: Address, amountIn: bigint): ExactInResult | undefined {
  const zeroForOne = direction(pool, tokenIn, tokenOut)
  if (zeroForOne === undefined || amountIn > MAX_INT256) return undefined // amountSpecified is an int256
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const { amount0, amount1 } = v3Swap(pool, zeroForOne, amountIn, limit)
  const [taken, paid] = zeroForOne ? [amount0, -amount1] : [amount1, -amount0]
  return paid > 0n ? { amountOut: paid, amountIn: taken } : undefined
}

function stableExactIn(
  pool: StablePool,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
): ExactInResult | undefined {
  const i = pool.coins.indexOf(tokenIn)
  const j = pool.coins.indexOf(tokenOut)
  if (i < 0 || j < 0) return undefined
  return { amountOut: getDy(pool, i, j, amountIn), amountIn }
}
