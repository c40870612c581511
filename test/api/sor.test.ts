// The route finder end to end: a real anvil with Uniswap V2 and V3 (npm artifacts) and our StableSwapPool, the
// real engine on HTTP. Protocols from a file, pools found by scanning the factories (resumably), state loaded at
// one block, quotes through GET /api/v1/sor/quote checked field by field, and the quoted split executed leg by
// leg on chain: the chain pays exactly the quoted total, to the wei.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { writeFileSync, readFileSync } from 'node:fs'
import fc from 'fast-check'
import { parseAbi, type Address } from 'viem'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { deployWorld, E18, type World } from '../sor/fixture.js'
import { poolContract, uniswapV2Artifact } from '../../engine/devchain/deploy/artifacts.js'
import { send } from '../../engine/devchain/deploy/clients.js'
import { deployTestToken } from '../../engine/devchain/deploy/erc20.js'
import { deployV2PoolWithLiquidity } from '../../engine/devchain/deploy/uniswapV2.js'
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../workers/sor/v3/tickMath.js'
import { createSorService } from '../../engine/sor/service.js'
import { byJson } from '../helpers/order.js'

let world: World
let t: TestEngine
before(async () => {
  world = await deployWorld()
  t = await startTestEngine({
    RPC_URL: world.anvil.rpcUrl,
    SOR_PROTOCOLS_FILE: world.protocolsFile,
    TOKENS_FILE: world.tokensFile,
    SOR_SCAN_BLOCK_RANGE: '5',
    MULTICALL_ADDRESS: world.multicall,
    PUBLIC_RATE_LIMIT_PER_MIN: '100000',
  })
})
after(async () => {
  await t?.stop()
  await world?.stop()
})

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(t.api + path)
  return { status: res.status, body: await res.json() }
}
async function post(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(t.api + path, { method: 'POST' })
  return { status: res.status, body: await res.json() }
}
const quoteUrl = (q: Record<string, string | bigint | number>) =>
  '/api/v1/sor/quote?' +
  new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString()

test('a token neither in the registry nor in any pool: 404 with the address as given', async () => {
  const given = world.tokens.LONE.toUpperCase().replace('0X', '0x')
  const r = await get(quoteUrl({ tokenIn: given, tokenOut: world.tokens.AAA, amountIn: 1 }))
  assert.equal(r.status, 404)
  assert.deepEqual(r.body, { error: `Token ${given} not found in registry`, code: 'TOKEN_NOT_FOUND' })
})

test("GET /protocols lists the file's entries as the spec's Protocol resource", async () => {
  const r = await get('/api/v1/sor/protocols')
  assert.equal(r.status, 200)
  assert.deepEqual(r.body, {
    protocols: [
      {
        slug: 'stableswap',
        name: 'StableSwap',
        poolType: 'stable',
        factoryAddress: '0x0000000000000000000000000000000000000000',
      },
      { slug: 'uniswap-v2', name: 'Uniswap V2', poolType: 'v2', factoryAddress: world.v2Factory },
      { slug: 'uniswap-v3', name: 'Uniswap V3', poolType: 'v3', factoryAddress: world.v3Factory },
    ],
  })
})

test('POST /protocols/sync upserts the file and picks up rows added to the database', async () => {
  const original = readFileSync(world.protocolsFile, 'utf8')
  const doc = JSON.parse(original)
  doc.protocols[0].name = 'Uniswap V2 (renamed)'
  writeFileSync(world.protocolsFile, JSON.stringify(doc))
  await t.db
    .sql`insert into sor_protocols (slug, name, pool_type, factory_address) values ('by-hand', 'By Hand', 'v2', ${'0x' + '11'.repeat(20)})`
  const r = await post('/api/v1/sor/protocols/sync')
  assert.equal(r.status, 200)
  assert.equal(r.body.success, true)
  assert.equal(r.body.fromFile, 3)
  assert.deepEqual(
    r.body.protocols.map((p: any) => `${p.slug}:${p.name}`),
    ['by-hand:By Hand', 'stableswap:StableSwap', 'uniswap-v2:Uniswap V2 (renamed)', 'uniswap-v3:Uniswap V3'],
  )
  writeFileSync(world.protocolsFile, original)
  await t.db.sql`delete from sor_protocols where slug = 'by-hand'`
  const back = await post('/api/v1/sor/protocols/sync')
  assert.deepEqual(
    back.body.protocols.map((p: any) => p.name),
    ['StableSwap', 'Uniswap V2', 'Uniswap V3'],
  )

  writeFileSync(
    world.protocolsFile,
    '{"protocols": [{"slug": "x", "name": "X", "poolType": "v4", "factoryAddress": "0x00"}]}',
  )
  const bad = await post('/api/v1/sor/protocols/sync')
  writeFileSync(world.protocolsFile, original)
  assert.equal(bad.status, 500)
  assert.match(bad.body.error, /^Protocols file invalid: .*poolType/)
})

