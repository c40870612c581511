import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server, type IncomingMessage } from 'node:http'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { addr, fillBody, baselineBody, post, get, TEST_ENV, TOKEN_A, TOKEN_B } from './fillsFixtures.js'
import { recordFill } from '../../engine/fills/record.js'
import { storeBaseline, baselineFromSorQuote } from '../../engine/baseline/storeBaseline.js'

describe('baselines and performance', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine(TEST_ENV)
  })
  after(async () => {
    await t?.stop()
  })

  test('baseline upsert: same call twice -> one row, same id; a later call updates it', async () => {
    const b = baselineBody()
    const r1 = await post(t.api, '/api/v1/rfq/baseline', b)
    assert.equal(r1.status, 200)
    assert.equal(r1.body.success, true)
    assert.equal(typeof r1.body.id, 'string')
    const r2 = await post(t.api, '/api/v1/rfq/baseline', b)
    assert.deepEqual(r2.body, r1.body)
    const r3 = await post(t.api, '/api/v1/rfq/baseline', { ...b, baselineAmountOut: '2500000' })
    assert.equal(r3.body.id, r1.body.id)
    const rows = await t.db
      .sql`select baseline_amount_out, baseline_route_summary, source from baselines where rfq_id = ${b.rfqId}`
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.baseline_amount_out, 2_500_000n)
    assert.deepEqual(rows[0]!.baseline_route_summary, b.baselineRouteSummary)
    assert.equal(rows[0]!.source, 'client')
  })

  test('baseline validation: every field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ rfqId: undefined, baselineTimestamp: undefined }, 'Missing required fields: rfqId, baselineTimestamp'],
      [{ rfqId: 5 }, 'rfqId must be a string (max 128 chars)'],
      [{ rfqId: 'x'.repeat(129) }, 'rfqId must be a string (max 128 chars)'],
      [{ tokenIn: '0x12' }, 'Invalid tokenIn or tokenOut address format'],
      [{ tokenOut: 'USDC' }, 'Invalid tokenIn or tokenOut address format'],
      [{ amountIn: '1.0' }, 'amountIn and baselineAmountOut must be valid BigInt strings'],
      [{ baselineAmountOut: 12 }, 'amountIn and baselineAmountOut must be valid BigInt strings'],
      [{ baselineAmountOut: '0' }, 'baselineAmountOut must be greater than 0'],
      [{ baselineEffectivePrice: '2' }, 'baselineEffectivePrice must be a non-negative number'],
      [{ baselineEffectivePrice: -1 }, 'baselineEffectivePrice must be a non-negative number'],
      [{ baselinePriceImpactBps: 'x' }, 'baselinePriceImpactBps must be a number'],
      [{ baselineBlockNumber: 123 }, 'baselineBlockNumber must be a block number string'],
      [{ baselineBlockNumber: '12a' }, 'baselineBlockNumber must be a block number string'],
      [{ baselineTimestamp: 'yesterday' }, 'baselineTimestamp must be an ISO 8601 timestamp'],
      [{ baselineTimestamp: '2025-13-45T99:00:00Z' }, 'baselineTimestamp must be an ISO 8601 timestamp'],
      [{ baselineRouteSummary: {} }, 'baselineRouteSummary must be an array of {protocol, poolType, fractionPct}'],
      [
        { baselineRouteSummary: [{ protocol: 'v3', poolType: 'v3', fractionPct: 101 }] },
        'baselineRouteSummary must be an array of {protocol, poolType, fractionPct}',
      ],
      [
        { baselineRouteSummary: [{ protocol: 'v3', fractionPct: 50 }] },
        'baselineRouteSummary must be an array of {protocol, poolType, fractionPct}',
      ],
    ]
    for (const [over, text] of cases) {
      const body = baselineBody(over)
      for (const k of Object.keys(over)) if (over[k] === undefined) delete (body as Record<string, unknown>)[k]
      const r = await post(t.api, '/api/v1/rfq/baseline', body)
      assert.equal(r.status, 400, JSON.stringify(over))
      assert.equal(r.body.error, text)
    }
    assert.equal((await post(t.api, '/api/v1/rfq/baseline', '[]')).body.error, 'Invalid JSON body')
    const ok = baselineBody({ baselineRouteSummary: undefined })
    delete (ok as Record<string, unknown>).baselineRouteSummary
    assert.equal((await post(t.api, '/api/v1/rfq/baseline', ok)).status, 200)
  })

  test('performance: 400 without rfqId, 404 without baseline or without fill, 200 with both', async () => {
    const missing = await get(t.api, '/api/v1/rfq/performance')
    assert.deepEqual([missing.status, missing.body.error], [400, 'Missing rfqId'])
    const b = baselineBody({ baselineAmountOut: '2000000' })
    const none = await get(t.api, `/api/v1/rfq/performance?rfqId=${b.rfqId}`)
    assert.deepEqual([none.status, none.body.error], [404, 'No baseline or fill found for this RFQ'])
    assert.deepEqual(none.body.missing, ['baseline', 'fill'])
    await post(t.api, '/api/v1/rfq/baseline', b)
    const noFill = await get(t.api, `/api/v1/rfq/performance?rfqId=${b.rfqId}`)
    assert.deepEqual([noFill.status, noFill.body.missing], [404, ['fill']]) // baseline, no fill
    const loneId = 'rfq-no-baseline-' + b.rfqId
    assert.equal((await post(t.api, '/api/v1/fills', fillBody({ rfqId: loneId }))).status, 200)
    const noBaseline = await get(t.api, `/api/v1/rfq/performance?rfqId=${loneId}`)
    assert.deepEqual(
      [noBaseline.status, noBaseline.body.error, noBaseline.body.missing],
      [404, 'No baseline or fill found for this RFQ', ['baseline']],
    )
    const f = await post(t.api, '/api/v1/fills', fillBody({ rfqId: b.rfqId, amountOut: '2010000' }))
    const p = await get(t.api, `/api/v1/rfq/performance?rfqId=${b.rfqId}`)
    assert.equal(p.status, 200)
    assert.deepEqual(Object.keys(p.body).sort(), [
      'baselineAmountOut',
      'baselineSource',
      'computedAt',
      'improvementBps',
      'rfqAmountOut',
      'rfqId',
    ])
    assert.equal(p.body.improvementBps, 50)
    assert.equal(p.body.improvementBps, f.body.fill.improvementBps)
    assert.equal(p.body.rfqAmountOut, '2010000')
    assert.equal(p.body.baselineAmountOut, '2000000')
    assert.equal(p.body.baselineSource, 'agg')
    assert.ok(!Number.isNaN(Date.parse(p.body.computedAt)))
    const fillOnly = fillBody({ rfqId: 'rfq-no-baseline' })
    await post(t.api, '/api/v1/fills', fillOnly)
    assert.equal((await get(t.api, '/api/v1/rfq/performance?rfqId=rfq-no-baseline')).status, 404)
  })

  test('server-side baseline (source sor) from a route finder quote; a client baseline replaces it, never the reverse', async () => {
    const quote = {
      meta: { timestamp: '2025-02-01T00:00:00.000Z', asOfBlock: '77' },
      summary: {
        tokenIn: TOKEN_A,
        tokenOut: TOKEN_B,
        amountIn: '1000',
        amountOut: '4000',
        effectivePrice: 4,
        priceImpactBps: 1.2,
      },
      routes: [{ pools: [{ protocol: 'uniswap-v2', poolType: 'v2' }], fractionPct: 100 }],
    }
    const id = await storeBaseline(t.db.sql, baselineFromSorQuote('rfq-sor-1', quote))
    assert.equal(typeof id, 'string')
    await post(t.api, '/api/v1/fills', fillBody({ rfqId: 'rfq-sor-1', amountIn: '1000', amountOut: '4040' }))
    const p = await get(t.api, '/api/v1/rfq/performance?rfqId=rfq-sor-1')
    assert.deepEqual([p.body.baselineSource, p.body.improvementBps, p.body.baselineAmountOut], ['sor', 100, '4000'])
    const client = await post(
      t.api,
      '/api/v1/rfq/baseline',
      baselineBody({ rfqId: 'rfq-sor-1', amountIn: '1000', baselineAmountOut: '4020' }),
    )
    assert.equal(client.body.id, id)
    assert.equal(await storeBaseline(t.db.sql, baselineFromSorQuote('rfq-sor-1', quote)), null) // sor yields to client
    const [row] = await t.db.sql`select source, baseline_amount_out from baselines where rfq_id = 'rfq-sor-1'`
    assert.deepEqual([row!.source, row!.baseline_amount_out], ['client', 4020n])
  })

  test('performance-summary: window validation and hand-checked figures', async () => {
    const bad = await get(t.api, '/api/v1/rfq/performance-summary?window=1y')
    assert.deepEqual([bad.status, bad.body.error], [400, 'Invalid window (24h, 7d or 30d)'])
    assert.equal((await get(t.api, '/api/v1/rfq/performance-summary?tokenIn=nope')).status, 400)
    // An isolated pair so earlier tests' fills do not count.
    const X = addr(0xc0ffee) as `0x${string}`,
      Y = addr(0xbeef) as `0x${string}`
    const improvements = [100, -50, 25] // per benchmarked fill, bps: baseline 10000, out 10100 / 9950 / 10025
    for (const [i, out] of [10100, 9950, 10025].entries()) {
      const b = baselineBody({ tokenIn: X, tokenOut: Y, amountIn: '10', baselineAmountOut: '10000' })
      await post(t.api, '/api/v1/rfq/baseline', b)
      const r = await post(
        t.api,
        '/api/v1/fills',
        fillBody({
          rfqId: b.rfqId,
          tokenIn: X,
          tokenOut: Y,
          amountIn: '10',
          amountOut: String(out),
          amountInUsd: 100 * (i + 1),
        }),
      )
      assert.equal(r.body.fill.improvementBps, improvements[i])
    }
    await post(t.api, '/api/v1/fills', fillBody({ tokenIn: X, tokenOut: Y, amountInUsd: 1000 })) // not benchmarked
    // 3 days old: inside 7d, outside 24h
    const old = fillBody({ tokenIn: X, tokenOut: Y, amountInUsd: 50 })
    await recordFill(
      t.db.sql,
      {
        txHash: old.txHash as `0x${string}`,
        taker: addr(1) as `0x${string}`,
        maker: addr(2) as `0x${string}`,
        tokenIn: X,
        tokenOut: Y,
        amountIn: 1n,
        amountOut: 1n,
        amountInUsd: 50,
        visibility: 'public',
        rfqId: null,
      },
      { filledAt: new Date(Date.now() - 3 * 86400_000) },
    )
    const day = await get(t.api, `/api/v1/rfq/performance-summary?window=24h&tokenIn=${X}&tokenOut=${Y}`)
    assert.equal(day.status, 200)
    // avg (100 - 50 + 25)/3 = 25, median 25, pct better 2/3 = 66.67, volume 100+200+300+1000
    assert.deepEqual(day.body, {
      window: '24h',
      totalFills: 4,
      avgImprovementBps: 25,
      medianImprovementBps: 25,
      totalVolumeUsd: 1600,
      pctBetterThanBaseline: 66.67,
    })
    const week = await get(t.api, `/api/v1/rfq/performance-summary?tokenIn=${X}&tokenOut=${Y}`)
    assert.deepEqual(week.body, {
      window: '7d',
      totalFills: 5,
      avgImprovementBps: 25,
      medianImprovementBps: 25,
      totalVolumeUsd: 1650,
      pctBetterThanBaseline: 66.67,
    })
    const onlyIn = await get(t.api, `/api/v1/rfq/performance-summary?window=30d&tokenIn=${X}`)
    assert.equal(onlyIn.body.totalFills, 5)
    const empty = await get(t.api, `/api/v1/rfq/performance-summary?window=24h&tokenIn=${addr(0xdead)}`)
    assert.deepEqual(empty.body, {
      window: '24h',
      totalFills: 0,
      avgImprovementBps: 0,
      medianImprovementBps: 0,
      totalVolumeUsd: 0,
      pctBetterThanBaseline: 0,
    })
    const all = await get(t.api, '/api/v1/rfq/performance-summary')
    assert.ok(all.body.totalFills >= 5)
  })
})

