// Refused requests harm nothing: a fill refused inside the RFQ's actor (409, a txHash already recorded)
// is the caller's answer, never the actor's failure. Ten in a row leave the RFQ live in the relay,
// quotable and fillable; and an actor that does stop after real failures ends its RFQ in the store too.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent, post } from '../api/agentKit.js'
import { Client, account, makeQuote, sign, domainOf, makeRfq } from '../relay/helpers.js'
import { ActorSystem } from '../../actors/mailbox.js'
import { RfqBook } from '../../actors/book.js'
import { commitFromAsync, signerFromAsync } from '../../actors/asyncDeps.js'

const hex = (n: number) => `0x${randomBytes(n).toString('hex')}`

describe('refused requests harm nothing', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000', PUBLIC_RATE_LIMIT_PER_MIN: '100000', FILL_VERIFY: 'off' })
  })
  after(() => t.stop())

  test('ten fills refused with 409 inside the actor: the RFQ stays live, takes a quote, and fills', async () => {
    const agent = await newAgent(t.api, ['taker'])
    const create = async () =>
      (
        await post(
          t.api,
          '/api/v1/agent/rfqs',
          { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
          agent.headers,
        )
      ).body.rfqId as string
    const [a, b] = [await create(), await create()]
    const fill = (id: string, txHash: string) =>
      post(
        t.api,
        `/api/v1/agent/rfqs/${id}/fill`,
        { txHash, maker: hex(20), amountIn: '1000', amountOut: '5', amountInUsd: 10 },
        agent.headers,
      )
    const used = hex(32)
    assert.equal((await fill(a, used)).status, 200)
    for (let i = 0; i < 10; i++) {
      const r = await fill(b, used)
      assert.deepEqual([r.status, r.body.error], [409, 'Fill already recorded for this transaction'])
    }
    const relayList = (await (await fetch(`${t.relay}/rfqs`)).json()) as { rfqs: { id: string }[] }
    assert.ok(
      relayList.rfqs.some(r => r.id === b),
      'still live in the relay',
    )
    const [row] = await t.db.sql`select status from rfqs where id = ${b}`
    assert.equal(row!.status, 'OPEN')

    const d = (await (await fetch(`${t.api}/api/v1/rfqs/${b}`)).json()) as any
    const rfq = {
      ...makeRfq(),
      id: b,
      taker: d.rfq.taker,
      tokenIn: d.rfq.tokenIn.address,
      tokenOut: d.rfq.tokenOut.address,
      expiry: d.rfq.expiry,
    }
    const c = await Client.open(t.relayWs)
    const maker = account(),
      q = makeQuote(maker, rfq)
    c.send('QUOTE_SUBMIT', { rfqId: b, quote: q, signature: await sign(maker, domainOf(t), q) })
    assert.equal((await c.nextOf('QUOTE_BROADCAST')).data.rfqId, b)
    await c.close()
    assert.equal((await fill(b, hex(32))).status, 200)
    const metrics = await (await fetch(`${t.api}/metrics`)).text()
    assert.match(metrics, /^rfq_actor_abnormal_stops_total 0$/m)
  })
})

test('an RFQ actor that stops after repeated real failures ends its RFQ in the store and for every reader', async () => {
  const system = new ActorSystem({})
  const persisted: string[] = []
  const book = new RfqBook(system, {
    store: {
      insertRfq: async () => {},
      commitQuote: commitFromAsync(async () => {}),
      storeEnds: async () => {},
      persistStatus: async (id, c) => {
        persisted.push(`${id} ${c.status} by ${c.status === 'EXPIRED' ? c.by : 'taker'}`)
      },
    },
    recoverSigner: signerFromAsync(async () => {
      throw new Error('unreachable')
    }),
  })
  const events: string[] = []
  book.events.subscribe(e => events.push(e.type))
  const rfq = makeRfq()
  await book.create(rfq)
  // a Describe whose reply channel throws is a handler failure (a bug stand-in): past the intensity the actor stops
  const entry = (
    book as unknown as { live: Map<string, { ref: { ask: (m: unknown, t: number) => Promise<unknown> } }> }
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
  for (let i = 0; i < 50 && book.activeRfqs > 0; i++) await new Promise(r => setTimeout(r, 5))
  assert.equal(book.activeRfqs, 0)
  assert.equal(book.abnormalStops, 1)
  assert.deepEqual(persisted, [`${rfq.id} EXPIRED by engine`], "an end the engine chose is stored as the engine's")
  assert.deepEqual(events, ['rfq.created', 'rfq.expired'])
})
