// V3 exact at any size through the engine (#17): a swap that walks past the loaded bitmap words makes the
// quote load the missing words and ticks on demand, so quotes through empty words into distant positions,
// at tick spacings 10 and 60, in both directions, equal UniswapV3Pool.swap (an eth_call through the callee)
// to the wei. SOR_V3_WORDS is the default (4): the far positions are tens of words away.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { deployWorld, E18, type World } from './fixture.js'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { deployTokenPair } from '../../engine/devchain/deploy/erc20.js'
import { deployV3PoolWithPositions } from '../../engine/devchain/deploy/uniswapV3.js'
import { poolContract } from '../../engine/devchain/deploy/artifacts.js'
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../workers/sor/v3/tickMath.js'
import { waitFor } from '../relay/helpers.js'

type Address = `0x${string}`
let world: World
let t: TestEngine
const pools: { spacing: number; fee: number; pool: Address; token0: Address; token1: Address }[] = []

before(async () => {
  world = await deployWorld()
  for (const [fee, spacing] of [
    [500, 10],
    [3000, 60],
  ] as const) {
    const [a, b] = await deployTokenPair(world.clients)
    const [token0, token1] = a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a]
    // a thin position around the price, then nothing for ~200,000 ticks, then deep positions on both sides
    const positions = [
      { tickLower: -600, tickUpper: 600, liquidity: 10n ** 18n },
      { tickLower: -201_000, tickUpper: -199_800, liquidity: 10n ** 22n },
      { tickLower: 199_800, tickUpper: 201_000, liquidity: 10n ** 22n },
    ]
    const pool = await deployV3PoolWithPositions(world.clients, {
      factory: world.v3Factory,
      callee: world.callee,
      token0,
      token1,
      fee,
      sqrtPriceX96: getSqrtRatioAtTick(0),
      positions,
    })
    pools.push({
      spacing,
      fee,
      pool: pool.toLowerCase() as Address,
      token0: token0.toLowerCase() as Address,
      token1: token1.toLowerCase() as Address,
    })
  }
  t = await startTestEngine({
    RPC_URL: world.anvil.rpcUrl,
    SOR_PROTOCOLS_FILE: world.protocolsFile,
    TOKENS_FILE: world.tokensFile,
    MULTICALL_ADDRESS: world.multicall,
    SOR_FOLLOW_INTERVAL_MS: '200',
    PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
  })
  await waitFor(
    async () => ((await (await fetch(`${t.api}/api/v1/sor/health`)).json()) as any).poolsWithState,
    n => n >= 9,
    30_000,
  )
})
after(async () => {
  await t?.stop()
  await world?.stop()
})

/** What the pool pays for exact input `amount`: UniswapV3Pool.swap in an eth_call, through the callee. */
async function onChain(pool: Address, zeroForOne: boolean, amount: bigint): Promise<bigint> {
  const { result } = await world.clients.public.simulateContract({
    address: world.callee,
    abi: poolContract('V3Callee').abi,
    functionName: 'swap',
    args: [pool, zeroForOne, amount, zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n, world.me],
    account: world.me,
    gas: 500_000_000n,
  })
  const [amount0, amount1] = result as [bigint, bigint]
  return zeroForOne ? -amount1 : -amount0
}

test('quotes through empty words into distant positions equal the pool, spacings 10 and 60, both directions', async () => {
  for (const p of pools) {
    for (const zeroForOne of [true, false]) {
      const [tokenIn, tokenOut] = zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0]
      for (const amountIn of [10n ** 15n, 2n * E18, 2_000n * E18, 20_000n * E18]) {
        const expected = await onChain(p.pool, zeroForOne, amountIn)
        const r = await fetch(
          `${t.api}/api/v1/sor/quote?tokenIn=${tokenIn}&tokenOut=${tokenOut}&amountIn=${amountIn}&maxHops=1&explain=false`,
        )
        const q = (await r.json()) as {
          summary: { amountOut: string }
          routes: { pools: { address: string }[] }[]
          warnings: string[]
        }
        assert.equal(
          BigInt(q.summary.amountOut),
          expected,
          `spacing ${p.spacing}, ${zeroForOne ? '0->1' : '1->0'}, ${amountIn} in: ${JSON.stringify(q.warnings)}`,
        )
        assert.ok(
          !q.warnings.some(w => /loaded tick range/.test(w)) || amountIn === 20_000n * E18,
          q.warnings.join('; '),
        )
      }
    }
  }
  // what was fetched stays: the pool's state now covers the far positions
  const h = (await (await fetch(`${t.api}/api/v1/sor/pool-state?address=${pools[0]!.pool}`)).json()) as any
  assert.ok(
    h.state.ticks.some((x: { tick: number }) => x.tick <= -199_800) &&
      h.state.ticks.some((x: { tick: number }) => x.tick >= 199_800),
  )
})