let firstScanHead = 0
test("POST /pools/scan finds every pool from the factories' events and registers the tokens read on chain", async () => {
  const r = await post('/api/v1/sor/pools/scan')
  assert.equal(r.status, 200, JSON.stringify(r.body))
  assert.equal(r.body.success, true)
  assert.equal(r.body.newPools, 7)
  assert.equal(r.body.poolsTracked, 7)
  assert.equal(r.body.tokensAdded, 4) // AAA, BBB, MID, ISO; LONE is in no pool
  firstScanHead = Number(r.body.headBlock)
  assert.equal(firstScanHead, Number(await world.clients.public.getBlockNumber()))
  const byProtocol = Object.fromEntries(r.body.protocols.map((p: any) => [p.protocol, p]))
  assert.deepEqual(
    { ...byProtocol['uniswap-v2'] },
    {
      protocol: 'uniswap-v2',
      poolType: 'v2',
      fromBlock: '0',
      toBlock: String(firstScanHead),
      poolsFound: 4,
      newPools: 4,
    },
  )
  assert.equal(byProtocol['uniswap-v3'].newPools, 2)
  assert.equal(byProtocol.stableswap.newPools, 1)
  const marks = await t.db.sql`select slug, last_scanned_block from sor_protocols order by slug`
  assert.deepEqual(
    marks.map(m => Number(m.last_scanned_block)),
    [firstScanHead, firstScanHead, firstScanHead],
  )

  const tokens = await t.db
    .sql`select address, symbol, decimals from tokens where chain_id = 31337 and symbol in ('AAA', 'BBB', 'MID', 'ISO', 'LONE') order by symbol`
  assert.deepEqual(
    tokens.map(x => [x.symbol, x.address, x.decimals]),
    [
      ['AAA', world.tokens.AAA, 18],
      ['BBB', world.tokens.BBB, 6],
      ['ISO', world.tokens.ISO, 18],
      ['MID', world.tokens.MID, 18],
    ],
  )

  const pools = await get('/api/v1/sor/pools')
  assert.equal(pools.body.total, 7)
  const v3 = pools.body.pools.find((p: any) => p.address === world.pools.v3AB)
  const [t0, t1] = [world.tokens.AAA, world.tokens.BBB].sort()
  assert.deepEqual(v3, {
    address: world.pools.v3AB,
    protocol: 'uniswap-v3',
    poolType: 'v3',
    fee: 3000,
    tickSpacing: 60,
    createdBlock: v3.createdBlock,
    hasState: false,
    tokens: [t0, t1].map(a => ({
      address: a,
      symbol: a === world.tokens.AAA ? 'AAA' : 'BBB',
      decimals: a === world.tokens.AAA ? 18 : 6,
    })),
  })
  const stable = pools.body.pools.find((p: any) => p.address === world.pools.stableAB)
  assert.equal(stable.fee, 400) // 4e6 in 1e10 units = 0.04% = 400 pips
  const filtered = await get(`/api/v1/sor/pools?protocol=uniswap-v2&token=${world.tokens.MID}`)
  assert.deepEqual(
    filtered.body.pools.map((p: any) => p.address).sort(),
    [world.pools.v2AM, world.pools.v2MB, world.pools.v2IM].sort(),
  )
})

test('a quote before any refresh: 200, no routes, and the advice to refresh pool state', async () => {
  const r = await get(quoteUrl({ tokenIn: world.tokens.AAA, tokenOut: world.tokens.BBB, amountIn: E18 }))
  assert.equal(r.status, 200)
  assert.deepEqual(r.body.routes, [])
  assert.equal(r.body.summary.amountOut, '0')
  assert.equal(r.body.meta.asOfBlock, '0')
  assert.ok(
    r.body.warnings.some((w: string) => w.includes('refresh pool state first via POST /api/v1/sor/pool-state/refresh')),
    r.body.warnings,
  )
  const h = await get('/api/v1/sor/health')
  assert.equal(h.body.status, 'empty')
  assert.equal(h.body.poolsWithState, 0)
})

