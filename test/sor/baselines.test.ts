// Server-side baselines under load (engine/sor/baselineQueue.ts), on a synthetic graph of 2,000 pools the engine
// loads from PostgreSQL: RFQs on one pair within the window share one route task and each gets the baseline a
// quote of its own amount would give; past the queue's bound, past the longest wait, or where the route finder
// has no answer, the RFQ's baseline is stored missing with its reason, and the performance report names it.
import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { makeRfq } from '../relay/helpers.js'
import { syntheticGraph } from '../../bench/lib/syntheticGraph.js'
import { seedGraph } from '../../bench/lib/seedGraph.js'
import type { Address, Rfq } from '../../actors/rfqTypes.js'

const graph = syntheticGraph(2000)
const [hub0, hub1] = [graph.tokens[0]!, graph.tokens[1]!]
const units = (t: typeof hub0, n: number) => graph.raw(n, t.decimals)
// a registry token that no pool trades: searched, and no route
const ISOLATED: Address = `0x${'cd'.repeat(20)}`
const seed = async ({ sql }: { sql: Parameters<typeof seedGraph>[0] }) => {
  await seedGraph(sql, graph)
  await sql`insert into tokens (chain_id, address, symbol, decimals) values (31337, ${ISOLATED}, 'ISO', 18)`
}

async function create(t: TestEngine, over: Partial<Rfq>): Promise<Rfq> {
  const rfq = makeRfq({ expiry: Math.floor(Date.now() / 1000) + 600, ...over })
  await t.engine.modules.book.create(rfq)
  return rfq
}
const misses = (t: TestEngine) => t.db.sql`select rfq_id, code, reason from baseline_misses`
const stored = (t: TestEngine) =>
  t.db.sql`select rfq_id, amount_in, baseline_amount_out, partial from baselines where source = 'sor'`

