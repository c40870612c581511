// The route finder follows the chain by itself, on anvil with the real Uniswap contracts: a pool's new
// state is quoted within a poll interval with no refresh call, a pool created after start is routed, and
// after a reorg (evm_revert) quotes match the new chain again. Every expectation is read from the chain.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { deployWorld, E18, type World } from './fixture.js'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { addV2Liquidity, deployV2PoolWithLiquidity, readV2Reserves } from '../../engine/devchain/deploy/uniswapV2.js'
import { waitFor } from '../relay/helpers.js'

let world: World
let t: TestEngine
before(async () => {
  world = await deployWorld()
  t = await startTestEngine({
    RPC_URL: world.anvil.rpcUrl,
    SOR_PROTOCOLS_FILE: world.protocolsFile,
    TOKENS_FILE: world.tokensFile,
    MULTICALL_ADDRESS: world.multicall,
    SOR_FOLLOW_INTERVAL_MS: '100',
    PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
  })
  await waitFor(health, h => h.follow?.reloads.start === 1 && h.poolsWithState === 7, 30_000)
})
after(async () => {
  await t?.stop()
  await world?.stop()
})

async function health(): Promise<any> {
  return (await fetch(`${t.api}/api/v1/sor/health`)).json()
}
async function quote(tokenIn: string, tokenOut: string, amountIn: bigint): Promise<any> {
  const r = await fetch(
    `${t.api}/api/v1/sor/quote?tokenIn=${tokenIn}&tokenOut=${tokenOut}&amountIn=${amountIn}&maxHops=1&explain=false`,
  )
  return { status: r.status, ...((await r.json()) as object) }
}
const rpc = async (method: string, params: unknown[] = []) =>
  (
    (await (
      await fetch(world.anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()) as { result: any }
  ).result

/** What UniswapV2Pair pays for `amountIn` of `tokenIn`, from its reserves on chain now (fee 0.3%). */
async function v2Out(pair: `0x${string}`, tokenIn: string, tokenOut: string, amountIn: bigint): Promise<bigint> {
  const { reserve0, reserve1 } = await readV2Reserves(world.clients, pair)
  const [rIn, rOut] = tokenIn.toLowerCase() < tokenOut.toLowerCase() ? [reserve0, reserve1] : [reserve1, reserve0]
  return (amountIn * 997n * rOut) / (rIn * 1000n + amountIn * 997n)
}

test("a pool's new state is quoted within a poll interval, with no refresh call", async () => {
  const { ISO, MID } = world.tokens
  const amountIn = 50n * E18
  const before = await quote(ISO, MID, amountIn)
  assert.equal(BigInt(before.summary.amountOut), await v2Out(world.pools.v2IM, ISO, MID, amountIn))
  await addV2Liquidity(world.clients, world.pools.v2IM, ISO, MID, 300n * E18, 100n * E18) // Sync: the price moves
  const expected = await v2Out(world.pools.v2IM, ISO, MID, amountIn)
  assert.notEqual(expected, BigInt(before.summary.amountOut))
  const head = BigInt(await rpc('eth_blockNumber'))
  const after = await waitFor(
    () => quote(ISO, MID, amountIn),
    q => BigInt(q.summary.amountOut) === expected,
    5_000,
  )
  assert.ok(BigInt(after.meta.asOfBlock) >= head, 'the quote says which block it is as of')
  const h = await health()
  assert.equal(h.follow.reloads.start, 1)
  assert.equal(h.follow.reloads.reorg, 0, 'followed by logs, not reloaded')
  assert.ok(h.follow.poolsReread >= 1 && h.follow.lagBlocks >= 0)
})

test('a pool created after start is found and routed', async () => {
  const { LONE, AAA } = world.tokens
  const pair = await deployV2PoolWithLiquidity(world.clients, world.v2Factory, LONE, AAA, 400n * E18, 200n * E18)
  const amountIn = 10n * E18
  const expected = await v2Out(pair, LONE, AAA, amountIn)
  const q = await waitFor(
    () => quote(LONE, AAA, amountIn),
    r => r.status === 200 && BigInt(r.summary.amountOut) === expected,
    10_000,
  )
  assert.equal(q.routes[0].pools[0].address.toLowerCase(), pair.toLowerCase())
})

test('after a reorg the quotes match the new chain, and the reload is counted', async () => {
  const { ISO, MID } = world.tokens
  const amountIn = 20n * E18
  const snapshot = await rpc('evm_snapshot')
  const original = await v2Out(world.pools.v2IM, ISO, MID, amountIn)
  await addV2Liquidity(world.clients, world.pools.v2IM, ISO, MID, 50n * E18, 400n * E18)
  const moved = await v2Out(world.pools.v2IM, ISO, MID, amountIn)
  await waitFor(
    () => quote(ISO, MID, amountIn),
    q => BigInt(q.summary.amountOut) === moved,
    5_000,
  )
  assert.equal(await rpc('evm_revert', [snapshot]), true) // the blocks since the snapshot are gone
  await rpc('evm_mine')
  assert.equal(await v2Out(world.pools.v2IM, ISO, MID, amountIn), original)
  await waitFor(
    () => quote(ISO, MID, amountIn),
    q => BigInt(q.summary.amountOut) === original,
    10_000,
  )
  const h = await health()
  assert.ok(h.follow.reloads.reorg >= 1, JSON.stringify(h.follow))
  const metrics = await (await fetch(`${t.api}/metrics`)).text()
  assert.ok(Number(/^sor_follow_reloads_total\{reason="reorg"\} (\d+)/m.exec(metrics)?.[1]) >= 1)
})

test('a V3 swap on chain is followed: the next quote equals UniswapV3Pool.swap on the new state, with no refresh call', async () => {
  const { send } = await import('../../engine/devchain/deploy/clients.js')
  const { poolContract } = await import('../../engine/devchain/deploy/artifacts.js')
  const { MAX_SQRT_RATIO, MIN_SQRT_RATIO } = await import('../../workers/sor/v3/tickMath.js')
  const { AAA, BBB } = world.tokens
  const pool = world.pools.v3AB
  const zeroForOne = AAA.toLowerCase() < BBB.toLowerCase() // AAA in
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n
  const onChain = async (amount: bigint) => {
    const { result } = await world.clients.public.simulateContract({
      address: world.callee,
      abi: poolContract('V3Callee').abi,
      functionName: 'swap',
      args: [pool, zeroForOne, amount, limit, world.me],
      account: world.me,
      gas: 500_000_000n,
    })
    const [a0, a1] = result as [bigint, bigint]
    return zeroForOne ? -a1 : -a0
  }
  const v3Quote = async (amount: bigint) =>
    (await (
      await fetch(
        `${t.api}/api/v1/sor/quote?tokenIn=${AAA}&tokenOut=${BBB}&amountIn=${amount}&maxHops=1&slugs=uniswap-v3&explain=false`,
      )
    ).json()) as any
  const amount = 5n * E18
  const before = await onChain(amount)
  assert.equal(BigInt((await v3Quote(amount)).summary.amountOut), before)
  await send(
    world.clients,
    world.callee,
    poolContract('V3Callee').abi,
    'swap',
    [pool, zeroForOne, 40n * E18, limit, world.me],
    { gas: 5_000_000n },
  )
  const expected = await onChain(amount) // the pool after the swap
  assert.ok(expected < before, 'the swap moved the price')
  await waitFor(
    () => v3Quote(amount),
    q => BigInt(q.summary.amountOut) === expected,
    5_000,
  )
})
