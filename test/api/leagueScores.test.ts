// The materialised league scores (migration 070): the SQL score equals the reference formula, and
// the table maintained by the trigger and by ensureBase always equals a from-scratch rescoring,
// after concurrent fills, backdated fills, makers judged by RFQ outcomes and a period's base turning.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { addr, fillBody, post, get, TEST_ENV, TOKEN_A, TOKEN_B } from './fillsFixtures.js'
import { leagueScore } from '../../workers/fills/leagueScore.js'
import { recordFill } from '../../engine/fills/record.js'
import { insertQuoteRow } from '../engine/store/rows.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine(TEST_ENV)
})
after(async () => {
  await t?.stop()
})

// PostgreSQL's log10 (the C library's) and V8's Math.log10 may differ in the last bit, so the two
// agree to 1e-12 relative; ranking never mixes them (the database orders by its own scores).
test('property: league_raw_score in SQL equals leagueScore() within 1e-12 relative', async () => {
  const share = fc.integer({ min: 0, max: 1000 }).map(n => n / 1000)
  // PostgreSQL refuses subnormal float input, so those are left out
  const normal = (min: number, max: number) =>
    fc
      .double({ min, max, noNaN: true })
      .filter(d => d === 0 || Math.abs(d) > 1e-300)
      .map(d => (d === 0 ? 0 : d))
  await fc.assert(
    fc.asyncProperty(
      normal(0, 1e12),
      normal(-500, 500),
      share,
      fc.option(share, { nil: null }),
      async (notional, imp, privateShare, cancelRate) => {
        const [r] = await t.db
          .sql`select league_raw_score(${notional}::float8, ${imp}::float8, ${privateShare}::float8, ${cancelRate}::float8) as s`
        const want = leagueScore({
          filledNotional: notional,
          avgImprovementBps: imp,
          privateShare,
          cancelRate,
        }).rawScore
        assert.ok(Math.abs(r!.s - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${r!.s} vs ${want}`)
      },
    ),
    { numRuns: 300 },
  )
})

const snapshot = () => t.db.sql`
  select period, role, address, fills, notional_usd, benchmarked_fills, improvement_sum::text, private_fills, points, avg_imp,
         private_share, cancel_rate, reliability, raw_score
  from league_scores order by period, role, address`

/** The table as it is, then as a from-scratch rescoring of every period makes it: they must be equal. */
async function assertFresh(): Promise<number> {
  const kept = await snapshot()
  await t.db.sql.begin(async tx => {
    await tx`select league_rescore('all', null, null)`
    await tx`select league_rescore(period, null, null) from league_base_meta`
  })
  const fresh = await snapshot()
  assert.deepEqual(kept, fresh)
  return kept.length
}

test('after concurrent fills, backdated fills, judged makers and a base turn, the scores equal a fresh rescoring', async () => {
  const makers = [addr(0x5001), addr(0x5002), addr(0x5003)] as const,
    takers = [addr(0x6001), addr(0x6002), makers[0]] as const
  // the 7d and 30d bases exist before the fills, so the trigger maintains those periods too
  for (const period of ['7d', '30d']) assert.equal((await get(t.api, `/api/v1/league?period=${period}`)).status, 200)
  const posts = Array.from({ length: 40 }, (_, i) =>
    post(
      t.api,
      '/api/v1/fills',
      fillBody({
        taker: takers[i % 3],
        maker: makers[(i * 7) % 3],
        amountInUsd: 1000 + i,
        visibility: i % 4 ? 'public' : 'private',
      }),
    ),
  )
  assert.ok((await Promise.all(posts)).every(r => r.status === 200))
  assert.ok((await assertFresh()) > 0)

  // a backdated fill drops the bases it falls before; the next league read rebuilds them with their scores
  await recordFill(
    t.db.sql,
    {
      txHash: `0x${'ab'.repeat(32)}`,
      taker: takers[0] as `0x${string}`,
      maker: makers[1] as `0x${string}`,
      tokenIn: TOKEN_A as `0x${string}`,
      tokenOut: TOKEN_B as `0x${string}`,
      amountIn: 1n,
      amountOut: 1n,
      amountInUsd: 5000,
      visibility: 'public',
      rfqId: null,
    },
    { filledAt: new Date(Date.now() - 10 * 86400_000) },
  )
  const read = async (period: string) => (await get(t.api, `/api/v1/league?period=${period}&limit=100`)).body
  const [d7, d30, all] = [await read('7d'), await read('30d'), await read('all')]
  const notionalOf = (b: any, a: string) => b.entries.find((e: any) => e.address === a)?.filledNotional
  assert.equal(notionalOf(d30, makers[1]) - notionalOf(d7, makers[1]), 5000)
  assert.equal(notionalOf(all, makers[1]), notionalOf(d30, makers[1]))

  // a maker judged by an expired RFQ: reliability changes in the same transaction as the status
  await t.db
    .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility) values ('ls-1', ${takers[0]}, ${TOKEN_A}, ${TOKEN_B}, 0, 10, 0, 'public')`
  await insertQuoteRow(t.db.sql, 'ls-1', makers[2])
  await t.db.sql`update rfqs set status = 'EXPIRED' where id = 'ls-1'`
  const m2 = (await read('all')).entries.find((e: any) => e.address === makers[2])
  assert.deepEqual([m2.cancelRate, m2.reliability], [1, 0.5])

  // the day turns for 30d: a base for another first day is rebuilt, scores with it
  await t.db.sql`update league_base_meta set base_day = base_day - 1 where period = '30d'`
  assert.equal((await get(t.api, '/api/v1/league?period=30d')).status, 200)
  await assertFresh()
})
