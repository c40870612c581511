// RFQs leave the active store on their own expiry and, at the latest, RFQ_TTL_SECS after creation;
// an unfilled one is stored EXPIRED and refuses quotes from then on.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign, waitFor } from './helpers.js'

let t: TestEngine
let c: Client

before(async () => {
  t = await startTestEngine({ RFQ_TTL_SECS: '1', RATE_LIMIT_PER_MIN: '100000' })
  c = await Client.open(t.relayWs)
})
after(async () => { await c.close(); await t.stop() })

test('an RFQ with a long expiry is cleaned up after RFQ_TTL_SECS and stored EXPIRED', async () => {
  const maker = account()
  const rfq = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 300 })
  const q = makeQuote(maker, rfq)
  const signature = await sign(maker, domainOf(t), q)
  assert.ok((await (await fetch(`${t.relay}/rfqs`)).json() as any).rfqs.some((r: any) => r.id === rfq.id))
  const status = await waitFor(async () => (await t.db.sql`select status from rfqs where id = ${rfq.id}`)[0]!.status, s => s === 'EXPIRED', 5000)
  assert.equal(status, 'EXPIRED')
  assert.equal(t.engine.modules.book.peek(rfq.id), undefined)
  assert.equal((await (await fetch(`${t.relay}/rfqs`)).json() as any).rfqs.some((r: any) => r.id === rfq.id), false)
  assert.equal((await c.error({ rfqId: rfq.id, quote: q, signature })).message, 'RFQ not found or expired')
  c.send('CANCEL_REQUEST', { rfqId: rfq.id })
  assert.equal((await c.nextOf('ERROR')).data.message, 'RFQ not found or already expired')
})

test('an RFQ past its own expiry refuses quotes at once and leaves; a filled RFQ is not marked EXPIRED', async () => {
  const book = t.engine.modules.book
  const past = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) - 1 })
  const maker = account()
  const q = makeQuote(maker, past)
  assert.equal((await c.error({ rfqId: past.id, quote: q, signature: await sign(maker, domainOf(t), q) })).message, 'RFQ not found or expired')
  await waitFor(() => book.peek(past.id), v => v === undefined)
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
