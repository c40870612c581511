// Pool state at one block, read two ways: through Multicall3Lite (aggregate3) and as pinned eth_calls. Both give
// the same PoolStates; the V3 snapshot equals an independent read through V3PoolLens over the same words; a
// state read at an older block is that block's, not the head's; the jsonb codec gives back what it was given.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Address } from 'viem'
import { deployWorld, E18, type World } from './fixture.js'
import { createChainClient } from '../../engine/chain/client.js'
import { loadPoolStates } from '../../engine/sor/refresh.js'
import { stateFromJson, stateToJson } from '../../engine/sor/stateCodec.js'
import { deployV3PoolLens } from '../../engine/devchain/deploy/uniswapV3.js'
import { send } from '../../engine/devchain/deploy/clients.js'
import { uniswapV2Artifact } from '../../engine/devchain/deploy/artifacts.js'
import { mintTestToken } from '../../engine/devchain/deploy/erc20.js'
import { readV3Pool } from '../workers/sor/diff/v3State.js'
import type { TrackedPool } from '../../engine/store/sor.js'
import type { V2Pool, V3Pool } from '../../workers/sor/types.js'

let world: World
before(async () => {
  world = await deployWorld()
})
after(async () => {
  await world?.stop()
})

function tracked(): TrackedPool[] {
  const { AAA, BBB, MID, ISO } = world.tokens
  const sorted = (a: Address, b: Address): Address[] => (a < b ? [a, b] : [b, a])
  const p = world.pools
  const v2 = (address: Address, a: Address, b: Address): TrackedPool => ({
    address,
    protocol: 'uniswap-v2',
    poolType: 'v2',
    tokens: sorted(a, b),
    fee: 3000,
    tickSpacing: null,
    createdBlock: null,
  })
  return [
    v2(p.v2AB, AAA, BBB),
    v2(p.v2AM, AAA, MID),
    v2(p.v2MB, MID, BBB),
    v2(p.v2IM, ISO, MID),
    {
      address: p.v3AB,
      protocol: 'uniswap-v3',
      poolType: 'v3',
      tokens: sorted(AAA, BBB),
      fee: 3000,
      tickSpacing: 60,
      createdBlock: null,
    },
    {
      address: p.v3AM,
      protocol: 'uniswap-v3',
      poolType: 'v3',
      tokens: sorted(AAA, MID),
      fee: 500,
      tickSpacing: 10,
      createdBlock: null,
    },
    {
      address: p.stableAB,
      protocol: 'stableswap',
      poolType: 'stable',
      tokens: [AAA, BBB],
      fee: 4_000_000,
      tickSpacing: null,
      createdBlock: null,
    },
  ]
}

test('multicall and pinned eth_calls load the same states at one block, and the codec round-trips them', async () => {
  const client = createChainClient(world.anvil.rpcUrl)
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
  const viaMulticall = await loadPoolStates(client, tracked(), {
    blockNumber,
    multicallAddress: world.multicall,
    wordsAround: 3,
  })
  const pinned = await loadPoolStates(client, tracked(), { blockNumber, wordsAround: 3 })
  assert.deepEqual(viaMulticall.failed, [])
  assert.equal(viaMulticall.states.length, 7)
  assert.deepEqual(viaMulticall, pinned)
  for (const s of pinned.states) assert.deepEqual(stateFromJson(JSON.parse(JSON.stringify(stateToJson(s)))), s)
})

test('the V3 snapshot equals an independent read through V3PoolLens over the same words', async () => {
  const client = createChainClient(world.anvil.rpcUrl)
  const lens = await deployV3PoolLens(world.clients)
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
  const { states } = await loadPoolStates(client, tracked(), { blockNumber, wordsAround: 2 })
  for (const address of [world.pools.v3AB, world.pools.v3AM]) {
    const mine = states.find(s => s.address === address) as V3Pool
    const theirs = await readV3Pool(world.clients, lens, address, mine.wordRange)
    assert.deepEqual(mine, theirs)
    assert.equal(mine.wordRange[1] - mine.wordRange[0], 4)
  }
})

test("a read pinned to an older block sees that block's reserves, not the head's", async () => {
  const client = createChainClient(world.anvil.rpcUrl)
  const before = await client.getBlockNumber({ cacheTime: 0 })
  const pool = tracked().find(p => p.address === world.pools.v2AB)!
  const old = (
    await loadPoolStates(client, [pool], { blockNumber: before, multicallAddress: world.multicall, wordsAround: 0 })
  ).states[0] as V2Pool
  // move the pair: donate AAA and sync
  await mintTestToken(world.clients, world.tokens.AAA, pool.address, 5n * E18)
  await send(world.clients, pool.address, uniswapV2Artifact('UniswapV2Pair').abi, 'sync')
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const again = (
    await loadPoolStates(client, [pool], { blockNumber: before, multicallAddress: world.multicall, wordsAround: 0 })
  ).states[0] as V2Pool
  const now = (await loadPoolStates(client, [pool], { blockNumber: head, wordsAround: 0 })).states[0] as V2Pool
  assert.deepEqual(again, old)
  const aIs0 = world.tokens.AAA === pool.tokens[0]
  assert.equal((aIs0 ? now.reserve0 : now.reserve1) - (aIs0 ? old.reserve0 : old.reserve1), 5n * E18)
})

test('a pool that cannot be read is reported, and the others still load', async () => {
  const client = createChainClient(world.anvil.rpcUrl)
  const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
  const bogus: TrackedPool = {
    address: world.tokens.LONE,
    protocol: 'uniswap-v3',
    poolType: 'v3',
    tokens: [world.tokens.AAA, world.tokens.BBB],
    fee: 3000,
    tickSpacing: 60,
    createdBlock: null,
  }
  for (const multicallAddress of [world.multicall, undefined]) {
    const r = await loadPoolStates(client, [...tracked(), bogus], { blockNumber, multicallAddress, wordsAround: 1 })
    assert.equal(r.states.length, 7)
    assert.deepEqual(
      r.failed.map(f => f.address),
      [world.tokens.LONE],
    )
    assert.ok(r.failed[0]!.error.length > 0)
  }
})
