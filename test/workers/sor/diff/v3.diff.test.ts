// Differential test: our V3 quote against the real UniswapV3Pool (npm artifact) on anvil, to the wei.
// For random pools (every fee tier, random price, positions spread over several 256-tick words) and random
// amounts from 1 wei to far beyond the in-range liquidity, in both directions: the quote equals what
// pool.swap returns in an eth_call, and the executed swap moves exactly those amounts between the wallet and the pool.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { Address } from 'viem'
import { poolContract, uniswapV3Artifact } from '../../../../engine/devchain/deploy/artifacts.js'
import { compress } from '../../../../workers/sor/v3/tickBitmap.js'
import { deployTokenPair } from '../../../../engine/devchain/deploy/erc20.js'
import {
  deployUniswapV3Factory,
  deployV3Callee,
  deployV3PoolLens,
  deployV3PoolWithPositions,
  enableV3FeeAmount,
  type V3PositionSpec,
} from '../../../../engine/devchain/deploy/uniswapV3.js'
import { send } from '../../../../engine/devchain/deploy/clients.js'
import { simulateExactIn, quoteExactIn } from '../../../../workers/sor/pool.js'
import {
  getSqrtRatioAtTick,
  MAX_SQRT_RATIO,
  MIN_SQRT_RATIO,
  MAX_TICK,
  MIN_TICK,
} from '../../../../workers/sor/v3/tickMath.js'
import { startTestChain, type TestChain } from './chain.js'
import { readV3Pool } from './v3State.js'

const TIERS = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
] as const

let chain: TestChain
let factory: Address, callee: Address, lens: Address
const erc20 = () => poolContract('TestERC20').abi
const calleeAbi = () => poolContract('V3Callee').abi

before(async () => {
  chain = await startTestChain()
  factory = await deployUniswapV3Factory(chain.clients)
  await enableV3FeeAmount(chain.clients, factory, 100, 1)
  callee = await deployV3Callee(chain.clients)
  lens = await deployV3PoolLens(chain.clients)
})
after(async () => {
  await chain?.anvil.stop()
})

interface Scenario {
  tier: number
  startTick: number
  priceFraction: bigint // where between the start tick's price and the next one's
  positions: { lower: number; width: number; liquidity: bigint }[] // in compressed ticks, relative to the start
  swaps: { zeroForOne: boolean; amount: bigint }[]
}