/** UniswapV3Pool.swap to the price limit: the input it really takes and what it pays for it. */
async function onChainPartial(
  pool: Address,
  zeroForOne: boolean,
  amount: bigint,
): Promise<{ taken: bigint; paid: bigint }> {
  const { result } = await world.clients.public.simulateContract({
    address: world.callee,
    abi: poolContract('V3Callee').abi,
    functionName: 'swap',
    args: [pool, zeroForOne, amount, zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n, world.me],
    account: world.me,
    gas: 500_000_000n,
  })
  const [amount0, amount1] = result as [bigint, bigint]
  return zeroForOne ? { taken: amount0, paid: -amount1 } : { taken: amount1, paid: -amount0 }
}

test('past all liquidity the quote is for what the pool takes, equal to the pool, and says "Insufficient liquidity:"', async () => {
  for (const p of pools) {
    for (const zeroForOne of [true, false]) {
      const [tokenIn, tokenOut] = zeroForOne ? [p.token0, p.token1] : [p.token1, p.token0]
      const requested = 10n ** 30n
      const chain = await onChainPartial(p.pool, zeroForOne, requested)
      assert.ok(chain.taken < requested)
      const q = (await (
        await fetch(
          `${t.api}/api/v1/sor/quote?tokenIn=${tokenIn}&tokenOut=${tokenOut}&amountIn=${requested}&maxHops=1&explain=false`,
        )
      ).json()) as any
      assert.equal(
        BigInt(q.summary.amountIn),
        chain.taken,
        `spacing ${p.spacing} ${zeroForOne ? '0->1' : '1->0'}: routed = what the pool takes`,
      )
      assert.equal(BigInt(q.summary.amountOut), chain.paid)
      assert.equal(BigInt(q.routes[0].amountIn), chain.taken)
      const w = q.warnings.find((x: string) => x.startsWith('Insufficient liquidity:'))
      assert.ok(w && w.includes(String(requested)) && w.includes(String(chain.taken)), q.warnings.join('; '))
    }
  }
})

test('a baseline from a partial quote is kept, marked partial, and a fill is never benchmarked against it', async () => {
  const p = pools[1]!
  const { randomBytes } = await import('node:crypto')
  const mk = async (amountIn: bigint) => {
    const id = 'rfq_' + randomBytes(8).toString('hex')
    await t.engine.modules.book.create({
      id,
      taker: `0x${'11'.repeat(20)}`,
      tokenIn: p.token0,
      tokenOut: p.token1,
      kind: 0,
      amountIn,
      amountOut: null,
      expiry: Math.floor(Date.now() / 1000) + 60,
      visibility: 'public',
      allowedMakers: [],
      shareToken: null,
      createdAt: new Date(),
      agentId: null,
    })
    await t.engine.modules.baselines.settled()
    const [b] = await t.db.sql`select partial, amount_in::text from baselines where rfq_id = ${id}`
    return { id, b }
  }
  const whole = await mk(10n ** 15n),
    partial = await mk(10n ** 30n)
  assert.equal(whole.b!.partial, false)
  assert.equal(partial.b!.partial, true)
  assert.ok(BigInt(partial.b!.amount_in) < 10n ** 30n, 'it records what the pools could route')
  for (const [{ id }, benchmarked] of [
    [whole, true],
    [partial, false],
  ] as const) {
    const r = await fetch(`${t.api}/api/v1/fills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        txHash: '0x' + randomBytes(32).toString('hex'),
        taker: `0x${'11'.repeat(20)}`,
        maker: `0x${'22'.repeat(20)}`,
        tokenIn: p.token0,
        tokenOut: p.token1,
        amountIn: '1000',
        amountOut: '1000',
        amountInUsd: 10,
        rfqId: id,
      }),
    })
    assert.equal(r.status, 200)
    const [f] = await t.db.sql`select benchmark_available from fills where rfq_id = ${id}`
    assert.equal(f!.benchmark_available, benchmarked)
    const perf = await fetch(`${t.api}/api/v1/rfq/performance?rfqId=${id}`)
    assert.equal(perf.status, benchmarked ? 200 : 404)
    if (!benchmarked) assert.deepEqual(((await perf.json()) as any).missing, ['baseline'])
  }
})
