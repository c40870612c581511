// Differential test: our V2 quote against the real UniswapV2Pair (npm artifact) on anvil, exact both ways: after
// sending amountIn to the pair, swap(quote) succeeds and pays the quote, and swap(quote + 1) reverts with 'UniswapV2: K'.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { Address } from 'viem'
import { poolContract, uniswapV2Artifact } from '../../../../engine/devchain/deploy/artifacts.js'
import { deployTokenPair, mintTestToken } from '../../../../engine/devchain/deploy/erc20.js'
import {
  deployUniswapV2Factory,
  deployV2PoolWithLiquidity,
  readV2Reserves,
} from '../../../../engine/devchain/deploy/uniswapV2.js'
import { send } from '../../../../engine/devchain/deploy/clients.js'
import { quoteExactIn } from '../../../../workers/sor/pool.js'
import type { V2Pool } from '../../../../workers/sor/types.js'
import { startTestChain, type TestChain } from './chain.js'

let chain: TestChain
let factory: Address
before(async () => {
  chain = await startTestChain()
  factory = await deployUniswapV2Factory(chain.clients)
})
after(async () => {
  await chain?.anvil.stop()
})

const pairAbi = () => uniswapV2Artifact('UniswapV2Pair').abi
const erc20 = () => poolContract('TestERC20').abi
const magnitude = (maxExp: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxExp }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
    .map(([e, m]) => 1n + ((m << BigInt(e)) >> 64n))

async function readPool(pair: Address, token0: Address, token1: Address): Promise<V2Pool> {
  const { reserve0, reserve1 } = await readV2Reserves(chain.clients, pair)
  return { kind: 'v2', address: pair, token0, token1, reserve0, reserve1, feePpm: 3000 }
}

async function swapReverts(pair: Address, out0: bigint, out1: bigint): Promise<string | undefined> {
  try {
    await chain.clients.public.simulateContract({
      address: pair,
      abi: pairAbi(),
      functionName: 'swap',
      args: [out0, out1, chain.me, '0x'],
      account: chain.me,
    })
    return undefined
  } catch (e) {
    return String((e as Error).message)
  }
}

let compared = 0,
  zeros = 0
test('V2 quotes are exactly the largest output UniswapV2Pair.swap accepts', { timeout: 240_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        r0: magnitude(100),
        r1: magnitude(100),
        swaps: fc.array(fc.record({ zeroForOne: fc.boolean(), amount: magnitude(104) }), {
          minLength: 1,
          maxLength: 5,
        }),
      }),
      async ({ r0, r1, swaps }) => {
        const [token0, token1] = await deployTokenPair(chain.clients)
        const pair = await deployV2PoolWithLiquidity(chain.clients, factory, token0, token1, r0 + 1001n, r1 + 1001n)
        for (const { zeroForOne, amount } of swaps) {
          const pool = await readPool(pair, token0, token1)
          const [tokenIn, tokenOut] = zeroForOne ? [token0, token1] : [token1, token0]
          const quote = quoteExactIn(pool, tokenIn, tokenOut, amount)
          await mintTestToken(chain.clients, tokenIn, pair, amount) // the amount in, sent to the pair as the router does
          const outs = (x: bigint): [bigint, bigint] => (zeroForOne ? [0n, x] : [x, 0n])
          assert.match(
            (await swapReverts(pair, ...outs(quote + 1n))) ?? 'did not revert',
            /UniswapV2: K|INSUFFICIENT_LIQUIDITY|OVERFLOW/,
            'one wei more must revert',
          )
          compared++
          if (quote === 0n) {
            zeros++
            await send(chain.clients, pair, pairAbi(), 'skim', [chain.me]) // take the unswappable input back out
            continue
          }
          const before = (await chain.clients.public.readContract({
            address: tokenOut,
            abi: erc20(),
            functionName: 'balanceOf',
            args: [chain.me],
          })) as bigint
          await send(chain.clients, pair, pairAbi(), 'swap', [...outs(quote), chain.me, '0x'])
          const afterSwap = (await chain.clients.public.readContract({
            address: tokenOut,
            abi: erc20(),
            functionName: 'balanceOf',
            args: [chain.me],
          })) as bigint
          assert.equal(afterSwap - before, quote, 'the pair paid the quote')
        }
      },
    ),
    { seed: 424242, numRuns: 30, endOnFailure: true, includeErrorInReport: true },
  )
  console.log(`v2 diff: ${compared} swaps compared (${zeros} where the pair pays nothing)`)
})

test("a quote is 0 when the new balance would overflow the pair's uint112 reserves", async () => {
  const [token0, token1] = await deployTokenPair(chain.clients)
  const pair = await deployV2PoolWithLiquidity(chain.clients, factory, token0, token1, 10n ** 24n, 10n ** 24n)
  const pool = await readPool(pair, token0, token1)
  const amount = (1n << 112n) - pool.reserve0 // one more than fits
  assert.equal(quoteExactIn(pool, token0, token1, amount), 0n)
  assert.ok(quoteExactIn(pool, token0, token1, amount - 1n) > 0n)
  await mintTestToken(chain.clients, token0, pair, amount)
  assert.match((await swapReverts(pair, 0n, 1n)) ?? 'did not revert', /UniswapV2: OVERFLOW/)
})