describe('coalesced, bounded, and never dropped silently', () => {
  // a window of 3 s: every RFQ a test creates at once is received before the first search starts, on any machine
  let t: TestEngine
  before(async () => {
    t = await startTestEngine(
      {
        SOR_BASELINE_QUEUE: '20',
        SOR_BASELINE_COALESCE_MS: '3000',
        SOR_BASELINE_RATE: '50',
        SOR_QUOTE_TIMEOUT_MS: '20000',
      },
      { seed },
    )
  })
  after(async () => {
    await t?.stop()
  })

  test('RFQs on one pair within the window share one route task; each baseline is what a quote of its amount answers', async () => {
    const before = { ...t.engine.modules.baselines.stats }
    const amounts = [1, 5, 5, 20, 1, 300].map(n => units(hub0, n))
    const rfqs = await Promise.all(
      amounts.map(amountIn => create(t, { tokenIn: hub0.address, tokenOut: hub1.address, amountIn })),
    )
    await t.engine.modules.baselines.settled()
    const stats = t.engine.modules.baselines.stats
    assert.equal(stats.searches - before.searches, 1, 'one route task for the pair')
    assert.equal(stats.coalesced - before.coalesced, rfqs.length - 1)
    const rows = new Map((await stored(t)).map(r => [r.rfq_id as string, r]))
    for (const rfq of rfqs) {
      const row = rows.get(rfq.id)
      assert.ok(row, `a baseline for ${rfq.id}`)
      const alone = await t.engine.modules.routeFinder.quote({
        tokenIn: rfq.tokenIn,
        tokenOut: rfq.tokenOut,
        amountIn: rfq.amountIn!,
        explain: false,
      })
      assert.ok(alone.ok)
      assert.equal(
        BigInt(row.baseline_amount_out),
        alone.value.summary.amountOut,
        'the coalesced search answers as a quote of its own amount',
      )
      assert.equal(row.partial, false)
    }
  })

  test("past the queue's bound an RFQ's baseline is stored missing (QUEUE_FULL), and the performance report says why", async () => {
    const pairs = graph.tokens.slice(2, 32).map(t => t.address)
    const rfqs = await Promise.all(
      pairs.map(tokenIn => create(t, { tokenIn, tokenOut: hub1.address, amountIn: 10n ** 18n })),
    )
    await t.engine.modules.baselines.settled()
    const missed = (await misses(t)).filter(m => rfqs.some(r => r.id === m.rfq_id))
    const full = missed.filter(m => m.code === 'QUEUE_FULL')
    assert.equal(full.length, rfqs.length - 20, 'the 20 the queue holds are searched; the rest are stored missing')
    assert.equal(full[0]!.reason, 'the baseline queue was full (20 RFQs waiting)')
    const searched = rfqs.filter(r => !full.some(m => m.rfq_id === r.id))
    const storedIds = new Set((await stored(t)).map(r => r.rfq_id))
    for (const r of searched)
      assert.ok(storedIds.has(r.id) || missed.some(m => m.rfq_id === r.id), `${r.id}: a baseline or a miss`)
    const report = await fetch(`${t.api}/api/v1/rfq/performance?rfqId=${full[0]!.rfq_id}`)
    assert.equal(report.status, 404)
    assert.deepEqual(await report.json(), {
      error: 'No baseline or fill found for this RFQ',
      missing: ['baseline', 'fill'],
      baselineMissing: { code: 'QUEUE_FULL', reason: 'the baseline queue was full (20 RFQs waiting)' },
    })
  })

  test('what the route finder cannot give is stored with its reason: exact output, an unknown token, no route', async () => {
    const lone: Address = `0x${'ab'.repeat(20)}`
    const exactOut = await create(t, {
      tokenIn: hub0.address,
      tokenOut: hub1.address,
      kind: 1,
      amountIn: null,
      amountOut: 10n ** 9n,
    })
    const unknown = await create(t, { tokenIn: lone, tokenOut: hub1.address, amountIn: 10n ** 18n })
    const none = await create(t, { tokenIn: ISOLATED, tokenOut: hub1.address, amountIn: 10n ** 18n })
    await t.engine.modules.baselines.settled()
    const byId = new Map((await misses(t)).map(m => [m.rfq_id as string, m]))
    assert.deepEqual(
      { ...byId.get(exactOut.id) },
      {
        rfq_id: exactOut.id,
        code: 'EXACT_OUT',
        reason: 'the RFQ is exact-output: the route finder quotes an exact input',
      },
    )
    assert.deepEqual(
      { ...byId.get(unknown.id) },
      { rfq_id: unknown.id, code: 'TOKEN_NOT_FOUND', reason: `Token ${lone} not found in registry` },
    )
    assert.equal(byId.get(none.id)?.code, 'NO_ROUTE')
    assert.match(byId.get(none.id)?.reason, /^No pool connects 0xcdcd/)
  })
})

describe('not started in time', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine(
      {
        SOR_BASELINE_RATE: '1',
        SOR_BASELINE_MAX_WAIT_MS: '300',
        SOR_BASELINE_COALESCE_MS: '0',
        SOR_QUOTE_TIMEOUT_MS: '20000',
      },
      { seed },
    )
  })
  after(async () => {
    await t?.stop()
  })

  test('at one search a second, RFQs on four pairs: the first is searched, the others waited past the longest wait (DEADLINE)', async () => {
    const rfqs = []
    for (const tok of graph.tokens.slice(5, 9))
      rfqs.push(await create(t, { tokenIn: tok.address, tokenOut: hub0.address, amountIn: 10n ** 18n }))
    await t.engine.modules.baselines.settled()
    const byId = new Map((await misses(t)).map(m => [m.rfq_id as string, m]))
    const storedIds = new Set((await stored(t)).map(r => r.rfq_id))
    assert.ok(storedIds.has(rfqs[0]!.id) || byId.get(rfqs[0]!.id)?.code === 'NO_ROUTE', 'the first was searched')
    for (const r of rfqs.slice(1)) {
      assert.equal(byId.get(r.id)?.code, 'DEADLINE', r.id)
      assert.equal(
        byId.get(r.id)?.reason,
        "not started within 300 ms of the RFQ's creation (the baseline queue was behind)",
      )
    }
  })
})
