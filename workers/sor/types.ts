// The pool states the route finder quotes against: plain data, structured-cloneable, read from chain by the engine.
export type Address = `0x${string}` // always lowercase

/** A constant-product pair (Uniswap V2 and its forks). */
export interface V2Pool {
  kind: 'v2'
  address: Address
  token0: Address
  token1: Address
  reserve0: bigint
  reserve1: bigint
  feePpm: number /* 3000 = 0.30% */
}

export interface V3Tick {
  tick: number
  liquidityNet: bigint
}

/** A concentrated-liquidity pool (Uniswap V3), with the part of its tick bitmap that was loaded. */
export interface V3Pool {
  kind: 'v3'
  address: Address
  token0: Address
  token1: Address
  fee: number /* pips, 3000 = 0.30% */
  tickSpacing: number
  sqrtPriceX96: bigint
  liquidity: bigint
  tick: number
  bitmap: Record<
    string,
    bigint
  > /* wordPos (int16 as decimal string) -> 256-bit word, for every word that was loaded; a word of wordRange missing here is read as 0 */
  ticks: V3Tick[] /* initialized ticks within the loaded words, ascending */
  wordRange: [
    number,
    number,
  ] /* inclusive range of wordPos that was loaded; a swap that would step outside stops there (treated as no more liquidity) */
}

/**
 * A stable-swap pool: contracts/pools/StableSwapPool.sol (Curve StableSwap invariant).
 * A is stored as the contract stores it, already multiplied by A_PRECISION (100); fee is in 1e10 units;
 * rates[i] = 10^(36 - decimals_i), so xp[i] = balances[i] * rates[i] / 1e18 is an 18-decimal amount.
 */
export interface StablePool {
  kind: 'stable'
  address: Address
  coins: Address[]
  balances: bigint[]
  A: bigint /* as the contract stores it */
  fee: bigint /* contract units */
  rates: bigint[] /* per-coin precision multipliers as the contract uses */
}

export type PoolState = V2Pool | V3Pool | StablePool

export type PoolType = 'v2' | 'v3' | 'stable'
/** What the engine knows of a pool beyond its state: its protocol's slug, kind and fee in pips. */
export interface PoolMeta {
  protocol: string /* slug */
  poolType: PoolType
  fee: number
}
