// Private RFQs sealed on every surface: API list, detail, agent detail and listing, relay REST, WebSocket
// broadcasts, the SSE feed; for every viewer {no token, wrong token, right token, the taker, another
// agent}; while live, once quoted, and after it ends (cancelled, filled). Nothing private appears where it
// must not, and everything appears where it must.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent, post, bearer } from '../api/agentKit.js'
import { Client, account, makeQuote, sign, domainOf, makeRfq, waitFor } from '../relay/helpers.js'
import type { Rfq } from '../../actors/rfqTypes.js'
import { sse, seen, getText, type Stream } from './observers.js'

type Who = 'none' | 'wrong' | 'token' | 'taker' | 'other'
const WHO: Who[] = ['none', 'wrong', 'token', 'taker', 'other']
const sees = (w: Who) => w === 'token' || w === 'taker'

describe('a private RFQ is sealed on every surface', () => {
  let t: TestEngine
  let taker: Awaited<ReturnType<typeof newAgent>>, other: Awaited<ReturnType<typeof newAgent>>
  let rfqId: string, token: string, rfq: Rfq
  const streams = new Map<Who, Stream>()
  const sockets = new Map<'none' | 'wrong' | 'token', Client>()
  let quoteSignature: string

  const headersOf = (w: Who): Record<string, string> =>
    w === 'wrong'
      ? { 'x-share-token': 'not-the-token' }
      : w === 'token'
        ? { 'x-share-token': token }
        : w === 'taker'
          ? taker.headers
          : w === 'other'
            ? other.headers
            : {}

  before(async () => {
    t = await startTestEngine({ PUBLIC_RATE_LIMIT_PER_MIN: '100000', RATE_LIMIT_PER_MIN: '100000', FILL_VERIFY: 'off' })
    taker = await newAgent(t.api, ['taker', 'monitor'])
    other = await newAgent(t.api, ['taker', 'monitor', 'maker'])
    // observers without the token connect before the RFQ exists, so they would see its announcement;
    // the token holder learns the token after creation: its stream replays (Last-Event-ID 0) and its
    // socket subscribes with the token, which re-announces a live private RFQ to it alone
    for (const [i, w] of WHO.entries())
      if (w !== 'token') streams.set(w, await sse(`${t.api}/api/v1/feed`, `127.0.0.${i + 2}`, headersOf(w)))
    for (const w of ['none', 'wrong'] as const)
      sockets.set(w, await Client.open(w === 'none' ? t.relayWs : `${t.relayWs}/?shareToken=not-the-token`))
    const created = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300, visibility: 'private' },
      taker.headers,
    )
    rfqId = created.body.rfqId
    token = created.body.shareToken
    streams.set(
      'token',
      await sse(`${t.api}/api/v1/feed`, '127.0.0.20', { ...headersOf('token'), 'last-event-id': '0' }),
    )
    const holder = await Client.open(t.relayWs)
    holder.send('SUBSCRIBE', { shareToken: token })
    await holder.nextOf('SUBSCRIBED')
    sockets.set('token', holder)
    const d = await getText(`${t.api}/api/v1/rfqs/${rfqId}`, taker.headers)
    const body = JSON.parse(d.text)
    rfq = {
      ...makeRfq(),
      id: rfqId,
      taker: body.rfq.taker,
      tokenIn: body.rfq.tokenIn.address,
      tokenOut: body.rfq.tokenOut.address,
      expiry: body.rfq.expiry,
    }
  })
  after(async () => {
    for (const s of streams.values()) s.close()
    for (const c of sockets.values()) await c.close()
    await t.stop()
  })

  async function checkEverySurface(phase: string) {
    for (const w of WHO) {
      const h = headersOf(w)
      const detail = await getText(`${t.api}/api/v1/rfqs/${rfqId}`, h)
      assert.equal(detail.status, sees(w) ? 200 : 404, `${phase}: API detail for ${w}`)
      if (!sees(w)) assert.equal(detail.text, '{"error":"Not found"}', `${phase}: exactly an unknown id's answer`)
      const list = await getText(`${t.api}/api/v1/rfqs?limit=100`, h)
      assert.equal(list.text.includes(rfqId), sees(w), `${phase}: API list for ${w}`)
      if (w !== 'none') {
        const agentHeaders =
          w === 'taker'
            ? h
            : {
                ...other.headers,
                ...(w === 'token' ? { 'x-share-token': token } : w === 'wrong' ? { 'x-share-token': 'x' } : {}),
              }
        const visible = w !== 'other' && w !== 'wrong'
        const ad = await getText(`${t.api}/api/v1/agent/rfqs/${rfqId}`, agentHeaders)
        assert.equal(ad.status, visible ? 200 : 404, `${phase}: agent detail for ${w}`)
        const al = await getText(`${t.api}/api/v1/agent/rfqs?source=both&limit=100`, agentHeaders)
        assert.equal(al.status, 200)
        assert.equal(al.text.includes(rfqId), visible, `${phase}: agent listing for ${w}`)
      }
    }
    for (const w of ['none', 'wrong', 'token'] as const) {
      const q = w === 'none' ? '' : `&shareToken=${w === 'token' ? token : 'not-the-token'}`
      const relayList = await getText(`${t.relay}/rfqs?x=1${q}`)
      const quotes = await getText(`${t.relay}/quotes?rfqId=${rfqId}${q}`)
      assert.equal(quotes.status, w === 'token' ? 200 : 404, `${phase}: relay /quotes for ${w}`)
      if (phase === 'live' || phase === 'quoted')
        assert.equal(relayList.text.includes(rfqId), w === 'token', `${phase}: relay /rfqs for ${w}`)
      else assert.equal(relayList.text.includes(rfqId), false)
    }
  }

  async function checkStreams(phase: string, needle: string) {
    await waitFor(() => streams.get('token')!.text().includes(needle), Boolean) // the event has been delivered
    await new Promise(r => setTimeout(r, 200))
    for (const w of WHO) assert.equal(streams.get(w)!.text().includes(needle), sees(w), `${phase}: SSE for ${w}`)
    for (const w of ['none', 'wrong', 'token'] as const) {
      await sockets.get(w)!.sync()
      assert.equal(seen(sockets.get(w)!).includes(needle), w === 'token', `${phase}: WebSocket for ${w}`)
    }
  }

  test('live: announced and readable only to its token holders and its taker', async () => {
    await checkEverySurface('live')
    await checkStreams('live', rfqId)
  })

  test('quoted: the quote and its signature reach only its token holders and its taker', async () => {
    const maker = account(),
      q = makeQuote(maker, rfq)
    quoteSignature = await sign(maker, domainOf(t), q)
    const m = await Client.open(t.relayWs)
    m.send('QUOTE_SUBMIT', { rfqId, quote: q, signature: quoteSignature, shareToken: token })
    assert.equal((await m.nextOf('QUOTE_BROADCAST')).data.signature, quoteSignature.toLowerCase())
    await m.close()
    await checkEverySurface('quoted')
    await checkStreams('quoted', quoteSignature.toLowerCase())
    const detail = await getText(`${t.api}/api/v1/rfqs/${rfqId}`, headersOf('taker'))
    assert.ok(detail.text.includes(quoteSignature.toLowerCase()), 'the taker reads its quotes')
  })

  test('cancelled: still sealed after it ends; the cancel event reaches only those who see it', async () => {
    const before = streams.get('token')!.text().length
    const r = await post(t.api, `/api/v1/rfqs/${rfqId}/cancel`, {}, taker.headers)
    assert.equal(r.status, 200)
    await waitFor(() => streams.get('token')!.text().slice(before).includes('rfq.cancelled'), Boolean)
    for (const w of WHO)
      assert.equal(streams.get(w)!.text().includes('rfq.cancelled'), sees(w), `cancelled: SSE for ${w}`)
    await checkEverySurface('cancelled')
  })

  test('filled: a second private RFQ filled by its taker stays sealed, and its fill event too', async () => {
    const created = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300, visibility: 'private' },
      taker.headers,
    )
    rfqId = created.body.rfqId
    token = created.body.shareToken
    const txHash = `0x${'ab'.repeat(32)}`
    const f = await post(
      t.api,
      `/api/v1/agent/rfqs/${rfqId}/fill`,
      { txHash, maker: account().address, amountIn: '1000', amountOut: '5', amountInUsd: 10 },
      taker.headers,
    )
    assert.equal(f.status, 200)
    await waitFor(() => streams.get('taker')!.text().includes(txHash), Boolean)
    await new Promise(r => setTimeout(r, 200))
    for (const w of ['none', 'wrong', 'other'] as const)
      assert.equal(streams.get(w)!.text().includes(txHash), false, `filled: SSE for ${w}`)
    for (const w of WHO) {
      const d = await getText(
        `${t.api}/api/v1/rfqs/${rfqId}`,
        w === 'token' ? { 'x-share-token': token } : headersOf(w),
      )
      assert.equal(d.status, sees(w) ? 200 : 404, `filled: API detail for ${w}`)
    }
  })

  test('another agent cannot cancel or fill it, and learns nothing: 404 as for an unknown id', async () => {
    const created = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300, visibility: 'private' },
      taker.headers,
    )
    const id = created.body.rfqId
    const c = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, other.headers)
    assert.deepEqual([c.status, c.body.error], [404, 'Not found'])
    const f = await post(
      t.api,
      `/api/v1/agent/rfqs/${id}/fill`,
      { txHash: `0x${'cd'.repeat(32)}`, maker: account().address, amountIn: '1', amountOut: '1', amountInUsd: 1 },
      other.headers,
    )
    assert.deepEqual([f.status, f.body.error], [404, 'RFQ not found'])
    assert.equal((await getText(`${t.api}/api/v1/rfqs/${id}`, taker.headers)).status, 200) // untouched
    void bearer
  })
})