test('a second scan resumes after the last scanned block and finds only the new pair', async () => {
  const NEW = await deployTestToken(world.clients, { name: 'NEW', symbol: 'NEW', decimals: 18 })
  const pair = await deployV2PoolWithLiquidity(
    world.clients,
    world.v2Factory,
    NEW,
    world.tokens.MID,
    10n * E18,
    10n * E18,
  )
  const r = await post('/api/v1/sor/pools/scan')
  const v2 = r.body.protocols.find((p: any) => p.protocol === 'uniswap-v2')
  assert.equal(v2.fromBlock, String(firstScanHead + 1))
  assert.equal(v2.newPools, 1)
  assert.equal(r.body.newPools, 1)
  assert.equal(r.body.tokensAdded, 1)
  assert.equal(r.body.poolsTracked, 8)
  const pools = await get('/api/v1/sor/pools')
  assert.ok(pools.body.pools.some((p: any) => p.address === pair))
})

let asOfBlock = ''
let bbbHeld = 0n // BBB in every pool at asOfBlock: no quote can pay more
test('POST /pool-state/refresh loads every pool at one block; health, pool-state and coverage describe it', async () => {
  const r = await post('/api/v1/sor/pool-state/refresh')
  assert.equal(r.status, 200, JSON.stringify(r.body))
  const head = await world.clients.public.getBlockNumber()
  assert.deepEqual(
    { ...r.body, durationMs: 0 },
    { success: true, asOfBlock: String(head), poolsTracked: 8, loaded: 8, failed: [], durationMs: 0 },
  )
  asOfBlock = r.body.asOfBlock
  for (const pool of Object.values(world.pools)) bbbHeld += await balanceOf(world.tokens.BBB, pool)

  const h = await get('/api/v1/sor/health')
  assert.equal(h.body.status, 'ok')
  assert.equal(h.body.poolsTracked, 8)
  assert.equal(h.body.poolsWithState, 8)
  assert.equal(h.body.asOfBlock, asOfBlock)
  assert.equal(h.body.lastRefreshError, null)
  assert.equal(h.body.stale, false)
  assert.ok(h.body.ageSeconds >= 0)

  const s = await get(`/api/v1/sor/pool-state?address=${world.pools.v3AB.toUpperCase().replace('0X', '0x')}`)
  assert.equal(s.status, 200)
  assert.equal(s.body.asOfBlock, asOfBlock)
  const state = s.body.state
  const slot0 = await world.clients.public.readContract({
    address: world.pools.v3AB,
    abi: parseAbi(['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)']),
    functionName: 'slot0',
  })
  assert.equal(state.kind, 'v3')
  assert.equal(state.sqrtPriceX96, String(slot0[0]))
  assert.equal(state.tick, slot0[1])
  assert.equal(state.wordRange[1] - state.wordRange[0], 8) // SOR_V3_WORDS = 4 on each side
  assert.equal(state.ticks.length, 6) // three positions, two ticks each
  const net = state.ticks.reduce((a: bigint, x: any) => a + BigInt(x.liquidityNet), 0n)
  assert.equal(net, 0n)

  const v2 = await get(`/api/v1/sor/pool-state?address=${world.pools.v2AB}`)
  const reserves = (await world.clients.public.readContract({
    address: world.pools.v2AB,
    abi: uniswapV2Artifact('UniswapV2Pair').abi,
    functionName: 'getReserves',
  })) as [bigint, bigint, number]
  assert.deepEqual(
    [v2.body.state.reserve0, v2.body.state.reserve1, v2.body.state.feePpm],
    [String(reserves[0]), String(reserves[1]), 3000],
  )
  const all = await get('/api/v1/sor/pool-state')
  assert.equal(all.body.count, 8)
  assert.equal((await get('/api/v1/sor/pool-state?address=0x12')).status, 400)
  const unknown = await get(`/api/v1/sor/pool-state?address=0x${'ab'.repeat(20)}`)
  assert.deepEqual([unknown.status, unknown.body.error], [404, `Pool 0x${'ab'.repeat(20)} is not tracked`])

  const c = await get('/api/v1/sor/coverage')
  assert.equal(c.body.asOfBlock, asOfBlock)
  const ab = c.body.pairs.find((p: any) => [p.tokenA.symbol, p.tokenB.symbol].sort(byJson).join('/') === 'AAA/BBB')
  assert.equal(ab.pools, 3)
  assert.deepEqual(ab.protocols, ['stableswap', 'uniswap-v2', 'uniswap-v3'])
  const aIsA = ab.tokenA.address === world.tokens.AAA
  const liqA = BigInt(aIsA ? ab.liquidity.tokenA : ab.liquidity.tokenB)
  assert.ok(liqA > 1_700n * E18, `AAA liquidity ${liqA}`) // v2 1000 + stable 700 + v3 virtual reserves
  assert.equal(c.body.pairCount, c.body.pairs.length)
})