describe('aggregator price proxy (0x Swap API v2 price format)', () => {
  let t: TestEngine
  let bare: TestEngine
  let upstream: Server
  type Mode = 'ok' | 'nolq' | '400' | '500' | 'slow' | 'garbage' | 'html'
  let mode = 'ok' as Mode
  const seen: IncomingMessage[] = []
  const SELL = '0x' + 'c'.repeat(40),
    BUY = '0x' + 'd'.repeat(40)

  before(async () => {
    upstream = createServer((req, res) => {
      seen.push(req)
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' })
        res.end(JSON.stringify(body))
      }
      switch (mode) {
        case 'ok':
          return json(200, {
            blockNumber: '21876249',
            buyAmount: '145110588712348756365465945',
            buyToken: BUY,
            sellToken: SELL,
            sellAmount: '100000000000000000000000',
            liquidityAvailable: true,
            minBuyAmount: '143659482825225268801811',
            fees: { integratorFee: null, zeroExFee: null, gasFee: null },
            gas: '288079',
            gasPrice: '9000000000',
            issues: { allowance: null, balance: null, simulationIncomplete: false, invalidSourcesPassed: [] },
            route: {
              fills: [
                { from: SELL, to: BUY, source: 'Uniswap_V3', proportionBps: '7000' },
                { from: SELL, to: BUY, source: 'Curve', proportionBps: '3000' },
              ],
              tokens: [
                { address: SELL, symbol: 'WETH' },
                { address: BUY, symbol: 'DAI' },
              ],
            },
            totalNetworkFee: '2592711000000000',
            zid: '0x111',
          })
        case 'nolq':
          return json(200, { liquidityAvailable: false, zid: '0x222' })
        case '400':
          return json(400, {
            name: 'INPUT_INVALID',
            message: 'Validation Failed',
            data: { zid: '0x333', details: [{ field: 'sellAmount', reason: 'too small' }] },
          })
        case '500':
          return json(500, { name: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong' })
        case 'slow': {
          const h = setTimeout(() => json(200, { liquidityAvailable: true, buyAmount: '1' }), 3000)
          res.on('close', () => clearTimeout(h))
          return
        }
        case 'garbage':
          return json(200, { liquidityAvailable: true, buyAmount: 'lots' })
        case 'html':
          res.writeHead(200, { 'content-type': 'text/html' })
          return res.end('<html>oops</html>')
      }
    })
    await new Promise<void>(r => upstream.listen(0, '127.0.0.1', r))
    const port = (upstream.address() as { port: number }).port
    t = await startTestEngine({
      ...TEST_ENV,
      AGG_BASE_URL: `http://127.0.0.1:${port}`,
      AGG_API_KEY: 'test-key',
      AGG_TIMEOUT_MS: '300',
      CHAIN_ID: '1',
      SPOT_RFQ_ADDRESS: `0x${'a'.repeat(40)}`,
    })
    bare = await startTestEngine(TEST_ENV)
  })
  after(async () => {
    await t?.stop()
    await bare?.stop()
    upstream?.closeAllConnections()
    await new Promise(r => upstream?.close(r))
  })

  const price = (e: TestEngine, q = `sellToken=${SELL}&buyToken=${BUY}&sellAmount=100000000000000000000000`) =>
    get(e.api, `/api/v1/bench/agg/price?${q}`)

  test('success: buyAmount and route fills mapped; 0x headers and query sent', async () => {
    mode = 'ok'
    const r = await price(t)
    assert.equal(r.status, 200)
    assert.equal(r.body.source, 'agg')
    assert.equal(r.body.outputAmount, '145110588712348756365465945')
    assert.deepEqual(r.body.route, [
      { dex: 'Uniswap_V3', portion: 0.7, poolAddress: null, fee: null },
      { dex: 'Curve', portion: 0.3, poolAddress: null, fee: null },
    ])
    assert.equal(r.body.error, null)
    assert.equal(typeof r.body.computeTimeMs, 'number')
    const req = seen.at(-1)!
    const url = new URL(req.url!, 'http://x')
    assert.equal(url.pathname, '/swap/permit2/price')
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      chainId: '1',
      sellToken: SELL,
      buyToken: BUY,
      sellAmount: '100000000000000000000000',
    })
    assert.equal(req.headers['0x-api-key'], 'test-key')
    assert.equal(req.headers['0x-version'], 'v2')
  })

  const failing: [Mode, string][] = [
    ['nolq', 'No liquidity available'],
    ['400', 'Aggregator HTTP 400: Validation Failed'],
    ['500', 'Aggregator HTTP 500: Something went wrong'],
    ['slow', 'Aggregator timed out after 300 ms'],
    ['garbage', 'Aggregator returned an invalid response'],
    ['html', 'Aggregator returned an invalid response'],
  ]
  for (const [m, error] of failing) {
    test(`upstream ${m}: 200 with outputAmount null and the error`, async () => {
      mode = m
      const r = await price(t)
      assert.equal(r.status, 200)
      assert.deepEqual(
        { ...r.body, computeTimeMs: 0 },
        { source: 'agg', outputAmount: null, route: [], computeTimeMs: 0, error },
      )
    })
  }

  test('not configured: 200 with error', async () => {
    const r = await price(bare)
    assert.equal(r.status, 200)
    assert.deepEqual([r.body.outputAmount, r.body.error, r.body.source], [null, 'Aggregator not configured', 'agg'])
  })

  test('upstream down (connection refused): 200 with error', async () => {
    const dead = await startTestEngine({ ...TEST_ENV, AGG_BASE_URL: 'http://127.0.0.1:1' })
    try {
      const r = await price(dead)
      assert.equal(r.status, 200)
      assert.equal(r.body.outputAmount, null)
      assert.match(r.body.error, /^Aggregator unreachable/)
    } finally {
      await dead.stop()
    }
  })

  test('input validation: 400 missing params, invalid address, invalid sellAmount', async () => {
    const cases: [string, string][] = [
      [`sellToken=${SELL}`, 'Missing required params: buyToken, sellAmount'],
      ['', 'Missing required params: sellToken, buyToken, sellAmount'],
      [`sellToken=0x12&buyToken=${BUY}&sellAmount=1`, 'Invalid token address format'],
      [
        `sellToken=${SELL}&buyToken=${BUY}&sellAmount=1.5`,
        'Invalid sellAmount: must be a positive integer (raw units)',
      ],
      [`sellToken=${SELL}&buyToken=${BUY}&sellAmount=0`, 'Invalid sellAmount: must be a positive integer (raw units)'],
      [`sellToken=${SELL}&buyToken=${BUY}&sellAmount=-5`, 'Invalid sellAmount: must be a positive integer (raw units)'],
    ]
    for (const [q, text] of cases) {
      const r = await price(t, q)
      assert.equal(r.status, 400, q)
      assert.equal(r.body.error, text)
    }
  })
})
