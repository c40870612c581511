// Private RFQs: announced only to sockets that present the RFQ's shareToken (at connect with
// ?shareToken=, or later with SUBSCRIBE), quotable only with the token and only by allowed makers,
// hidden from GET /rfqs and GET /quotes without it.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign } from './helpers.js'

let t: TestEngine
const clients: Client[] = []
const open = async (query = '') => {
  const c = await Client.open(`${t.relayWs}/${query}`)
  clients.push(c)
  return c
}

before(async () => {
  t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000' })
})
after(async () => {
  await Promise.all(clients.map(c => c.close()))
  await t.stop()
})

test('a private RFQ reaches only token holders, and only allowed makers holding the token can quote it', async () => {
  const allowed = account(),
    outsider = account()
  const token = 'share-' + Math.random().toString(36).slice(2)
  const everyone = await open()
  const early = await open(`?shareToken=${token}`)
  const rfq = await createRfq(t, {
    visibility: 'private',
    shareToken: token,
    allowedMakers: [allowed.address.toLowerCase() as `0x${string}`],
  })

  const announced = await early.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.id)
  assert.equal(announced.data.rfq.visibility, 'private')
  assert.equal(JSON.stringify(announced).includes(token), false, 'the token itself is never broadcast')

  // a maker who got the token after creation subscribes and gets the RFQ announced to it alone
  const late = await open()
  late.send('SUBSCRIBE', { shareToken: token })
  const replay = await late.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.id)
  assert.deepEqual(replay.data, announced.data)
  assert.deepEqual((await late.nextOf('SUBSCRIBED')).data, { channels: ['rfqs', 'quotes'], rfqIds: [rfq.id] })
  // one who connects with the token after creation is told of it at once, once, and a wrong token tells nothing
  const connectedLate = await open(`?shareToken=${token}`)
  assert.deepEqual((await connectedLate.next(f => f.type === 'RFQ_BROADCAST')).data, announced.data)
  const wrongToken = await open('?shareToken=not-this-one')
  for (const c of [connectedLate, wrongToken]) await c.sync()
  assert.equal(connectedLate.of('RFQ_BROADCAST').length, 1)
  assert.equal(wrongToken.frames.filter(f => f.type !== 'PONG').length, 0)

  const d = domainOf(t)
  const q = makeQuote(allowed, rfq)
  const signature = await sign(allowed, d, q)
  // without the token the RFQ does not exist for this client
  assert.equal((await everyone.error({ rfqId: rfq.id, quote: q, signature })).message, 'RFQ not found or expired')
  assert.equal(
    (await everyone.error({ rfqId: rfq.id, quote: q, signature, shareToken: 'wrong' })).message,
    'RFQ not found or expired',
  )
  // with the token, a maker outside the allow-list is refused
  const oq = makeQuote(outsider, rfq)
  const holder = await open() // presenting the token joins its broadcasts, so not `everyone`
  assert.deepEqual(
    await holder.error({ rfqId: rfq.id, quote: oq, signature: await sign(outsider, d, oq), shareToken: token }),
    { message: 'Quote rejected: maker is not allowed on this private RFQ', rfqId: rfq.id, code: 'MAKER_NOT_ALLOWED' },
  )
  // the allowed maker on the subscribed socket quotes without repeating the token
  late.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature })
  for (const c of [late, early]) await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)

  await everyone.sync()
  assert.equal(
    everyone.frames.some(f => f.data?.rfqId === rfq.id && f.type !== 'ERROR'),
    false,
    'nothing about it reached a client without the token',
  )

  const list = (await (await fetch(`${t.relay}/rfqs`)).json()) as any
  assert.equal(
    list.rfqs.some((r: any) => r.id === rfq.id),
    false,
  )
  const withToken = (await (await fetch(`${t.relay}/rfqs?shareToken=${token}`)).json()) as any
  assert.equal(
    withToken.rfqs.some((r: any) => r.id === rfq.id),
    true,
  )
  assert.equal((await fetch(`${t.relay}/quotes?rfqId=${rfq.id}`)).status, 404)
  const quotes = (await (await fetch(`${t.relay}/quotes?rfqId=${rfq.id}&shareToken=${token}`)).json()) as any
  assert.equal(quotes.count, 1)

  const [row] = await t.db.sql`select share_token_hash from rfqs where id = ${rfq.id}`
  assert.equal(typeof row!.share_token_hash, 'string')
  assert.notEqual(row!.share_token_hash, token, 'only a hash of the token is stored')
})