const ERC20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address, uint256) returns (bool)',
])
const balanceOf = (token: Address, who: Address) =>
  world.clients.public.readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [who] })

/** One route of a quote, swapped on chain hop by hop; returns what the last hop paid. */
async function executeRoute(route: any): Promise<bigint> {
  const { clients, me, callee } = world
  let amount = BigInt(route.amountIn)
  for (let i = 0; i < route.pools.length; i++) {
    const pool = route.pools[i].address as Address,
      tokenIn = route.path[i] as Address,
      tokenOut = route.path[i + 1] as Address
    const zeroForOne = tokenIn < tokenOut
    const before = await balanceOf(tokenOut, me)
    if (route.pools[i].poolType === 'v2') {
      const pairAbi = uniswapV2Artifact('UniswapV2Pair').abi
      const [r0, r1] = (await clients.public.readContract({
        address: pool,
        abi: pairAbi,
        functionName: 'getReserves',
      })) as [bigint, bigint, number]
      const [rIn, rOut] = zeroForOne ? [r0, r1] : [r1, r0]
      const out = (amount * 997n * rOut) / (rIn * 1000n + amount * 997n) // UniswapV2Library.getAmountOut
      await send(clients, tokenIn, ERC20, 'transfer', [pool, amount])
      const outs = (x: bigint) => (zeroForOne ? [0n, x] : [x, 0n])
      // the pair itself says `out` is its maximum: one wei more breaks its K check
      await assert.rejects(
        clients.public.simulateContract({
          address: pool,
          abi: pairAbi,
          functionName: 'swap',
          args: [...outs(out + 1n), me, '0x'],
          account: clients.wallet.account,
        }),
        /UniswapV2: K/,
      )
      await send(clients, pool, pairAbi, 'swap', [...outs(out), me, '0x'])
    } else if (route.pools[i].poolType === 'v3') {
      await send(clients, callee, poolContract('V3Callee').abi, 'swap', [
        pool,
        zeroForOne,
        amount,
        zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n,
        me,
      ])
    } else {
      const coins = (
        (await clients.public.readContract({
          address: pool,
          abi: poolContract('StableSwapPool').abi,
          functionName: 'get_coins',
        })) as string[]
      ).map(c => c.toLowerCase())
      await send(clients, pool, poolContract('StableSwapPool').abi, 'exchange', [
        BigInt(coins.indexOf(tokenIn)),
        BigInt(coins.indexOf(tokenOut)),
        amount,
        0n,
      ])
    }
    amount = (await balanceOf(tokenOut, me)) - before
  }
  return amount
}

