// The whole flow on the sandbox, as a newcomer would run it: an agent registers and asks for a
// price; the server stores a route-finder baseline; the maker bot hears the broadcast and quotes
// through the relay; the taker fills on chain; the fill is verified on chain and recorded;
// performance, summary, league and activity show it with the right figures; forged fills are refused.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mkdtempSync } from 'node:fs'
import { createLogger } from '../../engine/log.js'
import { startSandbox, type Sandbox } from '../../engine/sandbox/start.js'
import {
  registerAgent,
  createRfq,
  bestQuote,
  fillOnChain,
  recordAgentFill,
  waitFor,
  type RelayQuote,
} from '../../engine/sandbox/agentClient.js'
import { usdValue } from '../../engine/sandbox/venue.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { byJson } from '../helpers/order.js'

let sb: Sandbox
let db: TestDatabase

before(async () => {
  db = await testDatabase('sandbox')
  sb = await startSandbox({
    dir: mkdtempSync(join(tmpdir(), 'sandbox-')),
    env: {
      API_PORT: '0',
      TERMINAL_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      POOL_THREADS: '1',
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
    },
    log: createLogger('silent'),
    refreshEveryMs: 600_000,
  })
})
after(async () => {
  await sb?.stop()
  await db?.drop()
})

const get = async (url: string) => {
  const r = await fetch(url)
  return { status: r.status, body: (await r.json()) as any }
}
const post = async (url: string, body: unknown) => {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: r.status, body: (await r.json()) as any }
}

