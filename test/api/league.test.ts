import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { addr, fillBody, baselineBody, post, get, TEST_ENV, TOKEN_A, TOKEN_B } from './fillsFixtures.js'
import { leagueScore, reliabilityFactor } from '../../workers/fills/leagueScore.js'
import { pointsV2 } from '../../workers/fills/points.js'
import { recordFill } from '../../engine/fills/record.js'
import { insertQuoteRow } from '../engine/store/rows.js'

const M1 = addr(0x1001),
  M2 = addr(0x1002),
  T1 = addr(0x2001),
  T2 = addr(0x2002)

async function rfqWithQuotes(
  t: TestEngine,
  id: string,
  quotes: [maker: string, amountOut: bigint][],
  status: 'FILLED' | 'EXPIRED' | 'CANCELLED',
) {
  await t.db
    .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility) values (${id}, ${T1}, ${TOKEN_A}, ${TOKEN_B}, 0, 10, 0, 'public')`
  for (const [i, [maker, out]] of quotes.entries())
    await insertQuoteRow(t.db.sql, id, maker, { amountOut: out, nonce: BigInt(i), arrival: i + 1 })
  await t.db.sql`update rfqs set status = ${status} where id = ${id}`
}

describe('league end to end: baseline -> fill -> performance -> summary -> league -> activity', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine(TEST_ENV)
  })
  after(async () => {
    await t?.stop()
  })

  test('hand-checked figures', async () => {
    // M1's reliability evidence: best quote on 4 RFQs that reached a final state, one EXPIRED -> cancelRate 0.25.
    // M2 quoted worse on rfq-b (not judged); a taker-cancelled RFQ judges no one.
    await rfqWithQuotes(t, 'rfq-a', [[M1, 10_020n]], 'FILLED')
    await rfqWithQuotes(
      t,
      'rfq-b',
      [
        [M2, 9_000n],
        [M1, 10_000n],
      ],
      'EXPIRED',
    )
    await rfqWithQuotes(t, 'rfq-c', [[M1, 10_000n]], 'FILLED')
    await rfqWithQuotes(t, 'rfq-d', [[M1, 10_000n]], 'FILLED')
    await rfqWithQuotes(t, 'rfq-e', [[M1, 10_000n]], 'CANCELLED')

    // baseline -> fill: +20 bps on a $99,999 private fill
    assert.equal(
      (
        await post(
          t.api,
          '/api/v1/rfq/baseline',
          baselineBody({ rfqId: 'rfq-a', amountIn: '10', baselineAmountOut: '10000' }),
        )
      ).status,
      200,
    )
    const f1 = await post(
      t.api,
      '/api/v1/fills',
      fillBody({
        rfqId: 'rfq-a',
        taker: T1,
        maker: M1,
        amountIn: '10',
        amountOut: '10020',
        amountInUsd: 99_999,
        visibility: 'private',
      }),
    )
    assert.equal(f1.status, 200)
    // points: 999.99 * (1 + 20/200) * 1.25 = 1374.98625 -> maker 1374.99, taker 687.49
    assert.deepEqual(
      [f1.body.fill.improvementBps, f1.body.fill.makerPoints, f1.body.fill.takerPoints],
      [20, 1374.99, 687.49],
    )
    const f2 = await post(t.api, '/api/v1/fills', fillBody({ taker: T2, maker: M2, amountInUsd: 9 }))
    assert.deepEqual([f2.body.fill.improvementBps, f2.body.fill.makerPoints, f2.body.fill.takerPoints], [0, 0.09, 0.05])

    const perf = await get(t.api, '/api/v1/rfq/performance?rfqId=rfq-a')
    assert.deepEqual(
      [perf.body.improvementBps, perf.body.rfqAmountOut, perf.body.baselineAmountOut, perf.body.baselineSource],
      [20, '10020', '10000', 'agg'],
    )

    const sum = await get(t.api, '/api/v1/rfq/performance-summary?window=24h')
    assert.deepEqual(sum.body, {
      window: '24h',
      totalFills: 2,
      avgImprovementBps: 20,
      medianImprovementBps: 20,
      totalVolumeUsd: 100_008,
      pctBetterThanBaseline: 100,
    })

    // makers: M1 = 10*log10(100000)=50 * 1.2 * (1 + 0.1*1) * (1.1 - 0.25*1.5 = 0.725) = 47.85
    //         M2 = 10*log10(10)=10 * 1 * 1 * 1.1 (no evidence of failure) = 11
    const makers = await get(t.api, '/api/v1/league')
    assert.equal(makers.status, 200)
    assert.deepEqual(
      { ...makers.body, entries: undefined },
      {
        role: 'maker',
        period: '7d',
        minUsd: 0,
        entries: undefined,
        totalParticipants: 2,
        hasMore: false,
        limit: 50,
        offset: 0,
        kpi: { totalNotional: 100_008, avgImprovementBps: 20, privateVolumePct: 50, fillCount: 2 },
      },
    )
    const [e1, e2] = makers.body.entries
    assert.equal(Math.abs(e1.rawScore - 47.85) < 1e-9, true)
    assert.deepEqual(
      { ...e1, rawScore: 0 },
      {
        rank: 1,
        address: M1,
        score: 47.85,
        rawScore: 0,
        filledNotional: 99_999,
        avgImprovementBps: 20,
        privateShare: 1,
        fills: 1,
        reliability: 0.725,
        cancelRate: 0.25,
        boostMultiplier: 1,
        points: 1374.99,
      },
    )
    assert.deepEqual(
      { ...e2, rawScore: 0 },
      {
        rank: 2,
        address: M2,
        score: 11,
        rawScore: 0,
        filledNotional: 9,
        avgImprovementBps: 0,
        privateShare: 0,
        fills: 1,
        reliability: 1.1,
        cancelRate: 0,
        boostMultiplier: 1,
        points: 0.09,
      },
    )

    // takers: T1 = 50 * 1.2 * 1.1 = 66, T2 = 10; no reliability for takers
    const takers = await get(t.api, '/api/v1/league?role=taker&period=all')
    assert.deepEqual(
      takers.body.entries.map((e: any) => [e.rank, e.address, e.score, e.reliability, e.cancelRate, e.points]),
      [
        [1, T1, 66, null, null, 687.49],
        [2, T2, 10, null, null, 0.05],
      ],
    )

    // minUsd, search, paging
    assert.deepEqual(
      (await get(t.api, '/api/v1/league?minUsd=10')).body.entries.map((e: any) => e.address),
      [M1],
    )
    const s = await get(t.api, `/api/v1/league?search=${M2.slice(-6).toUpperCase()}`)
    assert.deepEqual(
      s.body.entries.map((e: any) => [e.rank, e.address]),
      [[2, M2]],
    )
    assert.equal(s.body.totalParticipants, 1)
    const p1 = await get(t.api, '/api/v1/league?limit=1')
    assert.deepEqual([p1.body.entries.length, p1.body.hasMore, p1.body.totalParticipants], [1, true, 2])
    const p2 = await get(t.api, '/api/v1/league?limit=1&offset=1')
    assert.deepEqual([p2.body.entries[0].address, p2.body.hasMore], [M2, false])
    const p3 = await get(t.api, '/api/v1/league?limit=1&offset=5')
    assert.deepEqual([p3.body.entries.length, p3.body.hasMore, p3.body.totalParticipants], [0, false, 2])

    // activity
    const act = await get(t.api, `/api/v1/league/activity?address=${M1}`)
    assert.equal(act.status, 200)
    assert.deepEqual({ ...act.body, fills: undefined }, { address: M1, role: 'maker', period: '7d', fills: undefined })
    assert.equal(act.body.fills.length, 1)
    const a = act.body.fills[0]
    assert.ok(!Number.isNaN(Date.parse(a.filledAt)))
    assert.deepEqual(
      { ...a, filledAt: 0 },
      {
        txHash: f1.body.fill.txHash,
        filledAt: 0,
        counterparty: T1,
        tokenIn: TOKEN_A,
        tokenOut: TOKEN_B,
        amountIn: '10',
        amountOut: '10020',
        notionalUsd: 99_999,
        isPrivate: true,
        improvementBps: 20,
        benchmarkAvailable: true,
      },
    )
    const asTaker = await get(t.api, `/api/v1/league/activity?address=${T2}&role=taker&period=30d`)
    assert.deepEqual(
      asTaker.body.fills.map((f: any) => [f.counterparty, f.benchmarkAvailable, f.improvementBps]),
      [[M2, false, 0]],
    )
    assert.deepEqual((await get(t.api, `/api/v1/league/activity?address=${T2}`)).body.fills, []) // T2 is no maker
  })

  test('league parameter errors', async () => {
    const cases: [string, string][] = [
      ['role=admin', 'Invalid role (maker or taker)'],
      ['period=1y', 'Invalid period (7d, 30d or all)'],
      ['minUsd=-1', 'Invalid minUsd (a number >= 0)'],
      ['minUsd=abc', 'Invalid minUsd (a number >= 0)'],
      ['search=0x1', 'search must be at least 4 characters'],
      ['limit=0', 'Invalid limit (1-100)'],
      ['limit=101', 'Invalid limit (1-100)'],
      ['offset=-1', 'Invalid offset (an integer >= 0)'],
    ]
    for (const [q, text] of cases) {
      const r = await get(t.api, `/api/v1/league?${q}`)
      assert.deepEqual([r.status, r.body.error], [400, text], q)
    }
  })

  test('activity parameter errors and limit bounds', async () => {
    const cases: [string, string][] = [
      ['', 'address is required'],
      [`address=0x${'Ab'.repeat(20)}`, 'Invalid address format (expected lowercase 0x + 40 hex chars)'],
      ['address=0x1234', 'Invalid address format (expected lowercase 0x + 40 hex chars)'],
      [`address=${M1}&role=x`, 'Invalid role (maker or taker)'],
      [`address=${M1}&period=90d`, 'Invalid period (7d, 30d or all)'],
      [`address=${M1}&limit=51`, 'Invalid limit (1-50)'],
      [`address=${M1}&limit=0`, 'Invalid limit (1-50)'],
    ]
    for (const [q, text] of cases) {
      const r = await get(t.api, `/api/v1/league/activity?${q}`)
      assert.deepEqual([r.status, r.body.error], [400, text], q)
    }
    const M3 = addr(0x1003)
    for (let i = 0; i < 12; i++)
      await post(t.api, '/api/v1/fills', fillBody({ taker: T1, maker: M3, amountInUsd: i + 1 }))
    assert.equal((await get(t.api, `/api/v1/league/activity?address=${M3}`)).body.fills.length, 10)
    const all = (await get(t.api, `/api/v1/league/activity?address=${M3}&limit=50`)).body.fills
    assert.equal(all.length, 12)
    assert.deepEqual(
      all.map((f: any) => f.notionalUsd),
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
    ) // newest first
  })
})

describe('periods: whole UTC days over the rollups, with backdated fills', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine(TEST_ENV)
  })
  after(async () => {
    await t?.stop()
  })

  test('a fill 10 days old counts in 30d and all, not 7d; one 40 days old only in all (bases recomputed)', async () => {
    const M = addr(0x3001),
      T = addr(0x3002)
    const input = (usd: number) => ({
      txHash: fillBody().txHash as `0x${string}`,
      taker: T as `0x${string}`,
      maker: M as `0x${string}`,
      tokenIn: TOKEN_A as `0x${string}`,
      tokenOut: TOKEN_B as `0x${string}`,
      amountIn: 1n,
      amountOut: 1n,
      amountInUsd: usd,
      visibility: 'public' as const,
      rfqId: null,
    })
    await post(t.api, '/api/v1/fills', fillBody({ taker: T, maker: M, amountInUsd: 1 }))
    const notional = async (period: string) =>
      (await get(t.api, `/api/v1/league?period=${period}`)).body.entries.find((e: any) => e.address === M)
        ?.filledNotional
    assert.deepEqual([await notional('7d'), await notional('30d'), await notional('all')], [1, 1, 1]) // bases computed now
    await recordFill(t.db.sql, input(10), { filledAt: new Date(Date.now() - 10 * 86400_000) })
    assert.deepEqual([await notional('7d'), await notional('30d'), await notional('all')], [1, 11, 11])
    await recordFill(t.db.sql, input(100), { filledAt: new Date(Date.now() - 40 * 86400_000) })
    assert.deepEqual([await notional('7d'), await notional('30d'), await notional('all')], [1, 11, 111])
    const kpi = async (period: string) => (await get(t.api, `/api/v1/league?period=${period}`)).body.kpi.fillCount
    assert.deepEqual([await kpi('7d'), await kpi('30d'), await kpi('all')], [1, 2, 3])
    const act = await get(t.api, `/api/v1/league/activity?address=${M}&period=30d`)
    assert.deepEqual(
      act.body.fills.map((f: any) => f.notionalUsd),
      [1, 10],
    )
  })
})

describe('property: league entries match a straightforward recomputation', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine(TEST_ENV)
  })
  after(async () => {
    await t?.stop()
  })

  const makers = [addr(0xa1), addr(0xa2), addr(0xa3), addr(0xa4)]
  const takers = [addr(0xb1), addr(0xb2), addr(0xb3), addr(0xa1)] // 0xa1 also takes: self-trades happen
  const fillArb = fc.record({
    taker: fc.nat(3),
    maker: fc.nat(3),
    usd: fc.integer({ min: 0, max: 2_000_000 }),
    isPrivate: fc.boolean(),
    benchmark: fc.option(fc.integer({ min: 9_000, max: 11_000 }), { nil: undefined }),
  })
  const outcomeArb = fc.array(fc.record({ maker: fc.nat(3), expired: fc.boolean() }), { maxLength: 8 })

  test('fills, notional, improvement, KPI, scores; ranks by score; reliability within [0.5, 1.1]; paging exact', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fillArb, { minLength: 1, maxLength: 25 }), outcomeArb, async (fills, outcomes) => {
        run++
        await t.db
          .sql`truncate fills, baselines, league_daily, league_totals, league_base, league_base_meta, league_scores, quotes, rfqs`
        for (const [i, o] of outcomes.entries())
          await rfqWithQuotes(t, `p${run}-${i}`, [[makers[o.maker]!, 1n]], o.expired ? 'EXPIRED' : 'FILLED')
        const recorded: {
          taker: string
          maker: string
          usd: number
          isPrivate: boolean
          imp: number | null
          pts: { takerPoints: number; makerPoints: number }
        }[] = []
        for (const [i, f] of fills.entries()) {
          let rfqId: string | undefined
          if (f.benchmark !== undefined) {
            rfqId = `p${run}-f${i}`
            await post(
              t.api,
              '/api/v1/rfq/baseline',
              baselineBody({ rfqId, amountIn: '1', baselineAmountOut: '10000' }),
            )
          }
          const body = fillBody({
            taker: takers[f.taker],
            maker: makers[f.maker],
            amountInUsd: f.usd,
            visibility: f.isPrivate ? 'private' : 'public',
            amountIn: '1',
            amountOut: String(f.benchmark ?? 10_000),
            ...(rfqId ? { rfqId } : {}),
          })
          const r = await post(t.api, '/api/v1/fills', body)
          assert.equal(r.status, 200)
          const imp = f.benchmark === undefined ? null : f.benchmark - 10_000 // (out/10000 - 1) * 10000 exactly
          assert.equal(r.body.fill.improvementBps, imp ?? 0)
          const pts = pointsV2({
            notionalUsd: f.usd,
            improvementBps: imp ?? 0,
            isPrivate: f.isPrivate,
            taker: takers[f.taker]!,
            maker: makers[f.maker]!,
            amountIn: 1n,
            amountOut: 1n,
          })
          assert.deepEqual({ takerPoints: r.body.fill.takerPoints, makerPoints: r.body.fill.makerPoints }, pts)
          recorded.push({
            taker: takers[f.taker]!,
            maker: makers[f.maker]!,
            usd: f.usd,
            isPrivate: f.isPrivate,
            imp,
            pts,
          })
        }
        const league = recorded.filter(f => f.taker !== f.maker) // self-trades stay out of the league
        for (const role of ['maker', 'taker'] as const) {
          const res = await get(t.api, `/api/v1/league?role=${role}&period=all&limit=100`)
          assert.equal(res.status, 200)
          const mine = new Map<string, typeof league>()
          for (const f of league) mine.set(f[role], [...(mine.get(f[role]) ?? []), f])
          assert.equal(res.body.totalParticipants, mine.size)
          assert.equal(res.body.entries.length, mine.size)
          assert.equal(res.body.hasMore, false)
          res.body.entries.forEach((e: any, i: number) => {
            assert.equal(e.rank, i + 1)
            if (i > 0) assert.ok(res.body.entries[i - 1].score >= e.score, 'ranks ordered by score')
            const fs = mine.get(e.address)!
            assert.ok(fs, `unexpected address ${e.address}`)
            const notional = fs.reduce((a, f) => a + f.usd, 0)
            const bench = fs.filter(f => f.imp !== null)
            const avgImp = bench.length ? bench.reduce((a, f) => a + f.imp!, 0) / bench.length : 0
            const privateShare = fs.filter(f => f.isPrivate).length / fs.length
            const judged = outcomes.filter(o => makers[o.maker] === e.address)
            const cancelRate =
              role === 'maker' ? (judged.length ? judged.filter(o => o.expired).length / judged.length : 0) : null
            const expected = leagueScore({
              filledNotional: notional,
              avgImprovementBps: avgImp,
              privateShare,
              cancelRate,
            })
            assert.equal(e.fills, fs.length)
            assert.equal(e.filledNotional, notional)
            assert.ok(Math.abs(e.avgImprovementBps - avgImp) <= 0.005 + 1e-9)
            assert.ok(Math.abs(e.privateShare - privateShare) <= 0.00005 + 1e-12)
            assert.ok(Math.abs(e.rawScore - expected.rawScore) < 1e-6, `${e.rawScore} vs ${expected.rawScore}`)
            assert.ok(Math.abs(e.score - expected.score) <= 0.01 + 1e-9)
            const pts = fs.reduce((a, f) => a + (role === 'maker' ? f.pts.makerPoints : f.pts.takerPoints), 0)
            assert.ok(Math.abs(e.points - pts) <= 0.005 + 1e-6)
            if (role === 'maker') {
              assert.ok(e.reliability >= 0.5 && e.reliability <= 1.1)
              assert.ok(Math.abs(e.reliability - reliabilityFactor(cancelRate!)) <= 0.00005 + 1e-12)
              assert.ok(Math.abs(e.cancelRate - cancelRate!) <= 0.00005 + 1e-12)
            } else assert.deepEqual([e.reliability, e.cancelRate], [null, null])
          })
          const kpi = res.body.kpi
          assert.equal(kpi.fillCount, league.length)
          assert.equal(
            kpi.totalNotional,
            league.reduce((a, f) => a + f.usd, 0),
          )
          const bench = league.filter(f => f.imp !== null)
          assert.ok(
            Math.abs(
              kpi.avgImprovementBps - (bench.length ? bench.reduce((a, f) => a + f.imp!, 0) / bench.length : 0),
            ) <=
              0.005 + 1e-9,
          )
          assert.ok(
            Math.abs(
              kpi.privateVolumePct -
                (league.length ? (100 * league.filter(f => f.isPrivate).length) / league.length : 0),
            ) <=
              0.005 + 1e-9,
          )
          // paging in pages of 2 gives the same list, and hasMore is true exactly while entries remain
          const paged: any[] = []
          for (let offset = 0; ; offset += 2) {
            const page = (await get(t.api, `/api/v1/league?role=${role}&period=all&limit=2&offset=${offset}`)).body
            paged.push(...page.entries)
            assert.equal(page.hasMore, offset + page.entries.length < mine.size)
            if (!page.hasMore) break
          }
          assert.deepEqual(
            paged.map(e => e.address),
            res.body.entries.map((e: any) => e.address),
          )
          // the 7d period agrees with all-time here (every fill is from today)
          const week = await get(t.api, `/api/v1/league?role=${role}&limit=100`)
          assert.deepEqual(week.body.entries, res.body.entries)
        }
      }),
      { numRuns: 15 },
    )
  })
})