test("GET /quote answers the spec's object field by field, and the split executed on chain pays exactly the quoted total", async ctx => {
  const { AAA, BBB, MID } = world.tokens
  const amountIn = 300n * E18
  const r = await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn }))
  assert.equal(r.status, 200, JSON.stringify(r.body))
  const q = r.body
  assert.deepEqual(Object.keys(q).sort(), ['alternatives', 'explain', 'fees', 'meta', 'routes', 'summary', 'warnings'])

  assert.deepEqual(Object.keys(q.meta).sort(), [
    'asOfBlock',
    'candidatesConsidered',
    'computeTimeMs',
    'isSplit',
    'timestamp',
    'viableRoutes',
  ])
  assert.equal(new Date(q.meta.timestamp).toISOString(), q.meta.timestamp)
  assert.equal(q.meta.asOfBlock, asOfBlock)
  assert.equal(typeof q.meta.computeTimeMs, 'number')
  assert.equal(q.meta.candidatesConsidered, 5) // 3 direct + AAA->MID (v2, v3) x MID->BBB (v2)
  assert.equal(q.meta.viableRoutes, 5)
  assert.equal(q.meta.isSplit, q.routes.length > 1)
  assert.ok(q.routes.length >= 2 && q.routes.length <= 4, `routes ${q.routes.length}`)

  const s = q.summary
  assert.deepEqual(Object.keys(s).sort(), [
    'amountIn',
    'amountOut',
    'effectivePrice',
    'priceImpactBps',
    'tokenIn',
    'tokenInSymbol',
    'tokenOut',
    'tokenOutSymbol',
  ])
  assert.deepEqual(
    [s.tokenIn, s.tokenInSymbol, s.tokenOut, s.tokenOutSymbol, s.amountIn],
    [AAA, 'AAA', BBB, 'BBB', String(amountIn)],
  )
  const total = q.routes.reduce((a: bigint, x: any) => a + BigInt(x.amountOut), 0n)
  assert.equal(s.amountOut, String(total))
  assert.ok(Math.abs(s.effectivePrice - Number(total) / 1e6 / 300) < 1e-9, `effectivePrice ${s.effectivePrice}`)
  assert.ok(s.effectivePrice > 0.9 && s.effectivePrice < 1)
  assert.equal(typeof s.priceImpactBps, 'number')
  assert.ok(s.priceImpactBps > 0)

  assert.equal(
    q.routes.reduce((a: bigint, x: any) => a + BigInt(x.amountIn), 0n),
    amountIn,
  )
  const usedPools = new Set<string>()
  for (const route of q.routes) {
    assert.deepEqual(Object.keys(route).sort(), ['amountIn', 'amountOut', 'fractionPct', 'hops', 'path', 'pools'])
    assert.equal(route.hops, route.pools.length)
    assert.equal(route.path.length, route.hops + 1)
    assert.deepEqual([route.path[0], route.path.at(-1)], [AAA, BBB])
    assert.ok(Math.abs(route.fractionPct - Number((BigInt(route.amountIn) * 10_000n) / amountIn) / 100) < 1e-9)
    for (const p of route.pools) {
      assert.deepEqual(Object.keys(p).sort(), ['address', 'fee', 'poolType', 'protocol'])
      assert.ok(!usedPools.has(p.address), 'routes are pool-disjoint')
      usedPools.add(p.address)
      const expected = {
        [world.pools.v2AB]: ['uniswap-v2', 'v2', 3000],
        [world.pools.v2AM]: ['uniswap-v2', 'v2', 3000],
        [world.pools.v2MB]: ['uniswap-v2', 'v2', 3000],
        [world.pools.v3AB]: ['uniswap-v3', 'v3', 3000],
        [world.pools.v3AM]: ['uniswap-v3', 'v3', 500],
        [world.pools.stableAB]: ['stableswap', 'stable', 400],
      }[p.address]
      assert.deepEqual([p.protocol, p.poolType, p.fee], expected)
      if (route.hops === 2) assert.equal(route.path[1], MID)
    }
  }
  assert.ok(Math.abs(q.routes.reduce((a: number, x: any) => a + x.fractionPct, 0) - 100) < 0.05)

  assert.deepEqual(q.alternatives.map((a: any) => a.protocol).sort(), ['stableswap', 'uniswap-v2', 'uniswap-v3'])
  for (const a of q.alternatives) {
    assert.deepEqual(Object.keys(a).sort(), ['amountOut', 'diffBps', 'protocol'])
    assert.ok(BigInt(a.amountOut) <= total)
    assert.ok(a.diffBps <= 0)
  }
  assert.ok(Array.isArray(q.warnings))
  assert.deepEqual(q.warnings, [])
  assert.equal(
    q.fees.length,
    q.routes.reduce((n: number, x: any) => n + x.hops, 0),
  )
  for (const f of q.fees) {
    assert.deepEqual(Object.keys(f).sort(), ['amount', 'feeBps', 'pool', 'poolType', 'protocol', 'token'])
    assert.ok(BigInt(f.amount) > 0n)
  }
  const v2fee = q.fees.find((f: any) => f.pool === world.pools.v2AB)
  if (v2fee) assert.equal(v2fee.feeBps, 30)
  assert.equal(typeof q.explain.text, 'string')
  assert.ok(['marginal', 'single', 'step'].includes(q.explain.winner))

  // the same state is what the chain holds: nothing was mined since the refresh
  assert.equal(String(await world.clients.public.getBlockNumber()), asOfBlock)
  let paid = 0n
  for (const route of q.routes) {
    const got = await executeRoute(route)
    assert.equal(got, BigInt(route.amountOut), `route through ${route.pools.map((p: any) => p.address).join('>')}`)
    paid += got
  }
  assert.equal(paid, total)
  ctx.diagnostic(
    `split over ${q.routes.length} routes: ${q.routes.map((r: any) => `${r.fractionPct}% ${r.pools.map((p: any) => p.poolType).join('>')}`).join(', ')}; paid ${paid} = quoted; computeTimeMs ${q.meta.computeTimeMs}; explain: ${q.explain.winner}`,
  )
})

