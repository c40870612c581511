// POST /api/v1/quotes (the relay's quote path over REST, broadcast on the relay WebSocket) and the
// SSE feed (events with ids, heartbeats, one connection per client, Last-Event-ID replay).
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { post, get, newAgent, wallet, signedQuote, openFeed } from './agentKit.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'

describe('REST quotes and the SSE feed', () => {
  let t: TestEngine
  let taker: Awaited<ReturnType<typeof newAgent>>
  before(async () => {
    t = await startTestEngine({
      AGENT_REGISTRATION_PER_HOUR: '1000',
      AGENT_REGISTRATION_PER_DAY: '1000',
      AGENT_RATE_PER_MIN: '100000',
      AGENT_RATE_PER_HOUR: '100000',
      PUBLIC_RATE_LIMIT_PER_MIN: '100000',
      MAX_ACTIVE_RFQS_PER_WALLET: '100',
      SSE_HEARTBEAT_MS: '100',
    })
    taker = await newAgent(t.api, ['taker'])
  })
  after(() => t.stop())

  const newRfq = async (over: Record<string, unknown> = {}) =>
    (
      await post(
        t.api,
        '/api/v1/agent/rfqs',
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 120, ...over },
        taker.headers,
      )
    ).body

  test('POST /api/v1/quotes: accepted quotes show in the detail and are broadcast on the relay', async () => {
    const ws = new WebSocket(t.relayWs)
    const frames: any[] = []
    ws.on('message', d => frames.push(JSON.parse((d as Buffer).toString())))
    await new Promise(r => ws.once('open', r))
    try {
      const { rfqId } = await newRfq()
      const maker = wallet()
      const { quote, signature } = await signedQuote(maker, { tokenIn: WETH, tokenOut: USDC })
      const r = await post(t.api, '/api/v1/quotes', { rfqId, quote, signature })
      assert.equal(r.status, 200, JSON.stringify(r.body))
      assert.equal(r.body.success, true)
      assert.deepEqual(r.body.quote, {
        maker: maker.address,
        amountIn: '1000',
        amountOut: '2500',
        signature: signature.toLowerCase(),
      })
      const d = await get(t.api, `/api/v1/rfqs/${rfqId}`)
      assert.equal(d.body.status, 'QUOTED')
      assert.equal(d.body.quoteCount, 1)
      assert.deepEqual(d.body.quotes, [{ maker: maker.address, amountOut: '2500', signature: signature.toLowerCase() }])
      const deadline = Date.now() + 5000
      while (!frames.some(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfqId) && Date.now() < deadline)
        await new Promise(r => setTimeout(r, 20))
      const b = frames.find(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfqId)
      assert.ok(b, 'QUOTE_BROADCAST on the relay')
      assert.equal(b.data.quote.maker, maker.address)
      assert.ok(
        frames.some(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfqId),
        'the created RFQ was broadcast too',
      )

      const dup = await post(t.api, '/api/v1/quotes', {
        rfqId,
        ...(await signedQuote(maker, { tokenIn: WETH, tokenOut: USDC }, { nonce: '2' })),
      })
      assert.deepEqual([dup.status, dup.body.error], [400, 'Duplicate quote from this maker'])
    } finally {
      ws.close()
    }
  })

  test("POST /api/v1/quotes: the spec's five texts, and the relay's own for the other rules", async () => {
    const { rfqId } = await newRfq()
    const maker = wallet()
    const good = await signedQuote(maker, { tokenIn: WETH, tokenOut: USDC })
    const cases: [unknown, string][] = [
      ['"x"', 'Invalid JSON body'],
      ['{', 'Invalid JSON body'],
      [{ quote: good.quote, signature: good.signature }, 'Missing rfqId or quote'],
      [{ rfqId, signature: good.signature }, 'Missing rfqId or quote'],
      [{ rfqId: 'rfq_nope', ...good }, 'RFQ not found or expired'],
      [
        {
          rfqId,
          quote: good.quote,
          signature: (await signedQuote(wallet(), { tokenIn: WETH, tokenOut: USDC })).signature,
        },
        'Invalid signature',
      ],
      [{ rfqId, quote: good.quote }, 'Invalid signature'],
      [
        { rfqId, ...(await signedQuote(maker, { tokenIn: USDC, tokenOut: USDC })) },
        'Quote rejected: tokenIn does not match RFQ',
      ],
    ]
    for (const [body, text] of cases) {
      const r = await post(t.api, '/api/v1/quotes', body)
      assert.deepEqual([r.status, r.body.error], [400, text], JSON.stringify(body))
    }
  })

  test('a private RFQ takes quotes only with its share token', async () => {
    const maker = wallet()
    const { rfqId, shareToken } = await newRfq({ visibility: 'private', allowedMakers: [maker.account.address] })
    const q = await signedQuote(maker, { tokenIn: WETH, tokenOut: USDC })
    const without = await post(t.api, '/api/v1/quotes', { rfqId, ...q })
    assert.deepEqual([without.status, without.body.error], [400, 'RFQ not found or expired'])
    const withToken = await post(t.api, '/api/v1/quotes', { rfqId, ...q, shareToken })
    assert.equal(withToken.status, 200, JSON.stringify(withToken.body))
  })

  test('SSE: text/event-stream; created, quoted, cancelled events with increasing ids; heartbeats; one connection per client; Last-Event-ID replays', async () => {
    const feed = await openFeed(t.api)
    try {
      assert.equal(feed.res.status, 200)
      assert.match(feed.res.headers.get('content-type')!, /^text\/event-stream/)
      const second = await fetch(t.api + '/api/v1/feed')
      assert.equal(second.status, 429)
      assert.equal(((await second.json()) as { error: string }).error, 'Too many feed connections (max 1 per client)')
      assert.ok(second.headers.get('retry-after'))

      const { rfqId } = await newRfq()
      const created = await feed.waitFor(e => e.event === 'rfq.created' && e.data.rfqId === rfqId)
      assert.deepEqual(created.data.rfq.tokenIn, { address: WETH, symbol: 'WETH', decimals: 18 })
      assert.equal(created.data.rfq.amountIn, '1000')
      assert.ok(!('shareToken' in created.data.rfq))
      const maker = wallet()
      await post(t.api, '/api/v1/quotes', { rfqId, ...(await signedQuote(maker, { tokenIn: WETH, tokenOut: USDC })) })
      const quoted = await feed.waitFor(e => e.event === 'rfq.quoted' && e.data.rfqId === rfqId)
      assert.equal(quoted.data.quote.maker, maker.address)
      await post(t.api, `/api/v1/rfqs/${rfqId}/cancel`, {}, taker.headers)
      const cancelled = await feed.waitFor(e => e.event === 'rfq.cancelled' && e.data.rfqId === rfqId)
      assert.ok(Date.parse(cancelled.data.cancelledAt))
      const ids = [created, quoted, cancelled].map(e => Number(e.id))
      assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, `ids increase: ${ids.join(', ')}`)
      await feed.waitFor(e => e.comment?.startsWith('heartbeat') === true, 3000)
      await feed.close()

      // the slot is free again once the first connection closes; Last-Event-ID replays what came after
      let again: Awaited<ReturnType<typeof openFeed>> | undefined
      for (let i = 0; i < 50 && !again; i++) {
        const f = await openFeed(t.api, { 'last-event-id': String(ids[0]) })
        if (f.res.status === 200) again = f
        else {
          await f.close()
          await new Promise(r => setTimeout(r, 50))
        }
      }
      assert.ok(again, 'reconnected')
      const replayed = await again.waitFor(e => e.event === 'rfq.cancelled' && e.data.rfqId === rfqId)
      assert.equal(replayed.id, cancelled.id)
      assert.ok(
        !again.frames.some(e => e.event === 'rfq.created' && e.data.rfqId === rfqId),
        'nothing at or before Last-Event-ID',
      )
      await again.close()
    } finally {
      await feed.close()
    }
  })

  test('SSE: a quote made while nobody listened is replayed on reconnect exactly as it was accepted', async () => {
    // the feed holds a quote for replay as its line on the RFQ's tape, not as the event: read back, it is the quote
    const feed = await openFeed(t.api)
    const { rfqId } = await newRfq()
    const created = await feed.waitFor(e => e.event === 'rfq.created' && e.data.rfqId === rfqId)
    await feed.close()
    const maker = wallet()
    const { quote, signature } = await signedQuote(
      maker,
      { tokenIn: WETH, tokenOut: USDC },
      { nonce: (2n ** 255n + 7n).toString(), amountOut: (2n ** 200n).toString() },
    )
    const before = Date.now()
    assert.equal((await post(t.api, '/api/v1/quotes', { rfqId, quote, signature })).status, 200)
    let again: Awaited<ReturnType<typeof openFeed>> | undefined
    for (let i = 0; i < 50 && !again; i++) {
      const f = await openFeed(t.api, { 'last-event-id': String(created.id) })
      if (f.res.status === 200) again = f
      else {
        await f.close()
        await new Promise(r => setTimeout(r, 50))
      }
    }
    assert.ok(again, 'reconnected')
    try {
      const replayed = await again.waitFor(e => e.event === 'rfq.quoted' && e.data.rfqId === rfqId)
      assert.deepEqual(replayed.data.quote, { ...quote, maker: maker.address.toLowerCase() })
      assert.equal(replayed.data.signature, signature.toLowerCase())
      const at = Date.parse(replayed.data.receivedAt)
      assert.ok(at >= before - 1000 && at <= Date.now(), `receivedAt ${replayed.data.receivedAt}`)
    } finally {
      await again.close()
    }
  })
})
