// An RFQ is live until its own expiry: RFQ_TTL_SECS (1 s here) never ends one earlier. At its expiry it leaves
// the active store, is stored EXPIRED by its expiry, and refuses quotes from then on; the relay, the API, the SSE
// feed and the store say the same end. The TTL cleanup ends only what no actor ended: an RFQ still open in the
// store more than RFQ_TTL_SECS past its own expiry.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign, waitFor } from './helpers.js'
import { get, newAgent, openFeed, post } from '../api/agentKit.js'
import type { Rfq } from '../../actors/rfqTypes.js'

let t: TestEngine
let c: Client

before(async () => {
  t = await startTestEngine({ RFQ_TTL_SECS: '1', RATE_LIMIT_PER_MIN: '100000', PUBLIC_RATE_LIMIT_PER_MIN: '100000' })
  c = await Client.open(t.relayWs)
})
after(async () => {
  await c.close()
  await t.stop()
})

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const iso = (sec: number) => new Date(sec * 1000).toISOString()

test('an RFQ with a long expiry stays live past RFQ_TTL_SECS, ends at its own expiry, and is stored EXPIRED by it', async () => {
  const taker = await newAgent(t.api, ['taker'])
  const feed = await openFeed(t.api)
  try {
    const created = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 10 },
      taker.headers,
    )
    assert.equal(created.status, 201)
    const { rfqId: id, expiry } = created.body as { rfqId: string; expiry: number }
    const d = (await get(t.api, `/api/v1/rfqs/${id}`)).body
    const rfq = {
      id,
      taker: d.rfq.taker,
      tokenIn: d.rfq.tokenIn.address,
      tokenOut: d.rfq.tokenOut.address,
      expiry,
    } as Rfq
    await sleep(3000) // three times RFQ_TTL_SECS, before its expiry
    assert.ok(Date.now() < expiry * 1000 - 1000, "the check below runs before the RFQ's expiry")
    assert.ok(
      ((await (await fetch(`${t.relay}/rfqs`)).json()) as any).rfqs.some((r: any) => r.id === id),
      'listed by the relay past the TTL',
    )
    assert.ok(t.engine.modules.book.peek(id), 'in the active store past the TTL')
    const live = await get(t.api, `/api/v1/rfqs/${id}`)
    assert.deepEqual([live.body.status, live.body.endedAt, live.body.endedBy], ['OPEN', null, null])
    const maker = account()
    const q = makeQuote(maker, rfq)
    const signature = await sign(maker, domainOf(t), q)
    c.send('QUOTE_SUBMIT', { rfqId: id, quote: q, signature })
    assert.equal(
      (await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === id)).data.quote.maker,
      q.maker,
      'quotable past the TTL',
    )
    assert.equal((await t.db.sql`select status from rfqs where id = ${id}`)[0]!.status, 'QUOTED')

    const ended = await feed.waitFor(e => e.event === 'rfq.expired' && e.data.rfqId === id, 15_000)
    assert.ok(Date.now() >= expiry * 1000, 'not ended before its expiry')
    assert.deepEqual(ended.data, { rfqId: id, endedAt: iso(expiry), endedBy: 'expiry' })
    const row = await waitFor(
      async () => (await t.db.sql`select status, ended_at, ended_by from rfqs where id = ${id}`)[0]!,
      r => r.status === 'EXPIRED',
    )
    assert.deepEqual(
      [row.ended_at.toISOString(), row.ended_by],
      [iso(expiry), 'expiry'],
      'stored as ended by its own expiry, at it',
    )
    const detail = await get(t.api, `/api/v1/rfqs/${id}`)
    assert.deepEqual([detail.body.status, detail.body.endedAt, detail.body.endedBy], ['EXPIRED', iso(expiry), 'expiry'])
    const quotes = (await (await fetch(`${t.relay}/quotes?rfqId=${id}`)).json()) as any
    assert.deepEqual(
      [quotes.status, quotes.endedAt, quotes.endedBy, quotes.count],
      ['EXPIRED', iso(expiry), 'expiry', 1],
    )

    assert.equal(t.engine.modules.book.peek(id), undefined)
    assert.equal(
      ((await (await fetch(`${t.relay}/rfqs`)).json()) as any).rfqs.some((r: any) => r.id === id),
      false,
    )
    const late = makeQuote(account(), rfq)
    assert.equal(
      (await c.error({ rfqId: id, quote: late, signature: await sign(account(), domainOf(t), late) })).message,
      'RFQ not found or expired',
    )
    c.send('CANCEL_REQUEST', { rfqId: id })
    assert.equal((await c.nextOf('ERROR')).data.message, 'RFQ not found or already expired')
  } finally {
    await feed.close()
  }
})

test('the TTL cleanup stores EXPIRED by the engine what is open in the store past its expiry and the TTL, and nothing before its expiry', async () => {
  const now = Math.floor(Date.now() / 1000)
  // rows an engine that stopped would leave: one that expired while it was down, one long-lived that has not expired
  const stale = 'rfq_' + 'a1'.repeat(16),
    young = 'rfq_' + 'b2'.repeat(16)
  const insert = (id: string, expiry: number) => t.db
    .sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, created_at, created_day)
    values (${id}, ${account().address.toLowerCase()}, ${'0x' + '11'.repeat(20)}, ${'0x' + '22'.repeat(20)}, 0, 5, ${expiry}, 'public', ${new Date((now - 3600) * 1000)}, ${new Date((now - 3600) * 1000).toISOString().slice(0, 10)})`
  await insert(stale, now - 30)
  await insert(young, now + 300)
  const row = await waitFor(
    async () => (await t.db.sql`select status, ended_at, ended_by from rfqs where id = ${stale}`)[0]!,
    r => r.status === 'EXPIRED',
  )
  assert.deepEqual([row.ended_at.toISOString(), row.ended_by], [iso(now - 30), 'engine'])
  await sleep(2500) // more than two sweeps of the one-second TTL
  assert.deepEqual(
    { ...(await t.db.sql`select status, ended_by from rfqs where id = ${young}`)[0] },
    { status: 'OPEN', ended_by: null },
    'an RFQ older than the TTL but before its own expiry is left open',
  )
})

test('an RFQ past its own expiry refuses quotes at once and leaves; a filled RFQ is not marked EXPIRED', async () => {
  const book = t.engine.modules.book
  const past = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) - 1 })
  const maker = account()
  const q = makeQuote(maker, past)
  assert.equal(
    (await c.error({ rfqId: past.id, quote: q, signature: await sign(maker, domainOf(t), q) })).message,
    'RFQ not found or expired',
  )
  await waitFor(
    () => book.peek(past.id),
    v => v === undefined,
  )
  assert.equal((await t.db.sql`select status from rfqs where id = ${past.id}`)[0]!.status, 'EXPIRED')

  const filled = await createRfq(t)
  const outcome = await book.fill(filled.id, '0x' + 'ab'.repeat(32), async () => {
    await t.db.sql`update rfqs set status = 'FILLED', fill_tx_hash = ${'0x' + 'ab'.repeat(32)} where id = ${filled.id}`
    return 'committed'
  })
  assert.deepEqual(outcome, { ok: true, result: 'committed' })
  assert.equal(book.peek(filled.id), undefined)
  await new Promise(r => setTimeout(r, 1200))
  assert.equal((await t.db.sql`select status from rfqs where id = ${filled.id}`)[0]!.status, 'FILLED')
})