test('every error text of the quote endpoint', async () => {
  const { AAA, BBB } = world.tokens
  const cases: [Record<string, string>, number, string][] = [
    [{ tokenOut: BBB, amountIn: '1' }, 400, 'Missing required params: tokenIn, tokenOut, amountIn'],
    [{ tokenIn: AAA, amountIn: '1' }, 400, 'Missing required params: tokenIn, tokenOut, amountIn'],
    [{ tokenIn: AAA, tokenOut: BBB }, 400, 'Missing required params: tokenIn, tokenOut, amountIn'],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '' }, 400, 'Missing required params: tokenIn, tokenOut, amountIn'],
    [{ tokenIn: '0xAAA', tokenOut: BBB, amountIn: '1' }, 400, 'Invalid token address format'],
    [{ tokenIn: 'NOSUCHSYMBOL', tokenOut: BBB, amountIn: '1' }, 404, 'Token NOSUCHSYMBOL not found in registry'],
    [{ tokenIn: AAA, tokenOut: BBB.slice(0, 41), amountIn: '1' }, 400, 'Invalid token address format'],
    [
      { tokenIn: AAA, tokenOut: AAA.toUpperCase().replace('0X', '0x'), amountIn: '1' },
      400,
      'tokenIn and tokenOut must be different',
    ],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '0' }, 400, 'amountIn must be a positive integer (raw units)'],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '-5' }, 400, 'amountIn must be a positive integer (raw units)'],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '1.5' }, 400, 'amountIn must be a positive integer (raw units)'],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '1e18' }, 400, 'amountIn must be a positive integer (raw units)'],
    [
      { tokenIn: AAA, tokenOut: BBB, amountIn: (1n << 256n).toString() },
      400,
      'amountIn must be a positive integer (raw units)',
    ],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '1', maxHops: '3' }, 400, 'maxHops must be 1 or 2'],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '1', maxHops: '0' }, 400, 'maxHops must be 1 or 2'],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '1', maxHops: 'two' }, 400, 'maxHops must be 1 or 2'],
    [
      { tokenIn: AAA, tokenOut: BBB, amountIn: '1', maxRoutes: '0' },
      400,
      'maxRoutes must be an integer between 1 and 20',
    ],
    [
      { tokenIn: AAA, tokenOut: BBB, amountIn: '1', maxRoutes: '21' },
      400,
      'maxRoutes must be an integer between 1 and 20',
    ],
    [
      { tokenIn: AAA, tokenOut: BBB, amountIn: '1', maxSplit: '0' },
      400,
      'maxSplit must be an integer between 1 and 10',
    ],
    [
      { tokenIn: AAA, tokenOut: BBB, amountIn: '1', maxSplit: '2.5' },
      400,
      'maxSplit must be an integer between 1 and 10',
    ],
    [{ tokenIn: AAA, tokenOut: BBB, amountIn: '1', explain: 'maybe' }, 400, 'explain must be true or false'],
    [
      { tokenIn: AAA, tokenOut: BBB, amountIn: '1', slugs: 'uniswap v2' },
      400,
      'slugs must be a comma-separated list of protocol slugs',
    ],
    [
      { tokenIn: world.tokens.LONE, tokenOut: BBB, amountIn: '1' },
      404,
      `Token ${world.tokens.LONE} not found in registry`,
    ],
    [
      { tokenIn: AAA, tokenOut: `0x${'cd'.repeat(20)}`, amountIn: '1' },
      404,
      `Token 0x${'cd'.repeat(20)} not found in registry`,
    ],
  ]
  for (const [query, status, error] of cases) {
    const r = await get(quoteUrl(query))
    // the domain's refusals carry their code; the parse step's 400s are the text alone
    assert.deepEqual(
      [r.status, r.body],
      [status, status === 404 ? { error, code: 'TOKEN_NOT_FOUND' } : { error }],
      JSON.stringify(query),
    )
  }
})

