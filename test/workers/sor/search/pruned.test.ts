// The pruned search against the exhaustive one. The route search looks only at the paths that can be among
// the best (workers/sor/graphSource.ts); the exhaustive source (workers/sor/exhaustive.ts) evaluates every
// path, as the route finder did before. On random graphs, with several middle tokens, every pool kind (a
// three-coin stable pool on both hops of a path included), dead pools, equal pools, protocol filters and
// amounts from one wei to far past the liquidity, both give the same answer to the wei: the same routes, the
// same amounts, the same alternatives and explanation. Only the work differs, and it is reported.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import {
  findRoute,
  findRouteExhaustive,
  type FindRouteInput,
  type RouteResult,
} from '../../../../workers/sor/findRoute.js'
import { RouteGraph } from '../../../../workers/sor/routeGraph.js'
import { graphSource } from '../../../../workers/sor/graphSource.js'
import { exhaustiveSource } from '../../../../workers/sor/exhaustive.js'
import type { Measure } from '../../../../workers/sor/candidates.js'
import { SearchDeadline } from '../../../../workers/sor/routeSource.js'
import type { PoolMeta, PoolState } from '../../../../workers/sor/types.js'
import { syntheticGraph, HUBS } from '../../../../bench/lib/syntheticGraph.js'
import { poolAddress, stable, token, v2, v3 } from './fixtures.js'

const TOKENS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(token)
const PROTOCOLS = ['uniswap-v2', 'sushi', 'uniswap-v3', 'curve']
const magnitude = (lo: number, hi: number) =>
  fc
    .tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: 1, max: 999 }))
    .map(([e, m]) => BigInt(m) * 10n ** BigInt(e))
// tokens 0 and 1 are hubs most pools touch, so a query between them has many middle tokens and many paths
const end = fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: 0, max: 9 }))
const pair = fc.tuple(end, end).filter(([a, b]) => a !== b)

// pools as pairs of token indices with sizes spread over nine orders of magnitude, some empty, some equal
const arbV2 = fc.record({
  kind: fc.constant('v2' as const),
  pair,
  ra: magnitude(15, 24),
  rb: magnitude(15, 24),
  fee: fc.constantFrom(2500, 3000, 10000),
  dead: fc.integer({ min: 0, max: 9 }).map(x => x === 0),
})
const arbV3 = fc.record({
  kind: fc.constant('v3' as const),
  pair,
  tick: fc.integer({ min: -3000, max: 3000 }),
  l: magnitude(15, 23),
  width: fc.integer({ min: 1, max: 60 }),
  fee: fc.constantFrom(500, 3000, 10000),
  gap: fc.boolean(),
})
const arbStable = fc.record({
  kind: fc.constant('stable' as const),
  coins: fc.shuffledSubarray([0, 1, 2, 3, 4], { minLength: 2, maxLength: 3 }),
  b: fc.array(magnitude(19, 24), { minLength: 3, maxLength: 3 }),
  A: fc.bigInt({ min: 10n, max: 2000n }),
})
const arbPool = fc.oneof(
  { weight: 4, arbitrary: arbV2 },
  { weight: 4, arbitrary: arbV3 },
  { weight: 1, arbitrary: arbStable },
)

