// PoolState <-> JSON: bigints travel as decimal strings (Postgres jsonb, REST replies), and come
// back as bigints when the engine reloads its cache at start.
import type { PoolState, V3Tick } from '../../workers/sor/types.js'

/** The PoolState with every bigint as its decimal string. */
export function stateToJson(s: PoolState): Record<string, unknown> {
  return JSON.parse(JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))
}

/** What JSON makes of a T: every bigint a decimal string. */
type AsJson<T> = T extends bigint ? string : T extends object ? { [K in keyof T]: AsJson<T[K]> } : T

/** A stored state back to a PoolState; `stored` is what stateToJson wrote (jsonb, read back as it was). */
export function stateFromJson(stored: unknown): PoolState {
  const j = stored as AsJson<PoolState>
  switch (j.kind) {
    case 'v2':
      return {
        kind: 'v2',
        address: j.address,
        token0: j.token0,
        token1: j.token1,
        reserve0: BigInt(j.reserve0),
        reserve1: BigInt(j.reserve1),
        feePpm: Number(j.feePpm),
      }
    case 'v3': {
      const bitmap: Record<string, bigint> = {}
      for (const [k, v] of Object.entries(j.bitmap)) bitmap[k] = BigInt(v)
      return {
        kind: 'v3',
        address: j.address,
        token0: j.token0,
        token1: j.token1,
        fee: Number(j.fee),
        tickSpacing: Number(j.tickSpacing),
        sqrtPriceX96: BigInt(j.sqrtPriceX96),
        liquidity: BigInt(j.liquidity),
        tick: Number(j.tick),
        bitmap,
        ticks: j.ticks.map((t): V3Tick => ({ tick: Number(t.tick), liquidityNet: BigInt(t.liquidityNet) })),
        wordRange: [Number(j.wordRange[0]), Number(j.wordRange[1])],
      }
    }
    case 'stable':
      return {
        kind: 'stable',
        address: j.address,
        coins: j.coins,
        balances: j.balances.map(BigInt),
        A: BigInt(j.A),
        fee: BigInt(j.fee),
        rates: j.rates.map(BigInt),
      }
    default:
      throw new Error(`unknown pool state kind ${JSON.stringify((stored as { kind?: unknown } | null)?.kind)}`)
  }
}
