import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  findRoute,
  NO_ROUTE_WARNING,
  type FindRouteInput,
  type RouteResult,
} from '../../../../workers/sor/findRoute.js'
import { enumeratePaths } from '../../../../workers/sor/graph.js'
import { quoteExactIn } from '../../../../workers/sor/pool.js'
import { stepSplitExact } from '../../../../workers/sor/split.js'
import { fineOptimum } from '../../../../workers/sor/fineOptimum.js'
import routeTask from '../../../../workers/sor/route.task.js'
import type { Address, PoolState } from '../../../../workers/sor/types.js'
import { poolAddress, stable, token, v2, v3 } from './fixtures.js'

const [A, B, C, D] = [token(1), token(2), token(3), token(4)]
const E18 = 10n ** 18n

const input = (pools: PoolState[], amountIn: bigint, over: Partial<FindRouteInput> = {}): FindRouteInput => ({
  pools,
  tokenIn: A,
  tokenOut: D,
  amountIn,
  maxHops: 2,
  maxRoutes: 5,
  maxSplit: 4,
  poolMeta: {},
  ...over,
})

// An independent chained simulation, from the answer's own addresses.
function chained(pools: PoolState[], path: Address[], poolAddresses: Address[], amountIn: bigint): bigint {
  let amount = amountIn
  poolAddresses.forEach((address, h) => {
    const pool = pools.find(p => p.address === address)!
    amount = amount > 0n ? quoteExactIn(pool, path[h]!, path[h + 1]!, amount) : 0n
  })
  return amount
}

function bestSingle(pools: PoolState[], amountIn: bigint, maxHops: 1 | 2 = 2): bigint {
  let best = 0n
  for (const path of enumeratePaths(pools, A, D, maxHops)) {
    const out = chained(
      pools,
      path.tokens,
      path.hops.map(h => h.pool.address),
      amountIn,
    )
    if (out > best) best = out
  }
  return best
}

function checkShape(result: RouteResult, pools: PoolState[], amountIn: bigint, maxSplit: number) {
  assert.ok(result.routes.length <= maxSplit)
  if (result.amountOut === 0n) return
  assert.equal(
    result.routes.reduce((s, r) => s + r.amountIn, 0n),
    amountIn,
    'route amounts sum to amountIn',
  )
  assert.equal(
    result.routes.reduce((s, r) => s + r.amountOut, 0n),
    result.amountOut,
  )
  for (const r of result.routes)
    assert.equal(
      r.amountOut,
      chained(
        pools,
        r.path,
        r.pools.map(p => p.address),
        r.amountIn,
      ),
      'each leg is the exact chained simulation',
    )
  const used = result.routes.flatMap(r => r.pools.map(p => p.address))
  assert.equal(new Set(used).size, used.length, 'routes are pool-disjoint')
  assert.equal(result.isSplit, result.routes.length > 1)
}

