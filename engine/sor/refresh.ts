// Pool state at ONE block, in the PoolState shapes of workers/sor/types.ts. Three rounds of reads,
// every one pinned to that block: (1) reserves / slot0, liquidity, fee, tickSpacing / balances, A, fee,
// rates; (2) the tick-bitmap words within SOR_V3_WORDS of each V3 pool's current word; (3) liquidityNet
// of every initialized tick in those words. A pool whose reads fail is reported, not fatal.
import type { PublicClient } from 'viem'
import type { Address, PoolState, StablePool, V2Pool, V3Pool, V3Tick } from '../../workers/sor/types.js'
import { compress, fullWordRange, position } from '../../workers/sor/v3/tickBitmap.js'
import { readAll, type ContractRead } from '../chain/multicall.js'
import type { TrackedPool } from '../store/sor.js'
import { stablePoolAbi, v2PairAbi, v3PoolAbi } from './abis.js'

export interface LoadOptions {
  blockNumber: bigint
  multicallAddress?: Address
  /** bitmap words loaded on each side of a V3 pool's current word */
  wordsAround: number
  /** words a V3 pool must also cover (fetched on demand by a quote that walked past its loaded range) */
  wordRanges?: ReadonlyMap<Address, readonly [number, number]>
}

export interface LoadResult {
  states: PoolState[]
  failed: { address: Address; error: string }[]
}

export async function loadPoolStates(
  client: PublicClient,
  pools: readonly TrackedPool[],
  o: LoadOptions,
): Promise<LoadResult> {
  const read = (reads: ContractRead[]) =>
    readAll(client, reads, { blockNumber: o.blockNumber, multicallAddress: o.multicallAddress })
  const failed: LoadResult['failed'] = []
  const states: PoolState[] = []

  // round 1: the scalar state of every pool
  const plans = pools.map(p => ({ pool: p, reads: firstReads(p) }))
  const first = await read(plans.flatMap(x => x.reads))
  const v3: { pool: TrackedPool; base: Omit<V3Pool, 'bitmap' | 'ticks' | 'wordRange'> }[] = []
  let k = 0
  for (const { pool, reads } of plans) {
    const results = first.slice(k, (k += reads.length))
    const bad = results.find((r): r is { ok: false; error: string } => !r.ok)
    if (bad) {
      failed.push({ address: pool.address, error: bad.error })
      continue
    }
    const values = results.map(r => (r as { result: unknown }).result)
    if (pool.poolType === 'v2') states.push(v2State(pool, values))
    else if (pool.poolType === 'stable') states.push(stableState(pool, values))
    else v3.push({ pool, base: v3Base(pool, values) })
  }

  // round 2: bitmap words around each V3 pool's current tick
  const wordPlans = v3.map(({ pool, base }) => {
    const [lo, hi] = fullWordRange(base.tickSpacing)
    const here = position(compress(base.tick, base.tickSpacing)).wordPos
    const extra = o.wordRanges?.get(pool.address)
    const range: [number, number] = [
      Math.max(lo, Math.min(here - o.wordsAround, extra?.[0] ?? Infinity)),
      Math.min(hi, Math.max(here + o.wordsAround, extra?.[1] ?? -Infinity)),
    ]
    const words: number[] = []
    for (let w = range[0]; w <= range[1]; w++) words.push(w)
    return { pool, base, range, words }
  })
  const wordResults = await read(
    wordPlans.flatMap(x =>
      x.words.map(w => ({ address: x.pool.address, abi: v3PoolAbi, functionName: 'tickBitmap', args: [w] })),
    ),
  )

  // round 3: liquidityNet of every initialized tick in those words
  k = 0
  const tickPlans: {
    pool: TrackedPool
    base: (typeof v3)[number]['base']
    range: [number, number]
    bitmap: Record<string, bigint>
    ticks: number[]
    error?: string
  }[] = []
  for (const { pool, base, range, words } of wordPlans) {
    const results = wordResults.slice(k, (k += words.length))
    const bitmap: Record<string, bigint> = {}
    const ticks: number[] = []
    let error: string | undefined
    results.forEach((r, i) => {
      if (!r.ok) {
        error ??= r.error
        return
      }
      const word = r.result as bigint
      if (word === 0n) return
      const wordPos = words[i]!
      bitmap[String(wordPos)] = word
      for (let bit = 0; bit < 256; bit++)
        if ((word >> BigInt(bit)) & 1n) ticks.push(((wordPos << 8) + bit) * base.tickSpacing)
    })
    tickPlans.push({ pool, base, range, bitmap, ticks: ticks.sort((a, b) => a - b), error })
  }
  const tickResults = await read(
    tickPlans.flatMap(x =>
      x.error ? [] : x.ticks.map(t => ({ address: x.pool.address, abi: v3PoolAbi, functionName: 'ticks', args: [t] })),
    ),
  )
  k = 0
  for (const plan of tickPlans) {
    if (plan.error) {
      failed.push({ address: plan.pool.address, error: plan.error })
      continue
    }
    const results = tickResults.slice(k, (k += plan.ticks.length))
    const bad = results.find((r): r is { ok: false; error: string } => !r.ok)
    if (bad) {
      failed.push({ address: plan.pool.address, error: bad.error })
      continue
    }
    const ticks: V3Tick[] = plan.ticks.map((tick, i) => ({
      tick,
      liquidityNet: (results[i] as { result: readonly unknown[] }).result[1] as bigint,
    }))
    states.push({ ...plan.base, bitmap: plan.bitmap, ticks, wordRange: plan.range })
  }
  return { states, failed }
}

function firstReads(p: TrackedPool): ContractRead[] {
  const address = p.address
  switch (p.poolType) {
    case 'v2':
      return [{ address, abi: v2PairAbi, functionName: 'getReserves' }]
    case 'v3':
      return ['slot0', 'liquidity', 'fee', 'tickSpacing'].map(functionName => ({
        address,
        abi: v3PoolAbi,
        functionName,
      }))
    case 'stable':
      return ['get_coins', 'get_balances', 'A_precise', 'fee', 'get_rates'].map(functionName => ({
        address,
        abi: stablePoolAbi,
        functionName,
      }))
  }
}

function v2State(p: TrackedPool, [reserves]: unknown[]): V2Pool {
  const [reserve0, reserve1] = reserves as readonly [bigint, bigint, number]
  return {
    kind: 'v2',
    address: p.address,
    token0: p.tokens[0]!,
    token1: p.tokens[1]!,
    reserve0,
    reserve1,
    feePpm: p.fee,
  }
}

function v3Base(
  p: TrackedPool,
  [slot0, liquidity, fee, tickSpacing]: unknown[],
): Omit<V3Pool, 'bitmap' | 'ticks' | 'wordRange'> {
  const s = slot0 as readonly [bigint, number, ...unknown[]]
  return {
    kind: 'v3',
    address: p.address,
    token0: p.tokens[0]!,
    token1: p.tokens[1]!,
    fee: Number(fee),
    tickSpacing: Number(tickSpacing),
    sqrtPriceX96: s[0],
    tick: Number(s[1]),
    liquidity: liquidity as bigint,
  }
}

function stableState(p: TrackedPool, [coins, balances, A, fee, rates]: unknown[]): StablePool {
  return {
    kind: 'stable',
    address: p.address,
    coins: (coins as string[]).map(c => c.toLowerCase() as Address),
    balances: [...(balances as readonly bigint[])],
    A: A as bigint,
    fee: fee as bigint,
    rates: [...(rates as readonly bigint[])],
  }
}
