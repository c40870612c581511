// A burst of RFQ creations, each with its server-side baseline, on a graph of 3,000 pools, while makers quote over
// the relay: every quote is validated and broadcast while the baselines are still being searched (they wait
// in their own queue, on their own threads), and afterwards every RFQ of the burst has its baseline or its
// miss stored with a reason.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign } from '../relay/helpers.js'
import { syntheticGraph, HUBS } from '../../bench/lib/syntheticGraph.js'
import { seedGraph } from '../../bench/lib/seedGraph.js'

const graph = syntheticGraph(3000)
let t: TestEngine
before(async () => {
  // 10 route tasks a second: the 150 take 15 s, far longer than 40 quotes take to validate on any machine
  t = await startTestEngine(
    {
      RATE_LIMIT_PER_MIN: '100000',
      SOR_BASELINE_RATE: '10',
      SOR_BASELINE_COALESCE_MS: '20',
      SOR_BASELINE_QUEUE: '1000',
    },
    { seed: ({ sql }) => seedGraph(sql, graph) },
  )
})
after(async () => {
  await t?.stop()
})

test('quotes are validated while a burst of 150 RFQ creations waits for its baselines; none of the burst is left without a baseline or a reason', async () => {
  const rfq = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 600 })
  const observer = await Client.open(t.relayWs)
  const maker = await Client.open(`${t.relayWs}/?channels=rfqs`)
  const makers = Array.from({ length: 40 }, () => account())
  const signed = await Promise.all(
    makers.map(async m => {
      const q = makeQuote(m, rfq)
      return { quote: q, signature: await sign(m, domainOf(t), q) }
    }),
  )

  // the burst: distinct pairs of the graph (token -> hub), so nothing coalesces and each is a route task
  const burst = await Promise.all(
    graph.tokens.slice(HUBS, HUBS + 150).map((tok, i) =>
      createRfq(t, {
        tokenIn: tok.address,
        tokenOut: graph.tokens[i % HUBS]!.address,
        amountIn: graph.raw(100, tok.decimals),
        expiry: Math.floor(Date.now() / 1000) + 600,
      }),
    ),
  )
  for (const s of signed) maker.send('QUOTE_SUBMIT', { rfqId: rfq.id, ...s })
  for (const s of signed)
    await observer.next(f => f.type === 'QUOTE_BROADCAST' && f.data.quote.maker === s.quote.maker, 20_000)
  const { waiting, searching } = t.engine.modules.baselines.stats
  assert.ok(
    waiting + searching > 0,
    `every quote was validated while ${waiting} baselines waited and ${searching} were searched`,
  )
  assert.deepEqual(maker.of('ERROR'), [])

  await t.engine.modules.baselines.settled()
  const ids = burst.map(r => r.id)
  const [{ n: baselines }] = (await t.db
    .sql`select count(*)::int as n from baselines where rfq_id = any(${ids})`) as unknown as [{ n: number }]
  const misses = await t.db
    .sql`select code, count(*)::int as n from baseline_misses where rfq_id = any(${ids}) group by code`
  const missed = misses.reduce((a, m) => a + (m.n as number), 0)
  assert.equal(
    baselines + missed,
    burst.length,
    `${baselines} baselines and ${missed} misses (${JSON.stringify(misses)}) for ${burst.length} RFQs`,
  )
  await Promise.all([observer.close(), maker.close()])
})
