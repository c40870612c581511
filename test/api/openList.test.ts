// GET /api/v1/rfqs?status=open served from memory for anonymous pollers: every change shows at once
// (created, quoted, cancelled, expired), paging and validation are unchanged, and a private RFQ stays
// sealed for the anonymous page while its share-token holder still sees it (never from the cache).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign, waitFor } from '../relay/helpers.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine({ PUBLIC_RATE_LIMIT_PER_MIN: '100000', RATE_LIMIT_PER_MIN: '100000' })
})
after(() => t.stop())

const open = async (q = '', headers: Record<string, string> = {}) => {
  const r = await fetch(`${t.api}/api/v1/rfqs?status=open${q}`, { headers })
  return { status: r.status, body: (await r.json()) as any }
}
const ids = (b: any) => b.items.map((i: any) => i.id)

test('the open page follows every change at once, from memory, for anonymous pollers', async () => {
  const a = await createRfq(t)
  assert.deepEqual(ids((await open()).body).includes(a.id), true)
  const again = await open()
  assert.ok(ids(again.body).includes(a.id))

  const b = await createRfq(t) // created: the next read shows it
  assert.equal(ids((await open()).body)[0], b.id)

  const maker = account()
  const c = await Client.open(t.relayWs)
  const q = makeQuote(maker, a)
  c.send('QUOTE_SUBMIT', { rfqId: a.id, quote: q, signature: await sign(maker, domainOf(t), q) })
  await c.next(f => f.type === 'QUOTE_BROADCAST')
  const quoted = (await open()).body.items.find((i: any) => i.id === a.id)
  assert.deepEqual([quoted.status, quoted.quoteCount], ['QUOTED', 1])

  c.send('CANCEL_REQUEST', { rfqId: b.id }) // cancelled: gone from the next read
  await waitFor(
    async () => ids((await open()).body),
    l => !l.includes(b.id),
    5000,
  )

  const short = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 2 })
  assert.ok(ids((await open()).body).includes(short.id))
  await waitFor(
    async () => ids((await open()).body),
    l => !l.includes(short.id),
    6000,
  ) // expired: gone
  c.ws.close()
})

test('paging and validation as before; private RFQs sealed for the anonymous page, seen with their token', async () => {
  const made = []
  for (let i = 0; i < 3; i++) made.push(await createRfq(t))
  const p1 = await open('&limit=2')
  assert.equal(p1.body.items.length, 2)
  assert.ok(p1.body.nextCursor)
  const p2 = await open(`&limit=2&cursor=${p1.body.nextCursor}`)
  assert.equal(
    new Set([...ids(p1.body), ...ids(p2.body)]).size,
    ids(p1.body).length + ids(p2.body).length,
    'no RFQ on two pages',
  )
  assert.deepEqual([(await open('&limit=0')).status, (await open('&cursor=zz')).status], [400, 400])

  const sealed = await createRfq(t, { visibility: 'private', shareToken: 'tok-open-list-1' })
  assert.ok(!ids((await open('&limit=100')).body).includes(sealed.id))
  assert.ok(ids((await open('&limit=100', { 'x-share-token': 'tok-open-list-1' })).body).includes(sealed.id))
  assert.ok(
    !ids((await open('&limit=100')).body).includes(sealed.id),
    "the holder's page never reaches the anonymous cache",
  )
})
