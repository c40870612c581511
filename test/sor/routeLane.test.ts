// The route finder on its lane, on a graph of 10,000 pools the engine loads from PostgreSQL: bad input answers
// the same 4xx as on a small graph; a hub-to-hub quote evaluates a small share of its paths; a change to the
// graph reaches the route threads before the next quote is searched; a search given too little time is cut
// (503 SEARCH_TIMEOUT) and the next one answers; a route thread stopped at a deadline comes back with the graph.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { syntheticGraph } from '../../bench/lib/syntheticGraph.js'
import { seedGraph } from '../../bench/lib/seedGraph.js'
import { createSorService } from '../../engine/sor/service.js'
import { searchRoutes } from '../../engine/sor/routeSearch.js'
import { SorFailure } from '../../engine/sor/errors.js'
import { repoRoot } from '../../engine/paths.js'
import type { V2Pool } from '../../workers/sor/types.js'

const graph = syntheticGraph(10_000)
const [hub0, hub1] = [graph.tokens[0]!, graph.tokens[1]!]
let t: TestEngine
// a generous budget: on a busy machine a route thread's first copy of 10,000 pools takes seconds to build
before(async () => {
  t = await startTestEngine({ SOR_QUOTE_TIMEOUT_MS: '60000' }, { seed: ({ sql }) => seedGraph(sql, graph) })
})
after(async () => {
  await t?.stop()
})

const quote = async (q: Record<string, string>) => {
  const r = await fetch(`${t.api}/api/v1/sor/quote?${new URLSearchParams(q)}`)
  return { status: r.status, body: (await r.json()) as any }
}

test('bad input gets the same 4xx at 10,000 pools: an unknown token, a zero amount, an amount past uint256', async () => {
  const unknown = `0x${'ee'.repeat(20)}`
  const cases: [Record<string, string>, number, Record<string, string>][] = [
    [
      { tokenIn: unknown, tokenOut: hub1.address, amountIn: '1' },
      404,
      { error: `Token ${unknown} not found in registry`, code: 'TOKEN_NOT_FOUND' },
    ],
    [
      { tokenIn: 'NOSUCH', tokenOut: hub1.address, amountIn: '1' },
      404,
      { error: 'Token NOSUCH not found in registry', code: 'TOKEN_NOT_FOUND' },
    ],
    [
      { tokenIn: hub0.address, tokenOut: hub1.address, amountIn: '0' },
      400,
      { error: 'amountIn must be a positive integer (raw units)' },
    ],
    [
      { tokenIn: hub0.address, tokenOut: hub1.address, amountIn: (1n << 256n).toString() },
      400,
      { error: 'amountIn must be a positive integer (raw units)' },
    ],
    [
      { tokenIn: hub0.address, tokenOut: hub0.address, amountIn: '1' },
      400,
      { error: 'tokenIn and tokenOut must be different' },
    ],
  ]
  for (const [q, status, body] of cases) assert.deepEqual(await quote(q), { status, body }, JSON.stringify(q))
})

test('a hub-to-hub quote at 10,000 pools evaluates a small share of its paths, and says how many it had', async () => {
  const r = await quote({
    tokenIn: hub0.address,
    tokenOut: hub1.address,
    amountIn: String(graph.raw(50, hub0.decimals)),
  })
  assert.equal(r.status, 200)
  assert.ok(r.body.routes.length >= 1)
  assert.ok(r.body.explain.candidatePaths > 50_000, `${r.body.explain.candidatePaths} paths`)
  assert.ok(
    r.body.meta.candidatesConsidered * 20 < r.body.explain.candidatePaths,
    `${r.body.meta.candidatesConsidered} evaluated`,
  )
})

test('a change of the graph reaches the route threads before the next quote is searched', async () => {
  const sor = await createSorService({
    config: t.engine.ctx.config,
    sql: t.db.sql,
    routePool: t.engine.ctx.routePool,
    log: t.engine.ctx.log,
    client: null,
  })
  try {
    const amountIn = graph.raw(1000, hub0.decimals)
    const first = await sor.routeFinder.quote({ tokenIn: hub0.address, tokenOut: hub1.address, amountIn })
    assert.ok(first.ok)
    // one direct pool becomes far deeper than any, with no fee and a price 2% better: the next quote must use it
    const direct = [...sor.graph.states.values()].find(
      (p): p is V2Pool =>
        p.kind === 'v2' && [p.token0, p.token1].includes(hub0.address) && [p.token0, p.token1].includes(hub1.address),
    )!
    const outIs1 = direct.token1 === hub1.address
    sor.graph.replaceState({
      ...direct,
      feePpm: 0,
      reserve0: direct.reserve0 * (outIs1 ? 100_000n : 102_000n),
      reserve1: direct.reserve1 * (outIs1 ? 102_000n : 100_000n),
    })
    const next = await sor.routeFinder.quote({ tokenIn: hub0.address, tokenOut: hub1.address, amountIn })
    assert.ok(next.ok)
    assert.ok(
      next.value.routes.some(r => r.pools.some(p => p.address === direct.address)),
      'routed through the deepened pool',
    )
    assert.ok(next.value.summary.amountOut > first.value.summary.amountOut)
  } finally {
    await sor.stop()
  }
})

test('a search given too little time is cut (SEARCH_TIMEOUT), and the next answers', async () => {
  const sor = await createSorService({
    config: t.engine.ctx.config,
    sql: t.db.sql,
    routePool: t.engine.ctx.routePool,
    log: t.engine.ctx.log,
    client: null,
  })
  try {
    const q = {
      tokenIn: hub0.address,
      tokenOut: hub1.address,
      maxHops: 2 as const,
      maxRoutes: 5,
      maxSplit: 4,
      slugs: null,
    }
    const amounts = [1, 10, 100, 1000, 10_000].map(n => graph.raw(n, hub0.decimals))
    await assert.rejects(
      searchRoutes(
        { routePool: t.engine.ctx.routePool, feed: sor.feed, config: { SOR_QUOTE_TIMEOUT_MS: 1 } },
        q,
        amounts,
      ),
      (e: unknown) => e instanceof SorFailure && e.refusal.code === 'SEARCH_TIMEOUT',
    )
    const [r] = await searchRoutes(
      { routePool: t.engine.ctx.routePool, feed: sor.feed, config: { SOR_QUOTE_TIMEOUT_MS: 30_000 } },
      q,
      [amounts[2]!],
    )
    assert.ok(r!.result.routes.length >= 1)
  } finally {
    await sor.stop()
  }
})

test('a route thread stopped at a deadline is replaced by one that asks for the graph, and quotes go on', async () => {
  const spin = pathToFileURL(join(repoRoot, 'dist/test/engine/pool/spin.task.js')).href
  await assert.rejects(
    t.engine.ctx.routePool.run(spin, { ms: 60_000 }, { signal: AbortSignal.timeout(200) }),
    (e: Error) => e.name === 'AbortError',
  )
  const r = await quote({
    tokenIn: hub1.address,
    tokenOut: hub0.address,
    amountIn: String(graph.raw(500, hub1.decimals)),
  })
  assert.equal(r.status, 200)
  assert.ok(r.body.routes.length >= 1, JSON.stringify(r.body.warnings))
})