const arbGraph = fc
  .tuple(fc.array(arbPool, { minLength: 1, maxLength: 90, size: 'large' }), fc.boolean())
  .map(([specs, twin]) => {
    const pools: PoolState[] = []
    const poolMeta: Record<string, PoolMeta> = {}
    specs.forEach((p, n) => {
      let pool: PoolState
      if (p.kind === 'v2')
        pool = v2(poolAddress(n), TOKENS[p.pair[0]]!, TOKENS[p.pair[1]]!, p.dead ? 0n : p.ra, p.rb, p.fee)
      else if (p.kind === 'v3') {
        const spacing = p.fee === 500 ? 10 : p.fee === 3000 ? 60 : 200,
          base = Math.floor(p.tick / spacing) * spacing
        // with a gap: a second range beyond an empty stretch, so the curve crosses liquidity that rises again
        const positions = [{ lower: base - spacing * p.width, upper: base + spacing * p.width, liquidity: p.l }]
        if (p.gap)
          positions.push(
            { lower: base + spacing * (p.width + 5), upper: base + spacing * (p.width * 3 + 5), liquidity: p.l * 4n },
            { lower: base - spacing * (p.width * 3 + 5), upper: base - spacing * (p.width + 5), liquidity: p.l * 4n },
          )
        pool = v3(poolAddress(n), TOKENS[p.pair[0]]!, TOKENS[p.pair[1]]!, {
          fee: p.fee,
          tickSpacing: spacing,
          tick: p.tick,
          positions,
        })
      } else
        pool = stable(
          poolAddress(n),
          p.coins.map(i => TOKENS[i]!),
          p.b.slice(0, p.coins.length),
          p.coins.map(() => 18),
          p.A,
        )
      pools.push(pool)
      poolMeta[pool.address] = { protocol: PROTOCOLS[n % PROTOCOLS.length]!, poolType: pool.kind, fee: 3000 }
    })
    // an exact twin of the first pool: equal values everywhere, decided by path order alone
    if (twin) {
      const t = { ...pools[0]!, address: poolAddress(99) }
      pools.push(t)
      poolMeta[t.address] = poolMeta[pools[0]!.address]!
    }
    return { pools, poolMeta }
  })

const arbQuery = fc.record({
  pair: fc.oneof(fc.constantFrom<[number, number]>([0, 1], [1, 0]), pair),
  amountIn: fc.oneof(fc.bigInt({ min: 1n, max: 1000n }), magnitude(12, 26)),
  maxHops: fc.constantFrom(1 as const, 2 as const, 2 as const),
  maxSplit: fc.integer({ min: 1, max: 4 }),
  slugs: fc.option(fc.subarray(PROTOCOLS, { minLength: 1 }), { nil: undefined }),
})

const work = (r: RouteResult) => ({ ...r, candidatesConsidered: 0 })

test('the pruned search answers exactly as the exhaustive one on random graphs, and never looks at more paths', () => {
  let pruning = 0,
    runs = 0
  fc.assert(
    fc.property(arbGraph, arbQuery, ({ pools, poolMeta }, q) => {
      const input: FindRouteInput = {
        pools,
        poolMeta,
        tokenIn: TOKENS[q.pair[0]]!,
        tokenOut: TOKENS[q.pair[1]]!,
        amountIn: q.amountIn,
        maxHops: q.maxHops,
        maxRoutes: 5,
        maxSplit: q.maxSplit,
        ...(q.slugs ? { slugs: q.slugs } : {}),
      }
      const pruned = findRoute(input),
        exhaustive = findRouteExhaustive(input)
      assert.deepEqual(work(pruned), work(exhaustive))
      assert.ok(
        pruned.candidatesConsidered <= exhaustive.candidatesConsidered,
        `${pruned.candidatesConsidered} > ${exhaustive.candidatesConsidered}`,
      )
      assert.equal(exhaustive.candidatesConsidered, exhaustive.explain.candidatePaths)
      runs++
      if (pruned.candidatesConsidered < exhaustive.candidatesConsidered) pruning++
    }),
    { seed: 34, numRuns: 400 },
  )
  assert.ok(pruning * 6 > runs, `the graphs made the search prune in only ${pruning} of ${runs} runs`)
})

