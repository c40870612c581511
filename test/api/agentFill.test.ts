// Agent fill: validation texts, the taker-only rule, the same-txHash race, fill versus cancel,
// a persisted (no longer live) RFQ, points through the fills code, activity log, SSE events.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { post, get, newAgent, nowSec, wallet, openFeed } from './agentKit.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const txHash = () => '0x' + randomBytes(32).toString('hex')

describe('POST /api/v1/agent/rfqs/:id/fill', () => {
  let t: TestEngine
  let taker: Awaited<ReturnType<typeof newAgent>>
  const maker = wallet()
  before(async () => {
    t = await startTestEngine({
      AGENT_REGISTRATION_PER_HOUR: '1000',
      AGENT_REGISTRATION_PER_DAY: '1000',
      AGENT_RATE_PER_MIN: '100000',
      AGENT_RATE_PER_HOUR: '100000',
      PUBLIC_RATE_LIMIT_PER_MIN: '100000',
      MAX_ACTIVE_RFQS_PER_WALLET: '100',
    })
    taker = await newAgent(t.api, ['taker', 'monitor'])
  })
  after(() => t.stop())

  const newRfq = async () =>
    (
      await post(
        t.api,
        '/api/v1/agent/rfqs',
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000000000000000000', ttlSeconds: 120 },
        taker.headers,
      )
    ).body.rfqId as string
  const fillBody = (over: Record<string, unknown> = {}) => ({
    txHash: txHash(),
    maker: maker.account.address,
    amountIn: '1000000000000000000',
    amountOut: '2500000000',
    amountInUsd: 2500,
    ...over,
  })
  const fill = (id: string, body: unknown, headers: Record<string, string> = taker.headers) =>
    post(t.api, `/api/v1/agent/rfqs/${id}/fill`, body, headers)

  test('fills a live RFQ: 200 spec shape, FILLED in the book and in Postgres, fill with points recorded, activity logged, SSE events', async () => {
    const feed = await openFeed(t.api)
    try {
      const id = await newRfq()
      const body = fillBody()
      const r = await fill(id, body)
      assert.equal(r.status, 200, JSON.stringify(r.body))
      assert.deepEqual(Object.keys(r.body).sort(), ['fill', 'rfqId', 'success', 'txHash'])
      assert.equal(r.body.success, true)
      assert.equal(r.body.rfqId, id)
      assert.equal(r.body.txHash, body.txHash)
      assert.deepEqual(Object.keys(r.body.fill).sort(), ['id', 'improvementBps', 'makerPoints', 'takerPoints'])
      assert.ok(r.body.fill.takerPoints > 0 && r.body.fill.makerPoints > 0)
      const [row] = await t.db.sql`select status, fill_tx_hash, filled_at from rfqs where id = ${id}`
      assert.deepEqual([row!.status, row!.fill_tx_hash], ['FILLED', body.txHash])
      const [f] = await t.db
        .sql`select id, rfq_id, taker, maker, token_in, token_out, amount_in::text, amount_in_usd, points_version from fills where tx_hash = ${body.txHash}`
      assert.deepEqual(
        { ...f },
        {
          id: r.body.fill.id,
          rfq_id: id,
          taker: taker.agent.address,
          maker: maker.address,
          token_in: WETH,
          token_out: USDC,
          amount_in: '1000000000000000000',
          amount_in_usd: 2500,
          points_version: 'v2',
        },
      )
      const d = await get(t.api, `/api/v1/rfqs/${id}`)
      assert.deepEqual([d.body.status, d.body.fillTxHash], ['FILLED', body.txHash])
      assert.ok(
        !(await get(t.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === id),
        "left the relay's active store",
      )
      const act = await get(t.api, '/api/v1/agent/activity', taker.headers)
      assert.ok(
        act.body.items.some(
          (i: { action: string; rfqId: string; detail: { txHash: string } }) =>
            i.action === 'rfq.fill' && i.rfqId === id && i.detail.txHash === body.txHash,
        ),
      )
      const filled = await feed.waitFor(e => e.event === 'rfq.filled' && e.data.rfqId === id)
      assert.equal(filled.data.txHash, body.txHash)
      const rec = await feed.waitFor(e => e.event === 'fill.recorded' && e.data.rfqId === id)
      assert.equal(rec.data.id, r.body.fill.id)
      assert.notEqual(rec.id, filled.id)
      const again = await fill(id, fillBody())
      assert.deepEqual([again.status, again.body.error], [409, 'RFQ cannot be filled (status FILLED)'])
    } finally {
      await feed.close()
    }
  })

  test('validation texts, in order, then 404, then 403 for another taker', async () => {
    const id = await newRfq()
    const cases: [unknown, string][] = [
      ['[]', 'Invalid JSON body'],
      [{ ...fillBody(), txHash: '0x12' }, 'Missing or invalid txHash (expected 0x + 64 hex chars)'],
      [{ ...fillBody(), txHash: undefined, maker: 'x' }, 'Missing or invalid txHash (expected 0x + 64 hex chars)'],
      [{ ...fillBody(), maker: '0xzz' }, 'Missing or invalid maker address'],
      [{ ...fillBody(), amountIn: undefined }, 'Missing amountIn or amountOut (BigInt strings)'],
      [{ ...fillBody(), amountOut: '1e6' }, 'Missing amountIn or amountOut (BigInt strings)'],
      [{ ...fillBody(), amountInUsd: '2500' }, 'Missing or invalid amountInUsd (number)'],
      [{ ...fillBody(), amountInUsd: undefined }, 'Missing or invalid amountInUsd (number)'],
    ]
    for (const [body, text] of cases) {
      const r = await fill(id, body)
      assert.deepEqual([r.status, r.body.error], [400, text], JSON.stringify(body))
    }
    const nf = await fill('rfq_missing', fillBody())
    assert.deepEqual([nf.status, nf.body.error], [404, 'RFQ not found'])
    const other = await newAgent(t.api, ['taker'])
    const forbidden = await fill(id, fillBody(), other.headers)
    assert.deepEqual(
      [forbidden.status, forbidden.body.error],
      [403, 'Forbidden: only the taker that created this RFQ can fill it'],
    )
    assert.equal((await fill(id, fillBody(), {})).status, 401)
    assert.equal((await t.db.sql`select status from rfqs where id = ${id}`)[0]!.status, 'OPEN')
  })

  test('the same txHash raced 8 times on one RFQ: exactly one 200, the others 409 Fill already recorded for this transaction', async () => {
    const id = await newRfq()
    const body = fillBody()
    const rs = await Promise.all(Array.from({ length: 8 }, () => fill(id, body)))
    assert.equal(rs.filter(r => r.status === 200).length, 1)
    for (const r of rs.filter(r => r.status !== 200))
      assert.deepEqual([r.status, r.body.error], [409, 'Fill already recorded for this transaction'])
    assert.equal((await t.db.sql`select count(*)::int as n from fills where tx_hash = ${body.txHash}`)[0]!.n, 1)
  })

  test('the same txHash raced on two different RFQs: one fill, the other RFQ stays open', async () => {
    const [a, b] = [await newRfq(), await newRfq()]
    const body = fillBody()
    const rs = await Promise.all([fill(a, body), fill(b, body)])
    assert.deepEqual(
      rs.map(r => r.status).sort((a, b) => a - b),
      [200, 409],
    )
    assert.equal(rs.find(r => r.status === 409)!.body.error, 'Fill already recorded for this transaction')
    const statuses = (await t.db.sql`select status from rfqs where id in (${a}, ${b}) order by status`).map(
      r => r.status,
    )
    assert.deepEqual(statuses, ['FILLED', 'OPEN'])
    const loser = rs[0].status === 409 ? a : b
    assert.equal(
      (await get(t.api, `/api/v1/rfqs/${loser}`)).body.status,
      'OPEN',
      'the loser is still open in its actor',
    )
    await post(t.api, `/api/v1/rfqs/${loser}/cancel`, {}, taker.headers)
  })

  test('fill versus cancel on one RFQ, 10 times: exactly one wins each time; actor and database agree', async () => {
    for (let i = 0; i < 10; i++) {
      const id = await newRfq()
      const [f, c] = await Promise.all([
        fill(id, fillBody()),
        post(t.api, `/api/v1/rfqs/${id}/cancel`, {}, taker.headers),
      ])
      assert.deepEqual(
        [f.status, c.status].sort((a, b) => a - b),
        [200, 409],
        `${f.status} ${JSON.stringify(f.body)} / ${c.status} ${JSON.stringify(c.body)}`,
      )
      const [row] = await t.db.sql`select status, fill_tx_hash from rfqs where id = ${id}`
      const fills = (await t.db.sql`select count(*)::int as n from fills where rfq_id = ${id}`)[0]!.n
      if (f.status === 200) {
        assert.equal(row!.status, 'FILLED')
        assert.equal(fills, 1)
        assert.equal(c.body.error, 'RFQ is not open (status FILLED)')
      } else {
        assert.equal(row!.status, 'CANCELLED')
        assert.equal(fills, 0)
        assert.equal(row!.fill_tx_hash, null)
        assert.equal(f.body.error, 'RFQ cannot be filled (status CANCELLED)')
      }
      assert.equal((await get(t.api, `/api/v1/rfqs/${id}`)).body.status, row!.status)
    }
  })

  test('an RFQ no longer live is filled by a guarded update; one past its expiry, or cancelled, is refused (the one fill rule)', async () => {
    const stored = 'rfq_' + randomBytes(16).toString('hex') // in storage only, still before its expiry
    await t.db
      .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, status) values (${stored}, ${taker.agent.address}, ${WETH}, ${USDC}, 0, 5, ${nowSec() + 100}, 'private', 'OPEN')`
    const rs = await Promise.all([fill(stored, fillBody()), fill(stored, fillBody())])
    assert.deepEqual(
      rs.map(r => r.status).sort((a, b) => a - b),
      [200, 409],
    )
    const [row] = await t.db.sql`select status, fill_tx_hash from rfqs where id = ${stored}`
    assert.equal(row!.status, 'FILLED')
    const [f] = await t.db.sql`select is_private from fills where tx_hash = ${row!.fill_tx_hash}`
    assert.equal(f!.is_private, true)
    // past its expiry (shown EXPIRED everywhere): never filled afterwards, whether stored EXPIRED or still OPEN
    for (const status of ['EXPIRED', 'OPEN']) {
      const id = 'rfq_' + randomBytes(16).toString('hex')
      await t.db
        .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, status) values (${id}, ${taker.agent.address}, ${WETH}, ${USDC}, 0, 5, ${nowSec() - 10}, 'public', ${status})`
      assert.equal((await get(t.api, `/api/v1/rfqs/${id}`)).body.status, 'EXPIRED')
      const r = await fill(id, fillBody())
      assert.deepEqual(
        [r.status, r.body.error, r.body.code, r.body.status],
        [409, 'RFQ cannot be filled (status EXPIRED)', 'NOT_FILLABLE', 'EXPIRED'],
      )
      assert.equal((await t.db.sql`select count(*)::int as n from fills where rfq_id = ${id}`)[0]!.n, 0)
    }
    const cancelled = 'rfq_' + randomBytes(16).toString('hex')
    await t.db
      .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, status) values (${cancelled}, ${taker.agent.address}, ${WETH}, ${USDC}, 0, 5, ${nowSec() + 100}, 'public', 'CANCELLED')`
    const r = await fill(cancelled, fillBody())
    assert.deepEqual([r.status, r.body.error], [409, 'RFQ cannot be filled (status CANCELLED)'])
    assert.equal((await t.db.sql`select count(*)::int as n from fills where rfq_id = ${cancelled}`)[0]!.n, 0)
  })
})