test("token symbols resolve exactly as the RFQ API resolves them (one resolver), any case; the answer equals the address's", async () => {
  const { AAA, BBB } = world.tokens
  const registry = await get(`/api/v1/tokens`)
  const symbolOf = (a: string) =>
    (registry.body.tokens as { address: string; symbol: string }[]).find(t => t.address === a.toLowerCase())?.symbol
  const [symIn, symOut] = [symbolOf(AAA), symbolOf(BBB)]
  assert.ok(symIn && symOut, 'the scanned tokens are in the registry with their symbols')
  const byAddress = await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: '1000000000000000000' }))
  const bySymbol = await get(
    quoteUrl({ tokenIn: symIn.toLowerCase(), tokenOut: symOut, amountIn: '1000000000000000000' }),
  )
  assert.equal(bySymbol.status, 200)
  assert.deepEqual(bySymbol.body.routes, byAddress.body.routes)
  assert.equal(bySymbol.body.summary.amountOut, byAddress.body.summary.amountOut)
  assert.equal(bySymbol.body.summary.tokenIn, AAA.toLowerCase())
  const same = await get(quoteUrl({ tokenIn: symIn, tokenOut: AAA, amountIn: '1' }))
  assert.deepEqual([same.status, same.body], [400, { error: 'tokenIn and tokenOut must be different' }])
})

test('defaults: maxHops 2, maxSplit 4, maxRoutes 5, explain true; and what each parameter changes', async () => {
  const { AAA, BBB, ISO } = world.tokens
  // ISO trades only against MID: two hops by default, none with maxHops=1 (and the warning says why)
  const two = await get(quoteUrl({ tokenIn: ISO, tokenOut: BBB, amountIn: E18 }))
  assert.equal(two.status, 200)
  assert.ok(two.body.routes.length >= 1 && two.body.routes.every((r: any) => r.hops === 2))
  const one = await get(quoteUrl({ tokenIn: ISO, tokenOut: BBB, amountIn: E18, maxHops: 1 }))
  assert.deepEqual(one.body.routes, [])
  assert.equal(one.body.summary.amountOut, '0')
  assert.ok(
    one.body.warnings.some((w: string) => w.startsWith(`No pool connects ${ISO} and ${BBB} within 1 hop`)),
    one.body.warnings,
  )

  const big = 500n * E18
  const dflt = (await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: big }))).body
  const explicit = (
    await get(
      quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: big, maxHops: 2, maxSplit: 4, maxRoutes: 5, explain: 'true' }),
    )
  ).body
  assert.equal(dflt.summary.amountOut, explicit.summary.amountOut)
  assert.deepEqual(dflt.routes, explicit.routes)
  assert.ok(dflt.explain && explicit.explain)
  assert.ok(dflt.routes.length >= 3, `a large trade spreads over ${dflt.routes.length} routes`)
  const split1 = (await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: big, maxSplit: 1 }))).body
  assert.equal(split1.routes.length, 1)
  assert.equal(split1.meta.isSplit, false)
  assert.ok(BigInt(split1.summary.amountOut) < BigInt(dflt.summary.amountOut))
  const routes2 = (await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: big, maxRoutes: 2 }))).body
  assert.ok(routes2.routes.length <= 2)
  const noExplain = (await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: big, explain: 'false' }))).body
  assert.equal(noExplain.explain, undefined)
  assert.equal(noExplain.summary.amountOut, dflt.summary.amountOut)

  const v2only = (await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: big, slugs: 'uniswap-v2' }))).body
  assert.ok(
    v2only.routes.length >= 1 &&
      v2only.routes.every((r: any) => r.pools.every((p: any) => p.protocol === 'uniswap-v2')),
  )
  const alt = dflt.alternatives.find((a: any) => a.protocol === 'uniswap-v2')
  assert.equal(alt.amountOut, v2only.summary.amountOut) // the alternative is that protocol's best outcome
  const unknown = (await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: E18, slugs: 'nope,uniswap-v3' }))).body
  assert.ok(unknown.warnings.some((w: string) => w.startsWith('Unknown protocol slug(s): nope')))
  assert.ok(unknown.routes.every((r: any) => r.pools.every((p: any) => p.protocol === 'uniswap-v3')))
})

