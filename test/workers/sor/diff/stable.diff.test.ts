// Differential test: our stable-swap quote against contracts/pools/StableSwapPool.sol on anvil, to the wei:
// for random 2- and 3-coin pools (mixed decimals, A from 1 to 5000, fees up to 1%, balanced and lopsided) the
// quote equals what exchange(i, j, dx, 0) returns in an eth_call (0 where it reverts), and executed exchanges
// pay it and leave the balances our model predicts.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { Address } from 'viem'
import { poolContract } from '../../../../engine/devchain/deploy/artifacts.js'
import { approveToken, deployTestToken, mintTestToken } from '../../../../engine/devchain/deploy/erc20.js'
import { addStableLiquidity, deployStableSwapPool } from '../../../../engine/devchain/deploy/stableSwap.js'
import { send } from '../../../../engine/devchain/deploy/clients.js'
import { quoteExactIn } from '../../../../workers/sor/pool.js'
import { exchange } from '../../../../workers/sor/stable/stableSwap.js'
import type { StablePool } from '../../../../workers/sor/types.js'
import { startTestChain, type TestChain } from './chain.js'

let chain: TestChain
before(async () => {
  chain = await startTestChain()
})
after(async () => {
  await chain?.anvil.stop()
})

const stableAbi = () => poolContract('StableSwapPool').abi
const erc20 = () => poolContract('TestERC20').abi
const magnitude = (maxExp: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxExp }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }))
    .map(([e, m]) => 1n + ((m << BigInt(e)) >> 64n))

async function readStablePool(pool: Address): Promise<StablePool> {
  const read = (functionName: string) =>
    chain.clients.public.readContract({ address: pool, abi: stableAbi(), functionName }) as Promise<any>
  const [coins, balances, rates, A, fee] = await Promise.all(
    ['get_coins', 'get_balances', 'get_rates', 'A_precise', 'fee'].map(read),
  )
  return {
    kind: 'stable',
    address: pool,
    coins: (coins as string[]).map(c => c.toLowerCase() as Address),
    balances: [...balances],
    A,
    fee,
    rates: [...rates],
  }
}

let compared = 0,
  reverts = 0
test('stable-swap quotes equal StableSwapPool.exchange to the wei', { timeout: 240_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        decimals: fc.array(fc.constantFrom(6, 8, 18), { minLength: 2, maxLength: 3 }),
        A: fc.integer({ min: 1, max: 5000 }),
        fee: fc.integer({ min: 0, max: 100_000_000 }),
        base: magnitude(30), // whole coins, ~1e3 up to ~1e12
        skew: fc.array(fc.tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 })), {
          minLength: 3,
          maxLength: 3,
        }), // up to 1:10^4
        swaps: fc.array(fc.record({ i: fc.nat(2), j: fc.nat(2), wholeOrWei: fc.boolean(), amount: magnitude(44) }), {
          minLength: 2,
          maxLength: 6,
        }),
      }),
      async ({ decimals, A, fee, base, skew, swaps }) => {
        const coins: Address[] = []
        for (const d of decimals) coins.push(await deployTestToken(chain.clients, { decimals: d }))
        const pool = await deployStableSwapPool(chain.clients, { coins, decimals, A: BigInt(A), fee: BigInt(fee) })
        const amounts = decimals.map(
          (d, k) => (((base + 1000n) * BigInt(skew[k]![0])) / BigInt(skew[k]![1])) * 10n ** BigInt(d),
        )
        for (const coin of coins) {
          await mintTestToken(chain.clients, coin, chain.me, 1n << 200n)
          await approveToken(chain.clients, coin, pool)
        }
        await addStableLiquidity(chain.clients, pool, coins, amounts)

        for (const [k, s] of swaps.entries()) {
          const i = s.i % coins.length,
            j = s.j % coins.length
          if (i === j) continue
          const dx = s.wholeOrWei ? (s.amount * 10n ** BigInt(decimals[i]!)) / 1000n + 1n : s.amount // 1 wei up, or coin-sized
          const state = await readStablePool(pool)
          const quote = quoteExactIn(state, coins[i]!, coins[j]!, dx)
          let onChain: bigint
          try {
            const { result } = await chain.clients.public.simulateContract({
              address: pool,
              abi: stableAbi(),
              functionName: 'exchange',
              args: [BigInt(i), BigInt(j), dx, 0n],
              account: chain.me,
            })
            onChain = result
          } catch {
            // the contract reverts: the quote must be 0 too
            onChain = 0n
            reverts++
          }
          compared++
          assert.equal(quote, onChain, `exchange(${i}, ${j}, ${dx})`)
          if (k % 2 === 0 && onChain > 0n) {
            const bal = () =>
              chain.clients.public.readContract({
                address: coins[j]!,
                abi: erc20(),
                functionName: 'balanceOf',
                args: [chain.me],
              }) as Promise<bigint>
            const before = await bal()
            await send(chain.clients, pool, stableAbi(), 'exchange', [BigInt(i), BigInt(j), dx, quote])
            assert.equal((await bal()) - before, quote, 'the pool paid the quote')
            assert.deepEqual(
              (await readStablePool(pool)).balances,
              exchange(state, i, j, dx).balances,
              'balances after the exchange',
            )
          }
        }
      },
    ),
    { seed: 7_777, numRuns: 30, endOnFailure: true, includeErrorInReport: true },
  )
  console.log(`stable diff: ${compared} exchanges compared (${reverts} reverts, quoted 0)`)
  assert.ok(reverts < compared / 2, 'most cases must be real exchanges')
})