// Random graphs over A, B, C, D: V2, V3 and stable pools with mismatched sizes and prices.
const amount = (lo: number, hi: number) => fc.bigInt({ min: 10n ** BigInt(lo), max: 10n ** BigInt(hi) })
const pair = fc.tuple(fc.constantFrom(A, B, C, D), fc.constantFrom(A, B, C, D)).filter(([a, b]) => a !== b)
const arbV2 = fc.record({ pair, ra: amount(18, 24), rb: amount(18, 24), fee: fc.constantFrom(500, 3000, 10000) })
const arbV3 = fc.record({
  pair,
  tick: fc.integer({ min: -2000, max: 2000 }),
  l: amount(17, 23),
  width: fc.integer({ min: 1, max: 40 }),
  fee: fc.constantFrom(500, 3000, 10000),
})
const arbStable = fc.record({
  b: fc.array(amount(20, 24), { minLength: 3, maxLength: 3 }),
  A: fc.bigInt({ min: 10n, max: 2000n }),
})
const arbGraph = fc
  .record({
    v2s: fc.array(arbV2, { minLength: 1, maxLength: 7 }),
    v3s: fc.array(arbV3, { maxLength: 4 }),
    stables: fc.array(arbStable, { maxLength: 1 }),
  })
  .map(({ v2s, v3s, stables }) => {
    let n = 0
    const pools: PoolState[] = []
    for (const p of v2s) pools.push(v2(poolAddress(n++), p.pair[0], p.pair[1], p.ra, p.rb, p.fee))
    for (const p of v3s) {
      const spacing = p.fee === 500 ? 10 : p.fee === 3000 ? 60 : 200
      const base = Math.floor(p.tick / spacing) * spacing
      pools.push(
        v3(poolAddress(n++), p.pair[0], p.pair[1], {
          fee: p.fee,
          tickSpacing: spacing,
          tick: p.tick,
          positions: [
            { lower: base - spacing * p.width, upper: base + spacing * p.width, liquidity: p.l },
            { lower: base - spacing * p.width * 8, upper: base + spacing, liquidity: p.l / 3n },
          ],
        }),
      )
    }
    for (const s of stables) pools.push(stable(poolAddress(n++), [A, C, D], s.b, [18, 18, 18], s.A))
    return pools
  })

test('never worse than the best single route nor the best 5%-step split; legs exact and summing to amountIn', () => {
  fc.assert(
    fc.property(arbGraph, amount(15, 23), fc.integer({ min: 1, max: 4 }), (pools, amountIn, maxSplit) => {
      const result = findRoute(input(pools, amountIn, { maxSplit }))
      checkShape(result, pools, amountIn, maxSplit)
      assert.ok(result.amountOut >= bestSingle(pools, amountIn), 'not worse than the best single route')
      const step = stepSplitExact(enumeratePaths(pools, A, D, 2), amountIn, maxSplit)
      assert.ok(
        result.amountOut >= step.amountOut,
        `not worse than the 5%-step split: ${result.amountOut} < ${step.amountOut}`,
      )
    }),
    { seed: 42, numRuns: 60 },
  )
})

test('within 0.1 bps of a brute-force fine-grained optimum', () => {
  fc.assert(
    fc.property(arbGraph, amount(19, 24), (pools, amountIn) => {
      const result = findRoute(input(pools, amountIn))
      const optimum = fineOptimum(enumeratePaths(pools, A, D, 2), amountIn, 4, { top: 4, chunks: 200 })
      const shortfall = optimum.amountOut - result.amountOut
      assert.ok(
        shortfall * 100_000n <= optimum.amountOut,
        `shortfall ${shortfall} of ${optimum.amountOut} is over 0.1 bps`,
      )
    }),
    { seed: 9, numRuns: 25 },
  )
})

test('two equal pools split the input evenly and beat either alone', () => {
  const pools = [v2(poolAddress(1), A, D, 1000n * E18, 1000n * E18), v2(poolAddress(2), A, D, 1000n * E18, 1000n * E18)]
  const amountIn = 100n * E18
  const result = findRoute(input(pools, amountIn))
  checkShape(result, pools, amountIn, 4)
  assert.equal(result.routes.length, 2)
  const [x, y] = result.routes.map(r => r.amountIn) as [bigint, bigint]
  assert.ok((x > y ? x - y : y - x) <= amountIn / 10n ** 6n, `near 50/50: ${x} vs ${y}`)
  assert.ok(result.amountOut > bestSingle(pools, amountIn))
  assert.ok(result.explain.gainBpsVsSingle > 0)
  assert.equal(result.explain.winner === 'single', false)
  assert.ok(result.priceImpactBps > 0 && result.priceImpactBps < 1000, `impact ${result.priceImpactBps}`)
})