test('every question the split optimiser asks gets the same candidates, in the same order, from both sources', () => {
  const measures: Measure[] = ['final', 'quarter', 'rate0']
  fc.assert(
    fc.property(
      arbGraph,
      arbQuery,
      fc.integer({ min: 1, max: 30 }),
      fc.double({ min: 0, max: 2, noNaN: true }),
      ({ pools, poolMeta }, q, n, rateFactor) => {
        const query = {
          tokenIn: TOKENS[q.pair[0]]!,
          tokenOut: TOKENS[q.pair[1]]!,
          amountIn: q.amountIn,
          maxHops: q.maxHops,
          ...(q.slugs ? { slugs: q.slugs } : {}),
        }
        const graph = RouteGraph.from(pools, poolMeta)
        const pruned = graphSource(graph, query),
          exhaustive = exhaustiveSource(pools, query, p => graph.meta(p.address)!)
        const keys = (s: { list: readonly { path: { key: string } }[] }, list: number[]) =>
          list.map(i => s.list[i]!.path.key)
        for (const m of measures)
          assert.deepEqual(keys(pruned, pruned.top(m, n)), keys(exhaustive, exhaustive.top(m, n)), m)
        // growth's options: above a rate, away from the best route's pools
        const lead = exhaustive.top('rate0', 1)[0]
        const used = new Set(lead === undefined ? [] : exhaustive.list[lead]!.pools)
        const minRate = lead === undefined ? 0 : exhaustive.value('rate0', lead) * rateFactor * 0.5
        assert.deepEqual(
          keys(pruned, pruned.options(minRate, used, 6)),
          keys(exhaustive, exhaustive.options(minRate, used, 6)),
        )
        assert.deepEqual(pruned.counts(), exhaustive.counts())
        // the pruned source may name a protocol whose lone paths all turn out empty; asked, it then has none
        const alone = (s: typeof pruned) => s.protocols().alone.filter(p => s.forProtocol(p).top('final', 1).length > 0)
        assert.deepEqual(alone(pruned), alone(exhaustive))
        for (const p of alone(exhaustive)) {
          const [a, b] = [pruned.forProtocol(p), exhaustive.forProtocol(p)]
          assert.deepEqual(keys(a, a.top('final', n)), keys(b, b.top('final', n)), p)
        }
      },
    ),
    { seed: 7, numRuns: 300 },
  )
})

test('a graph changed pool by pool answers as one built afresh from the same pools', () => {
  fc.assert(
    fc.property(arbGraph, arbGraph, arbQuery, ({ pools, poolMeta }, other, q) => {
      const graph = RouteGraph.from(pools, poolMeta)
      // new states for pools already there (same addresses, same coins), as following the chain delivers them
      const next = pools.map((p, i) => {
        const o = other.pools[i]
        return o && o.kind === p.kind && JSON.stringify(tokensOf(o)) === JSON.stringify(tokensOf(p))
          ? { ...o, address: p.address }
          : p
      })
      for (const p of next) graph.set(p, poolMeta[p.address])
      graph.remove(next[0]!.address)
      const fresh = RouteGraph.from(next.slice(1), poolMeta)
      const s = {
        tokenIn: TOKENS[q.pair[0]]!,
        tokenOut: TOKENS[q.pair[1]]!,
        amountIn: q.amountIn,
        maxHops: q.maxHops,
        maxRoutes: 5,
        maxSplit: q.maxSplit,
      }
      const { searchRoute } = findRouteModule
      assert.deepEqual(searchRoute(graph, s), searchRoute(fresh, s))
    }),
    { seed: 11, numRuns: 120 },
  )
})

test('on a graph of 3,000 pools, a hub-to-hub search evaluates a small share of its paths, with the exhaustive answer', () => {
  const { tokens, pools, poolMeta } = syntheticGraph(3000)
  const graph = RouteGraph.from(pools, poolMeta)
  const [a, b] = [tokens[0]!, tokens[1]!]
  for (const usd of [2_000, 300_000]) {
    const input: FindRouteInput = {
      pools: pools.filter(p => touches(p, a.address) || touches(p, b.address)),
      poolMeta,
      tokenIn: a.address,
      tokenOut: b.address,
      amountIn: BigInt(Math.round((usd / a.usd) * 1e6)) * 10n ** 12n,
      maxHops: 2,
      maxRoutes: 5,
      maxSplit: 4,
    }
    const pruned = findRouteModule.searchRoute(graph, input),
      exhaustive = findRouteExhaustive(input)
    assert.deepEqual(work(pruned), work(exhaustive))
    assert.ok(pruned.explain.candidatePaths > 5000, `${pruned.explain.candidatePaths} paths`)
    assert.ok(
      pruned.candidatesConsidered * 10 < pruned.explain.candidatePaths,
      `${pruned.candidatesConsidered} of ${pruned.explain.candidatePaths} paths evaluated`,
    )
    // past its deadline the search stops by itself, on its thread: it throws instead of searching on
    assert.throws(() => findRouteModule.searchRoute(graph, input, Date.now() - 1), SearchDeadline)
  }
  assert.ok(HUBS >= 2)
})

const findRouteModule = await import('../../../../workers/sor/findRoute.js')
const tokensOf = (p: PoolState) => (p.kind === 'stable' ? p.coins : [p.token0, p.token1])
const touches = (p: PoolState, t: string) => tokensOf(p).includes(t as PoolState['address'])
