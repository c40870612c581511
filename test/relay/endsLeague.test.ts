// Whose end it was. A maker is judged (league cancelRate and reliability) on an RFQ that was filled or ended by its
// own expiry, never on an end the engine chose: an RFQ actor that failed, or an RFQ that expired while the engine
// was stopped (its end stored by the next start's TTL cleanup). RFQ_TTL_SECS is 1 s; every RFQ goes through the real
// relay: created, quoted over the WebSocket, and ended by its actor's timer, the book, the TTL cleanup or a fill.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign, waitFor } from './helpers.js'
import { get, newAgent, post } from '../api/agentKit.js'
import { createAgentRfq } from '../api/agentRfq.js'
import type { Rfq } from '../../actors/rfqTypes.js'
import type { PrivateKeyAccount } from 'viem/accounts'

const ENV = { RFQ_TTL_SECS: '1', RATE_LIMIT_PER_MIN: '100000', PUBLIC_RATE_LIMIT_PER_MIN: '100000' }
let t: TestEngine

before(async () => {
  t = await startTestEngine(ENV)
})
after(async () => {
  await t.stop()
})

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))
const nowSec = () => Math.floor(Date.now() / 1000)
const txHash = () => '0x' + randomBytes(32).toString('hex')

async function quote(rfq: Rfq, maker: PrivateKeyAccount): Promise<void> {
  const c = await Client.open(t.relayWs)
  const q = makeQuote(maker, rfq)
  c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature: await sign(maker, domainOf(t), q) })
  await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
  await c.close()
}

/** A fill of the maker's elsewhere: the league lists only makers with fills in the period. */
async function someFill(maker: PrivateKeyAccount): Promise<void> {
  const r = await post(t.api, '/api/v1/fills', {
    txHash: txHash(),
    taker: account().address.toLowerCase(),
    maker: maker.address.toLowerCase(),
    tokenIn: '0x' + '11'.repeat(20),
    tokenOut: '0x' + '22'.repeat(20),
    amountIn: '1000',
    amountOut: '2000',
    amountInUsd: 1000,
  })
  assert.equal(r.status, 200, JSON.stringify(r.body))
}

async function standing(maker: PrivateKeyAccount): Promise<{ cancelRate: number; reliability: number }> {
  const r = await get(t.api, `/api/v1/league?role=maker&period=all&search=${maker.address.toLowerCase().slice(2)}`)
  assert.equal(r.body.entries.length, 1, JSON.stringify(r.body))
  const { cancelRate, reliability } = r.body.entries[0]
  return { cancelRate, reliability }
}

const ended = async (id: string) =>
  waitFor(
    async () => (await t.db.sql`select status, ended_by from rfqs where id = ${id}`)[0]!,
    r => r.status !== 'OPEN' && r.status !== 'QUOTED',
    10_000,
  )

test('an RFQ that outlives RFQ_TTL_SECS and is then filled counts for its maker, not against it', async () => {
  const taker = await newAgent(t.api, ['taker'])
  const rfq = await createAgentRfq(t.api, taker, { ttlSeconds: 60 })
  const maker = account()
  await quote(rfq, maker)
  await sleep(2500) // past the TTL
  const fill = await post(
    t.api,
    `/api/v1/agent/rfqs/${rfq.id}/fill`,
    { txHash: txHash(), maker: maker.address, amountIn: '1000', amountOut: '2000', amountInUsd: 1000 },
    taker.headers,
  )
  assert.equal(fill.status, 200, JSON.stringify(fill.body))
  assert.deepEqual({ ...(await ended(rfq.id)) }, { status: 'FILLED', ended_by: 'taker' })
  assert.deepEqual(await standing(maker), { cancelRate: 0, reliability: 1.1 })
})

test("an RFQ whose own expiry ends it judges its best maker as failed (the documented rule the engine's ends are kept out of)", async () => {
  const maker = account()
  const rfq = await createRfq(t, { expiry: nowSec() + 3 })
  await quote(rfq, maker)
  assert.deepEqual({ ...(await ended(rfq.id)) }, { status: 'EXPIRED', ended_by: 'expiry' })
  await someFill(maker)
  assert.deepEqual(await standing(maker), { cancelRate: 1, reliability: 0.5 })
})

test('an RFQ ended by a failed actor is stored EXPIRED by the engine and does not count against its maker', async () => {
  const maker = account()
  const rfq = await createRfq(t, { expiry: nowSec() + 120 })
  await quote(rfq, maker)
  // a Describe whose reply channel throws is a handler failure: past the supervision's intensity the actor stops
  const entry = (
    t.engine.modules.book as unknown as {
      live: Map<string, { ref: { ask: (m: unknown, ms: number) => Promise<unknown> } }>
    }
  ).live.get(rfq.id)!
  for (let i = 0; i < 5; i++)
    await entry.ref
      .ask(
        () => ({
          type: 'Describe',
          replyTo: () => {
            throw new Error('boom')
          },
        }),
        1000,
      )
      .catch(() => {})
  assert.deepEqual({ ...(await ended(rfq.id)) }, { status: 'EXPIRED', ended_by: 'engine' })
  const detail = await get(t.api, `/api/v1/rfqs/${rfq.id}`)
  assert.deepEqual([detail.body.status, detail.body.endedBy], ['EXPIRED', 'engine'])
  assert.ok(Date.parse(detail.body.endedAt) < rfq.expiry * 1000, 'ended when the actor failed, before its expiry')
  await someFill(maker)
  assert.deepEqual(await standing(maker), { cancelRate: 0, reliability: 1.1 })
})

test("an RFQ that expires while the engine is stopped is ended by the next start's TTL cleanup, as the engine's end", async () => {
  const maker = account()
  const rfq = await createRfq(t, { expiry: nowSec() + 2 })
  await quote(rfq, maker)
  const db = t.db
  await t.stop({ keepDatabase: true }) // a shutdown keeps live RFQs open for the restart
  assert.equal((await db.sql`select status from rfqs where id = ${rfq.id}`)[0]!.status, 'QUOTED')
  await waitFor(
    () => nowSec(),
    s => s > rfq.expiry + 1,
    10_000,
  ) // past its expiry and the TTL while no engine runs
  t = await startTestEngine(ENV, { db })
  assert.deepEqual({ ...(await ended(rfq.id)) }, { status: 'EXPIRED', ended_by: 'engine' })
  assert.equal(t.engine.modules.book.peek(rfq.id), undefined, 'not restored')
  await someFill(maker)
  assert.deepEqual(await standing(maker), { cancelRate: 0, reliability: 1.1 })
})
