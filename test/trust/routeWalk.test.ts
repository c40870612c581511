// The route-table walk: every route of every route table (enumerated from the engine's routers, so a
// route added later is walked without a change here), called as an outsider with the private RFQ's id in
// every path parameter and query field that could name it. No answer may carry the private RFQ's id or
// its quote's signature, while the RFQ is live and quoted and after it has ended.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent, post } from '../api/agentKit.js'
import { Client, account, makeQuote, sign, domainOf, makeRfq } from '../relay/helpers.js'

describe('route-table walk: nothing private leaks from any route', () => {
  let t: TestEngine
  let rfqId: string,
    token: string,
    signature: string,
    outsider: Awaited<ReturnType<typeof newAgent>>,
    taker: Awaited<ReturnType<typeof newAgent>>
  before(async () => {
    t = await startTestEngine({
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      RATE_LIMIT_PER_MIN: '100000',
      RELAY_REST_RATE_LIMIT_PER_MIN: '1000000',
    })
    taker = await newAgent(t.api, ['taker'])
    outsider = await newAgent(t.api, ['taker', 'monitor', 'maker'])
    const created = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300, visibility: 'private' },
      taker.headers,
    )
    rfqId = created.body.rfqId
    token = created.body.shareToken
    const d = (await (await fetch(`${t.api}/api/v1/rfqs/${rfqId}`, { headers: taker.headers })).json()) as any
    const rfq = {
      ...makeRfq(),
      id: rfqId,
      taker: d.rfq.taker,
      tokenIn: d.rfq.tokenIn.address,
      tokenOut: d.rfq.tokenOut.address,
      expiry: d.rfq.expiry,
    }
    const maker = account(),
      q = makeQuote(maker, rfq)
    signature = (await sign(maker, domainOf(t), q)).toLowerCase()
    const c = await Client.open(t.relayWs)
    c.send('QUOTE_SUBMIT', { rfqId, quote: q, signature, shareToken: token })
    await c.nextOf('QUOTE_BROADCAST')
    await c.close()
  })
  after(() => t.stop())

  async function walk(phase: string) {
    const routes = (['api', 'terminal', 'relay'] as const).flatMap(surface =>
      t.engine.ctx.surfaces[surface].list().map(r => ({ surface, ...r })),
    )
    const base = { api: t.api, terminal: t.terminal, relay: t.relay }
    const query = `rfqId=${rfqId}&id=${rfqId}&source=both&status=all&limit=100&address=${rfqId}`
    let walked = 0
    for (const r of routes) {
      const path = r.pattern.replace(/:[A-Za-z]+/g, rfqId) + `?${query}`
      for (const headers of [{}, outsider.headers]) {
        const ctl = new AbortController()
        const res = await fetch(base[r.surface] + path, {
          method: r.method,
          signal: ctl.signal,
          headers: { ...headers, 'content-type': 'application/json' },
          body: r.method === 'GET' ? undefined : JSON.stringify({ rfqId, id: rfqId }),
        })
        let text: string
        if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
          // the feed: read what it sends at once (the replay of everything it still holds), then leave
          const reader = res.body!.getReader()
          const first = await Promise.race([
            reader.read(),
            new Promise<{ value?: Uint8Array }>(r => setTimeout(() => r({}), 300)),
          ])
          text = first.value ? Buffer.from(first.value).toString() : ''
          ctl.abort()
        } else text = await res.text()
        assert.ok(
          !text.includes(rfqId),
          `${phase}: ${r.method} ${path} on ${r.surface} (${res.status}) names the private RFQ`,
        )
        assert.ok(!text.includes(signature), `${phase}: ${r.method} ${path} on ${r.surface} carries the private quote`)
        walked++
      }
    }
    assert.ok(walked >= 80, `walked ${walked} requests`)
  }

  test('live and quoted', () => walk('live'))

  test('after it has ended (cancelled)', async () => {
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfqId}/cancel`, {}, taker.headers)).status, 200)
    const fresh = await fetch(`${t.api}/api/v1/feed`, { headers: { 'last-event-id': '0' } }) // a replaying stream sees no private event either
    const reader = fresh.body!.getReader()
    const replay = await Promise.race([
      reader.read(),
      new Promise<{ value?: Uint8Array }>(r => setTimeout(() => r({}), 300)),
    ])
    await reader.cancel()
    assert.ok(
      !Buffer.from(replay.value ?? new Uint8Array())
        .toString()
        .includes(rfqId),
    )
    await walk('ended')
  })
})
