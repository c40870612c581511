// Every message type the relay sends and every ERROR code the document lists is sent, in JSON and in msgpack,
// and every one of those frames passes the document (the shared test client checks each). The faults are real:
// PostgreSQL itself refuses the quote insert (a trigger raising "cannot connect now", or any other error) or
// holds it (pg_sleep), so the relay meets UNAVAILABLE, INTERNAL and a full pipeline (BUSY) as in an outage.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign, waitFor, TOKEN_IN } from '../relay/helpers.js'
import { signCancel } from '../../sdk/sign.js'
import { freshMakers, presignQuotes } from '../../bench/lib/presign.js'
import { documented, seen } from './conformance.js'
import type { Rfq } from '../../actors/rfqTypes.js'

const ENCODINGS = ['json', 'msgpack'] as const
const LIMIT = 3000

describe('every type and code of the relay AsyncAPI document is sent, in JSON and msgpack', () => {
  let t: TestEngine
  let c: Record<'json' | 'msgpack', Client>
  const both = async (fn: (c: Client) => Promise<void>) => {
    for (const e of ENCODINGS) await fn(c[e])
  }
  /** One quote-submission answer on each client: its ERROR's code. */
  const refusal = async (data: unknown, code: string) =>
    both(async k => {
      k.send('QUOTE_SUBMIT', data)
      assert.equal((await k.nextOf('ERROR', 10_000)).data.code, code)
    })
  const fault = async (body: string) => {
    await t.db.sql.unsafe(
      `create or replace function coverage_fault() returns trigger language plpgsql as $$ begin ${body}; return null; end $$`,
    )
    await t.db.sql.unsafe(
      'create trigger coverage_fault before insert on quotes for each statement execute function coverage_fault()',
    )
  }
  const heal = () => t.db.sql.unsafe('drop trigger if exists coverage_fault on quotes')
  const signed = async (rfq: Rfq, over = {}) => {
    const maker = account(),
      quote = makeQuote(maker, rfq, over)
    return { rfqId: rfq.id, quote, signature: await sign(maker, domainOf(t), quote) }
  }

  before(async () => {
    t = await startTestEngine({
      RATE_LIMIT_PER_MIN: String(LIMIT),
      RELAY_CANCEL_AUTH: 'signature',
      RELAY_PING_INTERVAL_MS: '1500',
    })
    c = {
      json: await Client.open(t.relayWs, { autoPong: true }),
      msgpack: await Client.open(`${t.relayWs}/?encoding=msgpack`, { binary: true, autoPong: true }),
    }
  })
  after(async () => {
    await heal()
    await Promise.all(ENCODINGS.map(e => c[e].close()))
    await t.stop()
  })

  test("broadcasts, SUBSCRIBED, PONG, and the relay's own PING", async () => {
    const rfq = await createRfq(t)
    await both(async k => {
      await k.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.id)
    })
    c.json.send('QUOTE_SUBMIT', await signed(rfq))
    await both(async k => {
      await k.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
    })
    await both(async k => {
      k.send('SUBSCRIBE', { channels: ['rfqs', 'quotes'] })
      await k.nextOf('SUBSCRIBED')
    })
    await both(k => k.sync())
    await both(async k => {
      await k.nextOf('PING', 10_000)
    }) // idle for an interval: the relay pings
  })

  test("every refusal of a quote, in the spec's order", async () => {
    const rfq = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 120 })
    const good = await signed(rfq)
    await refusal({ rfqId: rfq.id }, 'MISSING_FIELDS')
    await refusal({ ...good, rfqId: 'rfq_unknown' }, 'RFQ_NOT_FOUND')
    await refusal({ ...good, quote: { ...good.quote, maker: 'nope' } }, 'INVALID_MAKER')
    await refusal({ ...good, quote: { ...good.quote, tokenIn: rfq.tokenOut } }, 'TOKEN_IN_MISMATCH')
    await refusal({ ...good, quote: { ...good.quote, tokenOut: TOKEN_IN } }, 'TOKEN_OUT_MISMATCH')
    await refusal({ ...good, quote: { ...good.quote, taker: account().address } }, 'TAKER_MISMATCH')
    await refusal({ ...good, quote: { ...good.quote, deadline: 1 } }, 'DEADLINE_PAST')
    await refusal({ ...good, quote: { ...good.quote, amountIn: '0' } }, 'AMOUNT_IN_ZERO')
    await refusal({ ...good, quote: { ...good.quote, amountOut: '0' } }, 'AMOUNT_OUT_ZERO')
    await refusal({ ...good, quote: { ...good.quote, nonce: '01' } }, 'INVALID_QUOTE_FIELD')
    await refusal({ ...good, shareToken: 42 }, 'INVALID_MESSAGE')
    await refusal({ ...good, quote: { ...good.quote, nonce: '77' } }, 'INVALID_SIGNATURE')
    c.json.send('QUOTE_SUBMIT', good)
    await c.json.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
    await refusal(good, 'DUPLICATE_QUOTE')
    const closed = await createRfq(t, {
      visibility: 'private',
      shareToken: 'coverage-token',
      allowedMakers: [account().address.toLowerCase() as never],
    })
    await refusal({ ...(await signed(closed)), shareToken: 'coverage-token' }, 'MAKER_NOT_ALLOWED')
  })

  test('cancels, SUBSCRIBE, frames and types the relay refuses', async () => {
    const taker = account()
    const rfq = await createRfq(t, { taker: taker.address.toLowerCase() as never })
    const answer = async (type: string, data: unknown, code: string) =>
      both(async k => {
        k.send(type, data)
        assert.equal((await k.nextOf('ERROR')).data.code, code)
      })
    await answer('CANCEL_REQUEST', {}, 'MISSING_RFQ_ID')
    await answer('CANCEL_REQUEST', { rfqId: 'rfq_unknown' }, 'RFQ_NOT_FOUND')
    await answer('CANCEL_REQUEST', { rfqId: rfq.id }, 'CANCEL_SIGNATURE_REQUIRED')
    await answer(
      'CANCEL_REQUEST',
      { rfqId: rfq.id, signature: await signCancel(account(), rfq.id) },
      'CANCEL_NOT_TAKER',
    )
    await answer('SUBSCRIBE', { channels: 'rfqs' }, 'INVALID_MESSAGE')
    await answer('HELLO', {}, 'UNKNOWN_MESSAGE_TYPE')
    await both(async k => {
      k.raw('{"type":')
      assert.equal((await k.nextOf('ERROR')).data.code, 'PARSE_ERROR')
    })
    c.json.send('CANCEL_REQUEST', { rfqId: rfq.id, signature: await signCancel(taker, rfq.id) })
    await both(k => k.sync())
    // The cancel is stored by the RFQ service after the socket's turn: PONG may come first on a busy machine.
    const stored = async () => (await t.db.sql`select status from rfqs where id = ${rfq.id}`)[0]!.status as string
    assert.equal(await waitFor(stored, s => s === 'CANCELLED'), 'CANCELLED')
  })

  test('the database refuses the quote: UNAVAILABLE when it cannot serve, INTERNAL for anything else', async () => {
    const rfq = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 120 })
    await fault(`raise exception 'injected outage' using errcode = '57P03'`)
    await refusal(await signed(rfq), 'UNAVAILABLE')
    await heal()
    await fault(`raise exception 'injected fault'`)
    await refusal(await signed(rfq), 'INTERNAL')
    await heal()
  })

  test('a full pipeline: BUSY with a retry hint', { timeout: 60_000 }, async () => {
    const rfq = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 120 })
    const frames = presignQuotes(
      domainOf(t),
      [
        {
          rfqId: rfq.id,
          taker: rfq.taker,
          tokenIn: rfq.tokenIn,
          tokenOut: rfq.tokenOut,
          amountIn: rfq.amountIn!,
          expiry: rfq.expiry,
        },
      ],
      freshMakers(600),
      600,
      Math.floor(Date.now() / 1000) + 120,
    )
    await fault('perform pg_sleep(1)') // every commit holds a second: quotes stay in flight
    const before = { json: c.json.frames.length, msgpack: c.msgpack.frames.length }
    frames.forEach((f, i) => c[ENCODINGS[i % 2]!].raw(f.frame))
    for (const e of ENCODINGS) await c[e].next(f => f.type === 'ERROR' && f.data.code === 'BUSY', 20_000)
    await heal()
    // every quote is answered once the commits drain: a broadcast on each client, or a BUSY to its sender
    const answered = (e: 'json' | 'msgpack') =>
      c[e].frames
        .slice(before[e])
        .filter(f => f.data?.rfqId === rfq.id && (f.type === 'QUOTE_BROADCAST' || f.type === 'ERROR')).length
    await waitFor(
      () => answered('json'),
      n => n >= 300,
      30_000,
    )
  })

  test('over the rate limit: RATE_LIMITED once per window', { timeout: 60_000 }, async () => {
    for (let i = 0; i < LIMIT; i++) c[ENCODINGS[i % 2]!].send('PONG', {})
    await both(async k => {
      k.send('PING', {})
      const limited = await k.next(f => f.type === 'ERROR' && f.data.code === 'RATE_LIMITED', 10_000)
      assert.equal(limited.data.message, `Rate limit exceeded (max ${LIMIT} msg/min)`)
    })
  })

  test('nothing the document lists went unsent, in either encoding', () => {
    for (const e of ENCODINGS) {
      assert.deepEqual(
        [...documented.sent].filter(x => !seen[e].types.has(x)),
        [],
        `${e}: types never sent`,
      )
      assert.deepEqual(
        [...documented.codes].filter(x => !seen[e].codes.has(x)),
        [],
        `${e}: codes never sent`,
      )
    }
  })
})