test('maxSplit 1 (or maxRoutes 1) gives the best single route', () => {
  const pools = [
    v2(poolAddress(1), A, D, 1000n * E18, 1000n * E18),
    v2(poolAddress(2), A, D, 900n * E18, 1000n * E18),
    v2(poolAddress(3), A, B, 1000n * E18, 1000n * E18),
    v2(poolAddress(4), B, D, 1000n * E18, 1000n * E18),
  ]
  for (const over of [{ maxSplit: 1 }, { maxRoutes: 1 }]) {
    const result = findRoute(input(pools, 50n * E18, over))
    assert.equal(result.routes.length, 1)
    assert.equal(result.amountOut, bestSingle(pools, 50n * E18))
  }
})

test('no connecting pool gives no routes and the refresh-pool-state warning', () => {
  const result = findRoute(input([v2(poolAddress(1), A, B, E18, E18)], E18))
  assert.equal(result.amountOut, 0n)
  assert.deepEqual(result.routes, [])
  assert.deepEqual(result.warnings, [NO_ROUTE_WARNING])
  assert.equal(result.candidatesConsidered, 0)
})

test('slugs keep only those protocols; alternatives report each protocol against the best', () => {
  const pools = [
    v2(poolAddress(1), A, D, 1000n * E18, 1000n * E18),
    v2(poolAddress(2), A, D, 1000n * E18, 1010n * E18, 2500),
    v2(poolAddress(3), A, B, 1000n * E18, 1000n * E18),
    v2(poolAddress(4), B, D, 1000n * E18, 1000n * E18),
  ]
  const poolMeta = {
    [poolAddress(1)]: { protocol: 'uniswap-v2', poolType: 'v2' as const, fee: 3000 },
    [poolAddress(2)]: { protocol: 'sushiswap', poolType: 'v2' as const, fee: 2500 },
    [poolAddress(3)]: { protocol: 'uniswap-v2', poolType: 'v2' as const, fee: 3000 },
    [poolAddress(4)]: { protocol: 'uniswap-v2', poolType: 'v2' as const, fee: 3000 },
  }
  const all = findRoute(input(pools, 100n * E18, { poolMeta }))
  assert.deepEqual(all.alternatives.map(a => a.protocol).sort(), ['sushiswap', 'uniswap-v2'])
  for (const alt of all.alternatives) {
    assert.ok(alt.amountOut <= all.amountOut)
    assert.ok(alt.diffBps < 0, 'a single protocol alone is worse than the split across both')
  }
  const sushiOnly = findRoute(input(pools, 100n * E18, { poolMeta, slugs: ['sushiswap'] }))
  assert.deepEqual(
    sushiOnly.routes.flatMap(r => r.pools.map(p => p.protocol)),
    ['sushiswap'],
  )
  assert.equal(sushiOnly.routes[0]!.pools[0]!.fee, 2500)
  assert.equal(sushiOnly.amountOut, all.alternatives.find(a => a.protocol === 'sushiswap')!.amountOut)
})

test('maxHops 1 ignores 2-hop paths', () => {
  const pools = [
    v2(poolAddress(1), A, D, 10n * E18, 10n * E18),
    v2(poolAddress(3), A, B, 1000n * E18, 1000n * E18),
    v2(poolAddress(4), B, D, 1000n * E18, 1000n * E18),
  ]
  const one = findRoute(input(pools, E18, { maxHops: 1 }))
  assert.deepEqual(
    one.routes.map(r => r.hops),
    [1],
  )
  assert.equal(one.candidatesConsidered, 1)
  assert.equal(findRoute(input(pools, E18)).candidatesConsidered, 2)
})

test('the Piscina task gives the same, structured-cloneable result', () => {
  const pools = [
    v2(poolAddress(1), A, D, 1000n * E18, 1000n * E18),
    v2(poolAddress(2), A, C, 1000n * E18, 1000n * E18),
    v2(poolAddress(3), C, D, 1000n * E18, 1000n * E18),
  ]
  const task = routeTask(structuredClone(input(pools, 30n * E18)))
  assert.deepEqual(structuredClone(task), findRoute(input(pools, 30n * E18)))
})