test('amounts far beyond the liquidity answer 200 with warnings, never a 500', async () => {
  const { AAA, BBB } = world.tokens
  const huge = await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn: 10n ** 40n }))
  assert.equal(huge.status, 200)
  assert.ok(huge.body.warnings.length > 0)
  assert.ok(
    huge.body.warnings.some((w: string) => /can take only|High price impact|^Insufficient liquidity:/.test(w)),
    huge.body.warnings,
  )
  // never more BBB than the pools held at asOfBlock
  await fc.assert(
    fc.asyncProperty(fc.bigInt({ min: 1n, max: 10n ** 60n }), fc.constantFrom(1, 2), async (amountIn, maxHops) => {
      const r = await get(quoteUrl({ tokenIn: AAA, tokenOut: BBB, amountIn, maxHops }))
      assert.equal(r.status, 200, JSON.stringify(r.body))
      assert.ok(BigInt(r.body.summary.amountOut) < bbbHeld)
      // the routes carry what was routed: all of it, or (honest partial fill, #17) less, said in a warning
      const routed = BigInt(r.body.summary.amountIn)
      assert.equal(
        r.body.routes.reduce((a: bigint, x: any) => a + BigInt(x.amountIn), 0n),
        r.body.routes.length ? routed : 0n,
      )
      assert.ok(routed <= amountIn)
      if (routed < amountIn)
        assert.ok(
          r.body.warnings.some((w: string) => w.startsWith('Insufficient liquidity:')),
          r.body.warnings,
        )
    }),
    { numRuns: 25 },
  )
})

test('warm quotes: computeTimeMs of 30 quotes over HTTP (a figure for the report, not an assertion on time)', async ctx => {
  const times: number[] = []
  for (let i = 0; i < 30; i++) {
    const r = await get(
      quoteUrl({ tokenIn: world.tokens.AAA, tokenOut: world.tokens.BBB, amountIn: BigInt(i + 1) * 10n * E18 }),
    )
    assert.equal(r.status, 200)
    times.push(r.body.meta.computeTimeMs)
  }
  times.sort((a, b) => a - b)
  ctx.diagnostic(`computeTimeMs p50 ${times[15]} max ${times[29]} (5 candidate paths, 6 pools, 1 worker thread)`)
})

test('a restarted route finder reloads the graph and the one-block state from Postgres', async () => {
  const sor = await createSorService({
    config: t.engine.ctx.config,
    sql: t.db.sql,
    routePool: t.engine.ctx.routePool,
    log: t.engine.ctx.log,
    client: null,
  })
  const live = (await get('/api/v1/sor/pool-state')).body
  assert.equal(String(sor.graph.asOfBlock), live.asOfBlock)
  assert.equal(sor.graph.pools.size, 8)
  assert.equal(sor.graph.states.size, 8)
  const outcome = await sor.routeFinder.quote({
    tokenIn: world.tokens.AAA,
    tokenOut: world.tokens.BBB,
    amountIn: 300n * E18,
  })
  assert.ok(outcome.ok)
  const reloaded = outcome.value
  const viaHttp = (await get(quoteUrl({ tokenIn: world.tokens.AAA, tokenOut: world.tokens.BBB, amountIn: 300n * E18 })))
    .body
  assert.equal(String(reloaded.summary.amountOut), viaHttp.summary.amountOut)
  assert.equal(reloaded.meta.asOfBlock, viaHttp.meta.asOfBlock)
})

test('the route finder answers outcomes with codes; the route maps them (404 and 503 with the code)', async () => {
  const sor = await createSorService({
    config: t.engine.ctx.config,
    sql: t.db.sql,
    routePool: t.engine.ctx.routePool,
    log: t.engine.ctx.log,
    client: null,
  })
  const unknown = '0x00000000000000000000000000000000000000ee'
  assert.deepEqual(await sor.routeFinder.quote({ tokenIn: unknown, tokenOut: world.tokens.BBB, amountIn: 1n }), {
    ok: false,
    code: 'TOKEN_NOT_FOUND',
    given: unknown,
  })
  assert.deepEqual(await sor.refresh(), { ok: false, code: 'NO_CHAIN' })
  const r = await get(quoteUrl({ tokenIn: unknown, tokenOut: world.tokens.BBB, amountIn: 1n }))
  assert.deepEqual(
    [r.status, r.body.error, r.body.code],
    [404, `Token ${unknown} not found in registry`, 'TOKEN_NOT_FOUND'],
  )
})