test('agent RFQ -> server baseline -> maker quote over the relay -> on-chain fill -> verified record -> reports', async () => {
  const { urls, venue } = sb
  const a = venue.accounts
  const WETH = venue.tokens.WETH!,
    USDC = venue.tokens.USDC!

  const agent = await registerAgent(urls.api, a.agentOwner.privateKey, a.taker.privateKey)
  assert.match(agent.apiKey, /^rfq_live_/)

  const amountIn = 2n * 10n ** 18n
  const rfq = await createRfq(urls.api, agent.apiKey, {
    tokenIn: 'WETH',
    tokenOut: 'USDC',
    amountIn: amountIn.toString(),
    ttlSeconds: 120,
  })
  assert.match(rfq.rfqId, /^rfq_/)

  // the server-side baseline: the route finder's quote for this RFQ at creation
  await sb.engine.modules.baselines.settled()
  const [baseline] = await db.sql`select baseline_amount_out, source from baselines where rfq_id = ${rfq.rfqId}`
  assert.ok(baseline, 'a baseline was stored at creation')
  assert.equal(baseline.source, 'sor')
  const sorQuote = await get(
    `${urls.api}/api/v1/sor/quote?tokenIn=${WETH.address}&tokenOut=${USDC.address}&amountIn=${amountIn}&explain=false`,
  )
  assert.equal(
    BigInt(baseline.baseline_amount_out),
    BigInt(sorQuote.body.summary.amountOut),
    'the baseline is what the route finder quotes',
  )

  // the maker bot heard RFQ_BROADCAST and quoted through the relay
  const quote = await waitFor<RelayQuote>('the maker bot quote', () => bestQuote(urls.relay, rfq.rfqId))
  assert.equal(quote.quote.maker, a.maker.address)
  assert.equal(quote.quote.taker, a.taker.address)
  assert.equal(BigInt(quote.quote.amountIn), amountIn)
  assert.equal(
    BigInt(quote.quote.amountOut),
    (amountIn * 3000n * 9995n) / 10000n / 10n ** 12n,
    'the bot quotes 3000 USDC/WETH less 5 bps',
  )

  // the taker fills on chain
  const balance = async (token: `0x${string}`, who: string) =>
    BigInt(
      await (
        await fetch(urls.rpc, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'eth_call',
            params: [{ to: token, data: '0x70a08231' + who.slice(2).padStart(64, '0') }, 'latest'],
          }),
        })
      )
        .json()
        .then((j: any) => j.result),
    )
  const usdcBefore = await balance(USDC.address, a.taker.address)
  const { txHash } = await fillOnChain(urls.rpc, venue.chainId, venue.spotRfq, a.taker.privateKey, quote)
  assert.equal(
    (await balance(USDC.address, a.taker.address)) - usdcBefore,
    BigInt(quote.quote.amountOut),
    'the taker received exactly the quoted amount',
  )

  // forged fills are refused
  const amountInUsd = usdValue(WETH, amountIn)
  const forgedBody = {
    txHash: '0x' + 'ab'.repeat(32),
    taker: a.taker.address,
    maker: a.maker.address,
    tokenIn: WETH.address,
    tokenOut: USDC.address,
    amountIn: quote.quote.amountIn,
    amountOut: quote.quote.amountOut,
    amountInUsd,
    rfqId: rfq.rfqId,
  }
  const invented = await post(`${urls.api}/api/v1/fills`, forgedBody)
  assert.equal(invented.status, 400)
  assert.equal(invented.body.error, 'Fill not verified on chain: transaction not found')
  const inflated = await post(`${urls.api}/api/v1/fills`, {
    ...forgedBody,
    txHash,
    amountOut: (BigInt(quote.quote.amountOut) * 2n).toString(),
  })
  assert.equal(inflated.status, 400)
  assert.equal(inflated.body.error, 'Fill not verified on chain: QuoteFilled does not match the fill (amountOut)')
  const wrongAgentFill = await fetch(`${urls.api}/api/v1/agent/rfqs/${rfq.rfqId}/fill`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      txHash,
      maker: a.maker2.address,
      amountIn: quote.quote.amountIn,
      amountOut: quote.quote.amountOut,
      amountInUsd,
    }),
  })
  assert.equal(wrongAgentFill.status, 400)
  assert.equal(
    ((await wrongAgentFill.json()) as any).error,
    'Fill not verified on chain: QuoteFilled does not match the fill (maker)',
  )

  // the real fill, recorded by the agent, verified on chain
  const recorded = await recordAgentFill(urls.api, agent.apiKey, rfq.rfqId, quote, txHash, amountInUsd)
  const baseOut = BigInt(sorQuote.body.summary.amountOut),
    rfqOut = BigInt(quote.quote.amountOut)
  const expectedBps = Math.round(Number((rfqOut - baseOut) * 1_000_000n) / Number(baseOut)) / 100
  assert.equal(recorded.fill.improvementBps, expectedBps)
  assert.ok(expectedBps > 0, 'the maker beat the AMM route')
  const again = await post(`${urls.api}/api/v1/fills`, { ...forgedBody, txHash })
  assert.equal(again.status, 409)
  assert.equal(again.body.error, 'Fill already recorded for this transaction')

  const detail = await get(`${urls.api}/api/v1/rfqs/${rfq.rfqId}`)
  assert.equal(detail.body.status, 'FILLED')

  const perf = await get(`${urls.api}/api/v1/rfq/performance?rfqId=${rfq.rfqId}`)
  assert.equal(perf.status, 200)
  assert.equal(perf.body.improvementBps, expectedBps)
  assert.equal(perf.body.rfqAmountOut, quote.quote.amountOut)
  assert.equal(perf.body.baselineAmountOut, baseOut.toString())
  assert.equal(perf.body.baselineSource, 'sor')

  const summary = await get(`${urls.api}/api/v1/rfq/performance-summary?window=24h`)
  assert.equal(summary.body.totalFills, 1)
  assert.equal(summary.body.avgImprovementBps, expectedBps)
  assert.equal(summary.body.totalVolumeUsd, amountInUsd)
  assert.equal(summary.body.pctBetterThanBaseline, 100)

  for (const [role, who] of [
    ['taker', a.taker.address],
    ['maker', a.maker.address],
  ] as const) {
    const league = await get(`${urls.api}/api/v1/league?role=${role}`)
    const entry = league.body.entries.find((e: any) => e.address === who)
    assert.ok(entry, `${role} is ranked`)
    assert.equal(entry.fills, 1)
    assert.equal(entry.filledNotional, amountInUsd)
    assert.equal(entry.avgImprovementBps, expectedBps)
    const activity = await get(`${urls.api}/api/v1/league/activity?address=${who}&role=${role}`)
    assert.equal(activity.body.fills.length, 1)
    const f = activity.body.fills[0]
    assert.equal(f.txHash, txHash)
    assert.equal(f.amountIn, quote.quote.amountIn)
    assert.equal(f.amountOut, quote.quote.amountOut)
    assert.equal(f.benchmarkAvailable, true)
    assert.equal(f.improvementBps, expectedBps)
    assert.equal(f.counterparty, role === 'taker' ? a.maker.address : a.taker.address)
  }
})

test("the registry is the venue's own list: each symbol once, every label distinct, and the first two tokens have a route", async () => {
  const { urls, venue } = sb
  const r = await get(`${urls.api}/api/v1/tokens`)
  assert.equal(r.status, 200)
  const tokens = r.body.tokens as { address: string; symbol: string; source: string; label: string }[]
  // the venue's deployments, and nothing else: no mainnet placeholder shares a symbol with them
  assert.deepEqual(
    tokens.map(t => [t.symbol, t.address, t.source, t.label]).sort(byJson),
    Object.entries(venue.tokens)
      .map(([symbol, t]) => [symbol, t.address, 'list', symbol])
      .sort(byJson),
  )
  // what a picker shows first: a pair the route finder can route
  const [a, b] = tokens
  const q = await get(
    `${urls.api}/api/v1/sor/quote?tokenIn=${a!.address}&tokenOut=${b!.address}&amountIn=1000000&explain=false`,
  )
  assert.equal(q.status, 200, JSON.stringify(q.body))
  assert.ok(q.body.routes.length >= 1, `${a!.symbol} -> ${b!.symbol}: ${JSON.stringify(q.body.warnings)}`)
})