// amounts spread over 100 binary orders of magnitude: 1 wei up to ~2^100, far past any position here
const amountArb = fc
  .tuple(fc.integer({ min: 0, max: 100 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
  .map(([e, m]) => 1n + ((m << BigInt(e)) >> 64n))
const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  tier: fc.integer({ min: 0, max: TIERS.length - 1 }),
  startTick: fc.integer({ min: -120_000, max: 120_000 }),
  priceFraction: fc.bigInt({ min: 0n, max: 999n }),
  positions: fc.array(
    fc.record({
      lower: fc.integer({ min: -900, max: 600 }), // +-3.5 words around the start, so swaps cross words
      width: fc.integer({ min: 1, max: 900 }),
      liquidity: fc
        .tuple(fc.integer({ min: 0, max: 80 }), fc.bigInt({ min: 1n, max: 1n << 20n }))
        .map(([e, m]) => m << BigInt(e)),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  swaps: fc.array(fc.record({ zeroForOne: fc.boolean(), amount: amountArb }), { minLength: 2, maxLength: 6 }),
})

async function setUp(s: Scenario): Promise<{ pool: Address; token0: Address; token1: Address; tickSpacing: number }> {
  const [fee, tickSpacing] = TIERS[s.tier]!
  const [token0, token1] = await deployTokenPair(chain.clients)
  const lo = getSqrtRatioAtTick(s.startTick),
    hi = getSqrtRatioAtTick(s.startTick + 1)
  const sqrtPriceX96 = lo + ((hi - lo) * s.priceFraction) / 1000n
  const start = Math.floor(s.startTick / tickSpacing)
  const minC = Math.ceil(MIN_TICK / tickSpacing),
    maxC = Math.floor(MAX_TICK / tickSpacing)
  const positions: V3PositionSpec[] = s.positions
    .map(p => {
      const lower = Math.max(minC, start + p.lower),
        upper = Math.min(maxC, lower + p.width)
      return { tickLower: lower * tickSpacing, tickUpper: upper * tickSpacing, liquidity: p.liquidity }
    })
    .filter(p => p.tickLower < p.tickUpper)
  const pool = await deployV3PoolWithPositions(chain.clients, {
    factory,
    callee,
    token0,
    token1,
    fee,
    sqrtPriceX96,
    positions,
  })
  return { pool, token0, token1, tickSpacing }
}

/** pool.swap through the callee in an eth_call: the pool's (amount0, amount1), or undefined when it reverts. */
async function onChainSwap(pool: Address, zeroForOne: boolean, amount: bigint): Promise<[bigint, bigint] | undefined> {
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  try {
    const { result } = await chain.clients.public.simulateContract({
      address: callee,
      abi: calleeAbi(),
      functionName: 'swap',
      args: [pool, zeroForOne, amount, limit, chain.me],
      account: chain.me,
    })
    return result
  } catch {
    return undefined
  }
}

const wordOf = (tick: number, tickSpacing: number) => compress(tick, tickSpacing) >> 8
const balanceOf = (token: Address) =>
  chain.clients.public.readContract({
    address: token,
    abi: erc20(),
    functionName: 'balanceOf',
    args: [chain.me],
  }) as Promise<bigint>

let swapsCompared = 0,
  swapsExecuted = 0,
  crossedWords = 0,
  revertsMatched = 0

test(
  'V3 exact-input quotes equal UniswapV3Pool.swap to the wei (random pools, all fee tiers, 1 wei to beyond liquidity)',
  { timeout: 480_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async s => {
        const { pool, token0, token1 } = await setUp(s)
        for (const [k, { zeroForOne, amount }] of s.swaps.entries()) {
          const state = await readV3Pool(chain.clients, lens, pool)
          const [tokenIn, tokenOut] = zeroForOne ? [token0, token1] : [token1, token0]
          const sim = simulateExactIn(state, tokenIn, tokenOut, amount)
          const chainResult = await onChainSwap(pool, zeroForOne, amount)
          swapsCompared++
          if (!chainResult) {
            assert.equal(sim.amountOut, 0n, `the pool reverts, the quote must be 0 (${amount} ${zeroForOne})`)
            revertsMatched++
            continue
          }
          const [amount0, amount1] = chainResult
          const [paidIn, paidOut] = zeroForOne ? [amount0, -amount1] : [amount1, -amount0]
          assert.equal(
            quoteExactIn(state, tokenIn, tokenOut, amount),
            paidOut,
            `amountOut for ${amount} (zeroForOne ${zeroForOne})`,
          )
          if (paidOut > 0n) assert.equal(sim.amountIn, paidIn, 'amount the pool takes')

          if (k % 2 === 0) {
            // execute every other swap: the next ones start from the state it leaves
            const [in0, out0] = [await balanceOf(tokenIn), await balanceOf(tokenOut)]
            await send(
              chain.clients,
              callee,
              calleeAbi(),
              'swap',
              [pool, zeroForOne, amount, zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n, chain.me],
              { gas: 500_000_000n },
            ) // anvil's estimate falls short on swaps over thousands of words (63/64 rule in the callee)
            assert.equal(in0 - (await balanceOf(tokenIn)), paidIn, 'wallet paid what the quote said the pool takes')
            assert.equal((await balanceOf(tokenOut)) - out0, paidOut, 'wallet received the quote')
            const [, tickAfter] = (await chain.clients.public.readContract({
              address: pool,
              abi: uniswapV3Artifact('UniswapV3Pool').abi,
              functionName: 'slot0',
            })) as [bigint, number]
            if (wordOf(tickAfter, state.tickSpacing) !== wordOf(state.tick, state.tickSpacing)) crossedWords++
            swapsExecuted++
          }
        }
      }),
      { seed: 20240611, numRuns: 28, endOnFailure: true, includeErrorInReport: true },
    )
    console.log(
      `v3 diff: ${swapsCompared} swaps compared, ${swapsExecuted} executed, ${revertsMatched} reverts matched, ${crossedWords} executed swaps moved the tick to another bitmap word`,
    )
    assert.ok(crossedWords > 0, 'some swaps must cross bitmap words')
  },
)
