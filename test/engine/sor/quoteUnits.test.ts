// The route finder quote's units (engine/sor/quote.ts, legs.ts, quoteShape.ts), each on its own: the warnings a
// quote can carry, the legs replayed on the engine's states (what each hop takes, the fee it pays, where a V3
// hop walked off its words, what a route can take whole), the fit to liquidity and its second search (a
// refusal leaves the first fit; a bug is logged with its query and thrown), and the effective price.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import pino from 'pino'
import { loadConfig } from '../../../engine/config.js'
import { PoolGraph } from '../../../engine/sor/poolGraph.js'
import { publishGraph } from '../../../engine/sor/graphFeed.js'
import { createRouteLane } from '../../../engine/pool/lanes.js'
import { fitToLiquidity, graphWarning, slugWarnings, staleWarning, type QuoteDeps } from '../../../engine/sor/quote.js'
import { searchRoutes } from '../../../engine/sor/routeSearch.js'
import { feesOf, fitOf, legsOf, routableOf, wordEdges } from '../../../workers/sor/legs.js'
import { legWarnings } from '../../../engine/sor/warnings.js'
import { effectivePrice } from '../../../engine/sor/quoteShape.js'
import { fail } from '../../../engine/sor/errors.js'
import type { RouteResult } from '../../../workers/sor/findRoute.js'
import type { PoolState } from '../../../workers/sor/types.js'
import type { WorkerPool } from '../../../engine/pool/workerPool.js'
import { poolAddress, stable, token, v2, v3 } from '../../workers/sor/search/fixtures.js'

const [A, B, C] = [token(1), token(2), token(3)]
const E18 = 10n ** 18n

function graphOf(pools: PoolState[]): PoolGraph {
  const g = new PoolGraph()
  for (const p of pools)
    g.track({
      address: p.address,
      protocol: p.kind === 'v3' ? 'uniswap-v3' : p.kind === 'v2' ? 'uniswap-v2' : 'stableswap',
      poolType: p.kind,
      tokens: p.kind === 'stable' ? p.coins : [p.token0, p.token1],
      fee: p.kind === 'v3' ? p.fee : p.kind === 'v2' ? p.feePpm : Number(p.fee),
      tickSpacing: null,
      createdBlock: 0,
    })
  g.setStates(pools, 7n, Date.now())
  return g
}
const route = (pools: PoolState[], path: `0x${string}`[], amountIn: bigint): RouteResult['routes'][number] => ({
  path,
  pools: pools.map(p => ({ address: p.address, protocol: 'x', poolType: p.kind, fee: 3000 })),
  hops: pools.length,
  amountIn,
  amountOut: 0n,
  fractionPct: 100,
})
const resultOf = (routes: RouteResult['routes']): RouteResult => ({ routes }) as RouteResult

// a V3 pool with one narrow range: a large input walks out of its liquidity and off its loaded words
const narrow = v3(poolAddress(1), A, B, { tick: 0, positions: [{ lower: -120, upper: 120, liquidity: 10n ** 20n }] })

test('warnings: unknown slugs, an empty graph, stale state', () => {
  assert.deepEqual(slugWarnings([{ slug: 'uniswap-v2' } as never], ['uniswap-v2', 'nope']), [
    'Unknown protocol slug(s): nope. GET /api/v1/sor/protocols lists them.',
  ])
  assert.deepEqual(slugWarnings([], null), [])
  assert.match(graphWarning({ pools: new Map(), states: new Map() })!, /^No pools are tracked yet/)
  assert.match(graphWarning({ pools: new Map([[A, {} as never]]), states: new Map() })!, /^No pool state loaded yet/)
  assert.equal(graphWarning({ pools: new Map([[A, {} as never]]), states: new Map([[A, {} as never]]) }), null)
  assert.deepEqual(staleWarning({ refreshedAt: 0, asOfBlock: 9n }, { SOR_STALE_AFTER_SECS: 300 }, 301_000), [
    'Pool state is 301 s old (block 9): refresh pool state first via POST /api/v1/sor/pool-state/refresh for a current quote.',
  ])
  assert.deepEqual(staleWarning({ refreshedAt: 0, asOfBlock: 9n }, { SOR_STALE_AFTER_SECS: 300 }, 299_000), [])
  assert.deepEqual(staleWarning({ refreshedAt: null, asOfBlock: null }, { SOR_STALE_AFTER_SECS: 300 }), [])
})

