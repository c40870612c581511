// The hostile-input suite, relay side: every message type (and unknown ones) with hostile data, in JSON
// and in msgpack. Every answer is an ERROR with a code (or the type's normal answer: PONG, SUBSCRIBED),
// the socket stays open and usable, nothing is broadcast that should not be, and the engine is healthy.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { Packr } from 'msgpackr'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, createRfq } from '../relay/helpers.js'
import { nasty } from './arbitraries.js'

const TYPES = ['QUOTE_SUBMIT', 'CANCEL_REQUEST', 'PING', 'PONG', 'SUBSCRIBE', 'RFQ_BROADCAST', 'QUOTE_BROADCAST', 'ERROR', 'quote_submit', '']
const packr = new Packr({ useRecords: false, mapsAsObjects: true, useBigIntExtension: false })

const field = fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 }), fc.double(), fc.integer(), fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n }),
  fc.array(fc.constantFrom('rfqs', 'quotes', 'x'), { maxLength: 3 }), fc.constant(undefined))
const quote = fc.record({ maker: field, taker: field, tokenIn: field, tokenOut: field, amountIn: field, amountOut: field, expiry: field, nonce: field, deadline: field }, { requiredKeys: [] })
const data = fc.oneof(
  fc.record({ rfqId: field, quote: fc.oneof(quote, field), signature: field, shareToken: field, channels: field }, { requiredKeys: [] }),
  field,
)
const message = fc.record({ type: fc.oneof(fc.constantFrom(...TYPES), field), data })

describe('hostile input: every relay message type, JSON and msgpack', () => {
  let t: TestEngine
  let rfqId: string
  before(async () => {
    // cancel needs the taker's signature here, so no hostile frame may end the RFQ: a refusal harms nothing
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000000', RELAY_CANCEL_AUTH: 'signature' })
    rfqId = (await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 300 })).id
  })
  after(() => t.stop())

  for (const encoding of ['json', 'msgpack'] as const) {
    test(`${encoding}: every frame gets its type's answer or an ERROR with a code; the socket stays usable`, { timeout: 120_000 }, async () => {
      const binary = encoding === 'msgpack'
      const c = await Client.open(binary ? `${t.relayWs}/?encoding=msgpack&channels=` : `${t.relayWs}/?channels=`, { binary })
      await fc.assert(fc.asyncProperty(message, fc.boolean(), async (m, aimAtLiveRfq) => {
        const msg = aimAtLiveRfq && typeof m.data === 'object' && m.data !== null && !Array.isArray(m.data) ? { ...m, data: { ...m.data, rfqId } } : m
        const before = c.frames.length
        let frame: string | Buffer
        if (binary) frame = packr.pack(msg)
        else {
          try { frame = JSON.stringify(msg, (_k, v) => typeof v === 'bigint' ? v.toString() : v) ?? 'null' } catch { return }
        }
        c.raw(frame)
        await c.sync()                                     // every answer to the frame has arrived before the PONG
        for (const f of c.frames.slice(before)) {
          if (f.type === 'PONG' || f.type === 'SUBSCRIBED') continue
          assert.equal(f.type, 'ERROR', JSON.stringify(f).slice(0, 300))
          assert.equal(typeof f.data.code, 'string')
          assert.equal(typeof f.data.message, 'string')
          assert.ok(f.data.message.length < 300)
          assert.notEqual(f.data.code, 'INTERNAL', f.data.message)   // a bug, not a refusal
        }
      }), { numRuns: 150 })
      assert.equal(c.closeCode, null, 'the socket is still open')
      await c.close()
    })
  }

  test('afterwards the engine is healthy and the RFQ still live', async () => {
    assert.equal((await fetch(`${t.relay}/health`)).status, 200)
    const list = await (await fetch(`${t.relay}/rfqs`)).json() as { rfqs: { id: string }[] }
    assert.ok(list.rfqs.some(r => r.id === rfqId))
  })
})
