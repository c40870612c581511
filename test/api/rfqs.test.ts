// Create, list, read and cancel RFQs over real HTTP against the real book and Postgres.
import { rfqIdTime } from '../../workers/values/index.js'
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { cancelMessage } from '../../engine/agents/message.js'
import { upsertToken } from '../../engine/store/tokens.js'
import { post, get, newAgent, nowSec, wallet } from './agentKit.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const CREATE = '/api/v1/agent/rfqs'

describe('RFQ endpoints', () => {
  let t: TestEngine
  let taker: Awaited<ReturnType<typeof newAgent>>
  before(async () => {
    t = await startTestEngine({
      AGENT_REGISTRATION_PER_HOUR: '1000',
      AGENT_REGISTRATION_PER_DAY: '1000',
      AGENT_RATE_PER_MIN: '100000',
      AGENT_RATE_PER_HOUR: '100000',
      PUBLIC_RATE_LIMIT_PER_MIN: '100000',
    })
    taker = await newAgent(t.api, ['taker', 'monitor'])
  })
  after(() => t.stop())

  const create = (body: unknown, headers: Record<string, string> = taker.headers) => post(t.api, CREATE, body, headers)

  test("GET /api/v1/tokens lists the local chain's shipped list, each token with its source and a label", async () => {
    const r = await get(t.api, '/api/v1/tokens')
    assert.equal(r.status, 200)
    assert.equal(r.body.chainId, 31337)
    assert.deepEqual(r.body.list, { name: 'RFQ engine local chain', version: '2.0.0' })
    assert.deepEqual(r.body.tokens.map((x: { symbol: string }) => x.symbol).sort(), [
      'DAI',
      'USDC',
      'USDT',
      'WBTC',
      'WETH',
    ])
    assert.deepEqual(
      r.body.tokens.find((x: { symbol: string }) => x.symbol === 'USDC'),
      { address: USDC, symbol: 'USDC', decimals: 6, name: 'USD Coin', source: 'list', label: 'USDC' },
    )
  })

  test('create: 201 with the spec fields; symbols resolve case-insensitively; the RFQ is live and persisted', async () => {
    const r = await create({
      tokenIn: 'weth',
      tokenOut: USDC.toUpperCase().replace('0X', '0x'),
      amountIn: '1000000000000000000',
    })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    assert.deepEqual(Object.keys(r.body).sort(), ['activeCount', 'expiry', 'rfqId', 'shareToken', 'ttlSeconds'])
    assert.match(r.body.rfqId, /^rfq_[0-9a-f]{44}$/)
    assert.equal(r.body.ttlSeconds, 30)
    assert.ok(Math.abs(r.body.expiry - (nowSec() + 30)) <= 2)
    assert.equal(r.body.shareToken, null)
    assert.ok(r.body.activeCount >= 1)
    const d = await get(t.api, `/api/v1/rfqs/${r.body.rfqId}`)
    assert.equal(d.status, 200)
    assert.deepEqual(d.body, {
      rfq: {
        id: r.body.rfqId,
        taker: taker.agent.address,
        tokenIn: { address: WETH, symbol: 'WETH', decimals: 18 },
        tokenOut: { address: USDC, symbol: 'USDC', decimals: 6 },
        kind: 0,
        amountIn: '1000000000000000000',
        amountOut: null,
        expiry: r.body.expiry,
        visibility: 'public',
      },
      quotes: [],
      status: 'OPEN',
      endedAt: null,
      endedBy: null,
      quoteCount: 0,
    })
    const [row] = await t.db.sql`select taker, token_in, status, agent_id from rfqs where id = ${r.body.rfqId}`
    assert.deepEqual(
      { ...row },
      { taker: taker.agent.address, token_in: WETH, status: 'OPEN', agent_id: taker.agentId },
    )
    const act = await get(t.api, '/api/v1/agent/activity', taker.headers)
    assert.ok(
      act.body.items.some(
        (i: { action: string; rfqId: string }) => i.action === 'rfq.create' && i.rfqId === r.body.rfqId,
      ),
    )
    await post(t.api, `/api/v1/rfqs/${r.body.rfqId}/cancel`, {}, taker.headers)
  })

  test('create: EXACT_OUT, private with allowedMakers and a share token, ttl bounds', async () => {
    const maker = wallet()
    const r = await create({
      tokenIn: 'USDC',
      tokenOut: 'WETH',
      kind: 1,
      amountOut: '5',
      ttlSeconds: 300,
      visibility: 'private',
      allowedMakers: [maker.account.address],
    })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    assert.equal(r.body.ttlSeconds, 300)
    assert.match(r.body.shareToken, /^[A-Za-z0-9_-]{32}$/)
    // private: sealed from everyone else (issue 14), read here with the share token
    assert.equal((await get(t.api, `/api/v1/rfqs/${r.body.rfqId}`)).status, 404)
    const d = await get(t.api, `/api/v1/rfqs/${r.body.rfqId}?shareToken=${r.body.shareToken}`)
    assert.equal(d.body.rfq.kind, 1)
    assert.equal(d.body.rfq.amountIn, null)
    assert.equal(d.body.rfq.amountOut, '5')
    assert.equal(d.body.rfq.visibility, 'private')
    assert.ok(!JSON.stringify(d.body).includes(r.body.shareToken))
    const [row] = await t.db.sql`select allowed_makers, share_token_hash from rfqs where id = ${r.body.rfqId}`
    assert.deepEqual(row!.allowed_makers, [maker.address])
    assert.ok(row!.share_token_hash && row!.share_token_hash !== r.body.shareToken)
    await post(t.api, `/api/v1/rfqs/${r.body.rfqId}/cancel`, {}, taker.headers)
  })

  test('create: every error text (spec texts where it has them)', async () => {
    const cases: [unknown, string][] = [
      ['[]', 'Invalid JSON body'],
      ['', 'Invalid JSON body'],
      ['{"tokenIn":', 'Invalid JSON body'],
      [{ tokenOut: 'USDC', amountIn: '1' }, 'tokenIn is required (address or symbol)'],
      [{ tokenIn: 'NOPE', tokenOut: 'USDC', amountIn: '1' }, 'Unknown tokenIn: NOPE. Use address or symbol.'],
      [
        { tokenIn: 'WETH', tokenOut: '0x000000000000000000000000000000000000dEaD', amountIn: '1' },
        'Unknown tokenOut: 0x000000000000000000000000000000000000dEaD. Use address or symbol.',
      ],
      [{ tokenIn: 'WETH', tokenOut: WETH, amountIn: '1' }, 'tokenIn and tokenOut must be different'],
      [{ tokenIn: 'WETH', tokenOut: 'USDC' }, 'amountIn is required for EXACT_IN'],
      [{ tokenIn: 'WETH', tokenOut: 'USDC', kind: 1, amountIn: '1' }, 'amountOut is required for EXACT_OUT'],
      [{ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1.5' }, 'amountIn/amountOut must be valid BigInt strings'],
      [{ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: 100 }, 'amountIn/amountOut must be valid BigInt strings'],
      [
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1', amountOut: 'x' },
        'amountIn/amountOut must be valid BigInt strings',
      ],
      [
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: (1n << 256n).toString() },
        'amountIn/amountOut must be valid BigInt strings',
      ],
      [{ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '0' }, 'amountIn must be > 0'],
      [{ tokenIn: 'WETH', tokenOut: 'USDC', kind: 2, amountIn: '1' }, 'kind must be 0 (EXACT_IN) or 1 (EXACT_OUT)'],
      [
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1', ttlSeconds: 9 },
        'ttlSeconds must be an integer from 10 to 300',
      ],
      [
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1', ttlSeconds: 301 },
        'ttlSeconds must be an integer from 10 to 300',
      ],
      [
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1', visibility: 'secret' },
        'visibility must be public or private',
      ],
      [
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1', visibility: 'private', allowedMakers: ['0x12'] },
        'allowedMakers must be an array of at most 100 0x addresses',
      ],
      [
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1', allowedMakers: [WETH] },
        'allowedMakers applies to private RFQs only',
      ],
    ]
    for (const [body, text] of cases) {
      const r = await create(body)
      assert.deepEqual([r.status, r.body.error], [400, text], JSON.stringify(body))
    }
    const noKey = await post(t.api, CREATE, { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1' })
    assert.equal(noKey.status, 401)
  })

  test('a token upserted into the registry later (sandbox deploy) resolves by symbol', async () => {
    const addr = '0x' + 'ab'.repeat(20)
    assert.equal(
      (await create({ tokenIn: 'TKA', tokenOut: 'USDC', amountIn: '1' })).body.error,
      'Unknown tokenIn: TKA. Use address or symbol.',
    )
    await upsertToken(t.db.sql, { chainId: 31337, address: addr as `0x${string}`, symbol: 'TKA', decimals: 9 })
    const r = await create({ tokenIn: 'tka', tokenOut: 'USDC', amountIn: '1' })
    assert.equal(r.status, 201)
    const d = await get(t.api, `/api/v1/rfqs/${r.body.rfqId}`)
    assert.deepEqual(d.body.rfq.tokenIn, { address: addr, symbol: 'TKA', decimals: 9 })
    await post(t.api, `/api/v1/rfqs/${r.body.rfqId}/cancel`, {}, taker.headers)
  })

  test('the per-wallet cap: 14 concurrent creates -> exactly 10 live, the rest 429 Too many active RFQs with activeCount', async () => {
    const a = await newAgent(t.api, ['taker'])
    const rs = await Promise.all(
      Array.from({ length: 14 }, () => create({ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '7' }, a.headers)),
    )
    const ok = rs.filter(r => r.status === 201)
    assert.equal(ok.length, 10)
    for (const r of rs.filter(r => r.status !== 201)) {
      assert.equal(r.status, 429)
      assert.equal(r.body.error, 'Too many active RFQs')
      assert.equal(r.body.activeCount, 10)
      assert.ok(r.headers.get('retry-after'))
    }
    // a cancelled one frees a slot
    assert.equal((await post(t.api, `/api/v1/rfqs/${ok[0]!.body.rfqId}/cancel`, {}, a.headers)).status, 200)
    const again = await create({ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '7' }, a.headers)
    assert.equal(again.status, 201)
    assert.equal(again.body.activeCount, 10)
    for (const r of [...ok.slice(1), again]) await post(t.api, `/api/v1/rfqs/${r.body.rfqId}/cancel`, {}, a.headers)
  })

  test('list: newest first, status and limit validated, cursor paging has no gap or repeat while RFQs are created', async () => {
    const a = await newAgent(t.api, ['taker'])
    const before = await get(t.api, '/api/v1/rfqs?limit=100')
    const existing: string[] = []
    for (let page = before; ; page = await get(t.api, `/api/v1/rfqs?limit=100&cursor=${page.body.nextCursor}`)) {
      existing.push(...page.body.items.map((i: { id: string }) => i.id))
      if (!page.body.nextCursor) break
    }
    const mine: string[] = []
    for (let i = 0; i < 9; i++) {
      const r = await create({ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: String(i + 1), ttlSeconds: 300 }, a.headers)
      mine.push(r.body.rfqId)
    }
    const all = [...mine.reverse(), ...existing]
    // page through 3 at a time while another agent keeps creating RFQs
    const b = await newAgent(t.api, ['taker'])
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const results: [{ status: number; body: any }, unknown] = await Promise.all([
        get(t.api, `/api/v1/rfqs?limit=3${cursor ? `&cursor=${cursor}` : ''}`),
        pages < 5
          ? create({ tokenIn: 'DAI', tokenOut: 'USDC', amountIn: '1', ttlSeconds: 300 }, b.headers)
          : Promise.resolve(undefined),
      ])
      const page = results[0]
      assert.equal(page.status, 200)
      assert.ok(page.body.items.length <= 3)
      seen.push(...page.body.items.map((i: { id: string }) => i.id))
      cursor = page.body.nextCursor
      pages++
    } while (cursor)
    assert.equal(new Set(seen).size, seen.length, 'no repeats')
    assert.deepEqual(
      seen.filter(id => all.includes(id)),
      all,
      'every RFQ that existed when paging began, once each, newest first',
    )

    const one = await get(t.api, '/api/v1/rfqs?limit=1')
    assert.deepEqual(Object.keys(one.body.items[0]).sort(), [
      'amountIn',
      'amountOut',
      'createdAt',
      'endedAt',
      'endedBy',
      'expiry',
      'id',
      'kind',
      'quoteCount',
      'status',
      'taker',
      'tokenIn',
      'tokenOut',
      'visibility',
    ])
    assert.equal(typeof one.body.nextCursor, 'string')
    for (const [q, text] of [
      ['status=closed', 'status must be open or all'],
      ['limit=0', 'limit must be an integer from 1 to 100'],
      ['limit=101', 'limit must be an integer from 1 to 100'],
      ['limit=abc', 'limit must be an integer from 1 to 100'],
      ['cursor=zzz', 'Invalid cursor'],
    ]) {
      const r = await get(t.api, `/api/v1/rfqs?${q}`)
      assert.deepEqual([r.status, r.body.error], [400, text], q)
    }
    const dflt = await get(t.api, '/api/v1/rfqs')
    assert.ok(dflt.body.items.length <= 50)
  })

  test('status: EXPIRED is computed at read time for an unswept row (ended at its own expiry); the open filter drops it', async () => {
    const id = 'rfq_' + 'e'.repeat(32),
      expiry = nowSec() - 5
    await t.db
      .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility) values (${id}, ${taker.agent.address}, ${WETH}, ${USDC}, 0, 5, ${expiry}, 'public')`
    const d = await get(t.api, `/api/v1/rfqs/${id}`)
    assert.equal(d.status, 200)
    assert.deepEqual(
      [d.body.status, d.body.endedAt, d.body.endedBy],
      ['EXPIRED', new Date(expiry * 1000).toISOString(), 'expiry'],
    )
    assert.deepEqual(Object.keys(d.body).sort(), ['endedAt', 'endedBy', 'fillTxHash', 'quoteCount', 'rfq', 'status'])
    assert.deepEqual(Object.keys(d.body.rfq).sort(), [
      'amountIn',
      'amountOut',
      'createdAt',
      'expiry',
      'id',
      'kind',
      'taker',
      'tokenIn',
      'tokenOut',
      'visibility',
    ])
    const all = await get(t.api, '/api/v1/rfqs?status=all&limit=100')
    assert.equal(all.body.items.find((i: { id: string }) => i.id === id).status, 'EXPIRED')
    const open: { id: string; status: string }[] = []
    for (
      let p = await get(t.api, '/api/v1/rfqs?status=open&limit=100');
      ;
      p = await get(t.api, `/api/v1/rfqs?status=open&limit=100&cursor=${p.body.nextCursor}`)
    ) {
      open.push(...p.body.items)
      if (!p.body.nextCursor) break
    }
    assert.ok(!open.some(i => i.id === id))
    assert.ok(open.every(i => i.status === 'OPEN' || i.status === 'QUOTED'))
    const c = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, taker.headers)
    assert.deepEqual([c.status, c.body.error, c.body.status], [409, 'RFQ is not open (status EXPIRED)', 'EXPIRED'])
  })

  test('detail: 404 Not found for an unknown id', async () => {
    const r = await get(t.api, '/api/v1/rfqs/rfq_nope')
    assert.deepEqual([r.status, r.body], [404, { error: 'Not found' }])
    const a = await get(t.api, '/api/v1/agent/rfqs/rfq_nope', taker.headers)
    assert.deepEqual([a.status, a.body], [404, { error: 'Not found' }])
    assert.equal((await get(t.api, '/api/v1/agent/rfqs/rfq_nope')).status, 401)
  })

  test("cancel: by agent key, by the taker's EIP-191 signature; others 403; 404; 409 after; persisted shape afterwards", async () => {
    const r = await create({ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '3' })
    const id = r.body.rfqId
    const other = await newAgent(t.api, ['taker'])
    const byOther = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, other.headers)
    assert.deepEqual(
      [byOther.status, byOther.body.error],
      [403, 'Forbidden: only the taker that created this RFQ can cancel it'],
    )
    const anonymous = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {})
    assert.equal(anonymous.status, 403)
    const ts = nowSec()
    const stranger = wallet()
    const wrongSig = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {
      timestamp: ts,
      signature: await stranger.account.signMessage({ message: cancelMessage(id, ts) }),
    })
    assert.deepEqual(
      [wrongSig.status, wrongSig.body.error],
      [403, 'Forbidden: only the taker that created this RFQ can cancel it'],
    )
    const stale = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {
      timestamp: ts - 400,
      signature: await taker.agent.account.signMessage({ message: cancelMessage(id, ts - 400) }),
    })
    assert.deepEqual(
      [stale.status, stale.body.error],
      [400, 'Signature expired. Timestamp must be within 300s of current time.'],
    )
    const badKey = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, { authorization: 'Bearer nope' })
    assert.equal(badKey.status, 401)

    const ok = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {
      timestamp: ts,
      signature: await taker.agent.account.signMessage({ message: cancelMessage(id, ts) }),
    })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.deepEqual(Object.keys(ok.body).sort(), ['cancelledAt', 'id', 'status'])
    assert.equal(ok.body.id, id)
    assert.equal(ok.body.status, 'CANCELLED')
    assert.ok(Math.abs(Date.parse(ok.body.cancelledAt) - Date.now()) < 10_000)
    const again = await post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, taker.headers)
    assert.deepEqual([again.status, again.body.error], [409, 'RFQ is not open (status CANCELLED)'])
    const d = await get(t.api, `/api/v1/rfqs/${id}`)
    assert.equal(d.body.status, 'CANCELLED')
    assert.equal(d.body.fillTxHash, null)
    assert.ok(d.body.rfq.createdAt)
    // the id carries the creation's very instant (the store finds the RFQ's day partition from it)
    assert.equal(Date.parse(d.body.rfq.createdAt), rfqIdTime(id))
    const [row] = await t.db.sql`select status, cancelled_at from rfqs where id = ${id}`
    assert.equal(row!.status, 'CANCELLED')
    assert.ok(row!.cancelled_at)
    const nf = await post(t.api, '/api/v1/rfqs/rfq_unknown/cancel', {}, taker.headers)
    assert.deepEqual([nf.status, nf.body.error], [404, 'Not found'])
  })

  test('double cancel race: exactly one 200, the others 409; actor and database agree', async () => {
    const r = await create({ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '3' })
    const id = r.body.rfqId
    assert.ok(
      (await get(t.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === id),
      'live on the relay first',
    )
    const rs = await Promise.all(
      Array.from({ length: 6 }, () => post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, taker.headers)),
    )
    assert.equal(rs.filter(x => x.status === 200).length, 1)
    assert.equal(rs.filter(x => x.status === 409).length, 5)
    assert.equal((await t.db.sql`select status from rfqs where id = ${id}`)[0]!.status, 'CANCELLED')
    assert.equal((await get(t.api, `/api/v1/rfqs/${id}`)).body.status, 'CANCELLED')
    const relay = await get(t.relay, '/rfqs')
    assert.ok(
      !relay.body.rfqs.some((x: { rfqId?: string; id?: string }) => (x.rfqId ?? x.id) === id),
      "gone from the relay's active store",
    )
  })

  test('a persisted open RFQ that is not live (e.g. after a restart) is cancelled by a guarded update', async () => {
    const id = 'rfq_' + 'c'.repeat(32)
    await t.db
      .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility) values (${id}, ${taker.agent.address}, ${WETH}, ${USDC}, 0, 5, ${nowSec() + 100}, 'public')`
    const rs = await Promise.all([1, 2, 3].map(() => post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, taker.headers)))
    assert.deepEqual(
      rs.map(x => x.status).sort((a, b) => a - b),
      [200, 409, 409],
    )
    assert.equal((await t.db.sql`select status from rfqs where id = ${id}`)[0]!.status, 'CANCELLED')
  })

  test('agent listing: source live (default), db, both; validation', async () => {
    const r = await create({ tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '11', ttlSeconds: 120 })
    const live = await get(t.api, '/api/v1/agent/rfqs', taker.headers)
    assert.equal(live.status, 200)
    assert.equal(live.body.source, 'live')
    assert.equal(live.body.nextCursor, null)
    const item = live.body.items.find((i: { id: string }) => i.id === r.body.rfqId)
    assert.equal(item.status, 'OPEN')
    assert.deepEqual(item.tokenIn, { address: WETH, symbol: 'WETH', decimals: 18 })
    const db = await get(t.api, '/api/v1/agent/rfqs?source=db&limit=2', taker.headers)
    assert.equal(db.body.source, 'db')
    assert.equal(db.body.items.length, 2)
    assert.equal(typeof db.body.nextCursor, 'string')
    const both = await get(t.api, '/api/v1/agent/rfqs?source=both&status=open', taker.headers)
    assert.equal(both.body.source, 'both')
    assert.ok(both.body.live.items.some((i: { id: string }) => i.id === r.body.rfqId))
    assert.ok(both.body.db.items.some((i: { id: string }) => i.id === r.body.rfqId))
    const bad = await get(t.api, '/api/v1/agent/rfqs?source=cache', taker.headers)
    assert.deepEqual([bad.status, bad.body.error], [400, 'source must be live, db or both'])
    const detail = await get(t.api, `/api/v1/agent/rfqs/${r.body.rfqId}`, (await newAgent(t.api, ['maker'])).headers)
    assert.equal(detail.status, 200)
    assert.deepEqual(detail.body, (await get(t.api, `/api/v1/rfqs/${r.body.rfqId}`)).body)
    await post(t.api, `/api/v1/rfqs/${r.body.rfqId}/cancel`, {}, taker.headers)
  })
})