test('legs: each hop replayed exactly; a hop short of liquidity warns; the route takes whole what every hop takes', () => {
  const pools = [v2(poolAddress(2), A, C, 1000n * E18, 1000n * E18), narrow]
  const g = graphOf(pools)
  const whole = resultOf([route([pools[0]!], [A, C], 10n * E18)])
  const [leg] = legsOf(whole, g.states)
  assert.deepEqual([leg!.offered, leg!.taken], [10n * E18, 10n * E18])
  assert.deepEqual(legWarnings(legsOf(whole, g.states)), [])
  assert.deepEqual(
    feesOf([leg!]).map(f => [f.token, f.amount, f.feeBps]),
    [[A, 3n * 10n ** 16n, 30]],
  ) // 0.30% of the input
  const short = resultOf([route([narrow], [A, B], 1000n * E18)])
  const legs = legsOf(short, g.states)
  assert.ok(legs[0]!.taken < legs[0]!.offered)
  assert.match(
    legWarnings(legs)[0]!,
    new RegExp(`^Pool ${narrow.address} \\(x\\) can take only ${legs[0]!.taken} of the ${10n ** 21n}`),
  )
  assert.deepEqual(wordEdges(legs), [{ address: narrow.address, zeroForOne: A === narrow.token0 }])
  const r = routableOf(short, g.states)
  assert.ok(r.amountIn > 0n && r.amountIn < 1000n * E18)
  const again = legsOf(resultOf(r.routes), g.states)
  assert.equal(again[0]!.taken, again[0]!.offered, 'the routable amount is taken whole')
  assert.equal(
    legsOf(resultOf([route([narrow], [A, B], r.amountIn + 1n)]), g.states)[0]!.taken < r.amountIn + 1n,
    true,
    'one more is not',
  )
})

test("the stable pool's fee is taken from its output", () => {
  const s = stable(poolAddress(3), [A, B], [1000n * E18, 1000n * E18], [18, 18])
  const [leg] = legsOf(resultOf([route([s], [A, B], E18)]), graphOf([s]).states)
  const [fee] = feesOf([leg!])
  assert.equal(fee!.token, B)
  assert.equal(fee!.amount, (leg!.paid * 4_000_000n) / (10n ** 10n - 4_000_000n))
})

test('effective price in whole tokens, at any size', () => {
  assert.equal(effectivePrice(2n * E18, 3n * 10n ** 6n, 18, 6), 1.5)
  assert.equal(effectivePrice(10n ** 70n, 10n ** 70n, 18, 18), 1)
  assert.equal(effectivePrice(0n, 1n, 18, 18), 0)
})

test('fit to liquidity: a refused second search leaves the first fit; a failing one is logged with its query and thrown', async () => {
  const pools = [narrow]
  const graph = graphOf(pools)
  const lane = createRouteLane(1)
  const lines: string[] = []
  const log = pino(
    { level: 'debug' },
    new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk))
        cb()
      },
    }),
  )
  const feed = publishGraph(graph, lane, log)
  try {
    const config = loadConfig({ SOR_QUOTE_TIMEOUT_MS: '20000' })
    const q = { tokenIn: A, tokenOut: B, maxHops: 2 as const, maxRoutes: 5, maxSplit: 4, slugs: null }
    const amountIn = 1000n * E18
    const [first] = await searchRoutes({ routePool: lane, feed, config }, q, [amountIn])
    assert.deepEqual(
      first!.routable,
      fitOf(first!.result, graph.states),
      'the route thread fitted it as the engine would',
    )
    const found = { found: first!, legs: legsOf(first!.result, graph.states) }
    // the second search (for the routable amount) goes through a lane that refuses, then one that breaks
    const failing = (e: Error): WorkerPool => ({
      threads: 1,
      queueSize: 0,
      close: async () => {},
      run: () => Promise.reject(e),
    })
    const deps = (routePool: WorkerPool): QuoteDeps => ({
      graph,
      feed,
      sql: null as never,
      routePool,
      config,
      protocols: () => [],
      log,
    })
    const refused = await fitToLiquidity(deps(failing(fail({ code: 'SEARCH_TIMEOUT', ms: 1 }))), q, amountIn, found)
    assert.ok(refused.amountIn < amountIn && refused.amountIn > 0n, 'the first fit stands')
    assert.match(refused.warnings[0]!, /^Insufficient liquidity:/)
    await assert.rejects(fitToLiquidity(deps(failing(new TypeError('a bug'))), q, amountIn, found), /a bug/)
    const logged = lines
      .map(l => JSON.parse(l))
      .find(l => l.msg === 'sor: second search for the routable amount failed')
    assert.ok(logged, 'logged')
    assert.deepEqual(
      [logged.tokenIn, logged.tokenOut, logged.amountIn, logged.err.message],
      [A, B, String(refused.amountIn), 'a bug'],
    )
  } finally {
    feed.close()
    await lane.close()
  }
})
