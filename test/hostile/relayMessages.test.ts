// The hostile-input suite, relay side: every message type (and unknown ones) with hostile data, in JSON
// and in msgpack. Every answer is an ERROR with a code (or the type's normal answer: PONG, SUBSCRIBED),
// the socket stays open and usable, nothing is broadcast that should not be, and the engine is healthy.
// And the contract holds for each: a frame the relay refuses breaks its message's schema (GET /asyncapi.json)
// or one of the rules that message documents (x-rules); a frame it takes passes its schema.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { Packr } from 'msgpackr'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, createRfq, waitFor, TOKEN_IN, TOKEN_OUT, ZERO } from '../relay/helpers.js'
import type { Rfq } from '../../actors/rfqTypes.js'
import { nasty } from './arbitraries.js'
import { decode } from '../../engine/relay/codec.js'
import { inbound } from '../contract/conformance.js'

const TYPES = [
  'QUOTE_SUBMIT',
  'CANCEL_REQUEST',
  'PING',
  'PONG',
  'SUBSCRIBE',
  'RFQ_BROADCAST',
  'QUOTE_BROADCAST',
  'ERROR',
  'quote_submit',
  '',
]
const packr = new Packr({ useRecords: false, mapsAsObjects: true, useBigIntExtension: false })

const field = fc.oneof(
  nasty,
  fc.jsonValue({ maxDepth: 2 }),
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n }),
  fc.array(fc.constantFrom('rfqs', 'quotes', 'x'), { maxLength: 3 }),
  fc.constant(undefined),
)
const quote = fc.record(
  {
    maker: field,
    taker: field,
    tokenIn: field,
    tokenOut: field,
    amountIn: field,
    amountOut: field,
    expiry: field,
    nonce: field,
    deadline: field,
  },
  { requiredKeys: [] },
)
const data = fc.oneof(
  fc.record(
    { rfqId: field, quote: fc.oneof(quote, field), signature: field, shareToken: field, channels: field },
    { requiredKeys: [] },
  ),
  field,
)
const message = fc.record({ type: fc.oneof(fc.constantFrom(...TYPES), field), data })

/** Near misses: a QUOTE_SUBMIT for the live RFQ that its schema accepts but for one field, or that only the
 *  rules refuse (a past deadline, another pair or taker, a bound, a signer that is not the maker). */
const hexOf = (n: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'.split('')), minLength: n, maxLength: n })
function nearMiss(rfq: Rfq) {
  const now = Math.floor(Date.now() / 1000)
  const edge = fc.constantFrom<unknown>(
    '0',
    '1',
    '01',
    (1n << 256n).toString(),
    ((1n << 256n) - 1n).toString(),
    1,
    now - 5,
    now + 600,
    Number.MAX_SAFE_INTEGER,
    '9007199254740993',
    2 ** 53,
    -1,
    1.5,
    '',
    ZERO,
    TOKEN_IN,
    TOKEN_OUT,
    TOKEN_IN.toUpperCase().replace('0X', '0x'),
  )
  return fc
    .record({
      maker: hexOf(40).map(h => `0x${h}`),
      field: fc.constantFrom(
        'maker',
        'taker',
        'tokenIn',
        'tokenOut',
        'amountIn',
        'amountOut',
        'expiry',
        'nonce',
        'deadline',
        'signature',
        'shareToken',
      ),
      value: fc.oneof(edge, field),
      signature: hexOf(130).map(h => `0x${h}`),
    })
    .map(({ maker, field: f, value, signature }) => {
      const quote: Record<string, unknown> = {
        maker,
        taker: ZERO,
        tokenIn: rfq.tokenIn,
        tokenOut: rfq.tokenOut,
        amountIn: '5',
        amountOut: '7',
        expiry: rfq.expiry,
        nonce: '1',
        deadline: now + 600,
      }
      const data: Record<string, unknown> = { rfqId: rfq.id, quote, signature }
      if (f === 'signature' || f === 'shareToken') data[f] = value
      else quote[f] = value
      return { type: 'QUOTE_SUBMIT', data }
    })
}

/**
 * Sends one frame and holds the suite's promises for it: exactly one answer (none to a PONG), each an ERROR with a code
 * (never INTERNAL) or the type's own answer, and the contract agrees: a refused frame breaks its schema or a rule its
 * message documents, a taken one passes its schema; text that is no JSON at all is a PARSE_ERROR.
 */
async function judge(c: Client, frame: string | Buffer, type: unknown, encoding: 'json' | 'msgpack'): Promise<void> {
  const binary = encoding === 'msgpack'
  const before = c.frames.length
  c.raw(frame)
  // every frame but a PONG gets exactly one answer (an ERROR, PONG or SUBSCRIBED), and a refusal may come
  // from the RFQ's actor after a later PING's PONG: wait for it, then sync with a PONG of our own
  if (type !== 'PONG')
    await waitFor(
      () => c.frames.length - before,
      n => n >= 1,
      10_000,
    )
  const answered = c.frames.length
  c.send('PING', {})
  await c.next(f => f.type === 'PONG' && c.frames.indexOf(f) >= answered)
  const answers = c.frames.slice(before, answered)
  assert.equal(answers.length, type === 'PONG' ? 0 : 1, JSON.stringify(answers).slice(0, 300))
  // the frame as the relay reads it (msgpack's 64-bit integers become strings), judged by the document
  let asRead: ReturnType<typeof inbound> | undefined
  try {
    asRead = inbound(decode(encoding, new Uint8Array(Buffer.from(frame)).buffer, binary))
  } catch {
    asRead = undefined // not JSON
  }
  const refusal = answers.find(f => f.type === 'ERROR')
  if (!asRead) assert.equal(refusal?.data.code, 'PARSE_ERROR', String(frame).slice(0, 300))
  else if (refusal) {
    assert.ok(
      !asRead.valid || asRead.rules.some(r => r.by === 'rule' && r.code === refusal.data.code),
      `refused although its schema accepts it and no documented rule names ${refusal.data.code}: ${String(frame).slice(0, 300)}`,
    )
  } else assert.ok(asRead.valid, `taken although its schema refuses it: ${String(frame).slice(0, 300)}`)
  for (const f of answers) {
    if (f.type === 'PONG' || f.type === 'SUBSCRIBED') continue
    assert.equal(f.type, 'ERROR', JSON.stringify(f).slice(0, 300))
    assert.equal(typeof f.data.code, 'string')
    assert.equal(typeof f.data.message, 'string')
    assert.ok(f.data.message.length < 300)
    assert.notEqual(f.data.code, 'INTERNAL', f.data.message) // a bug, not a refusal
  }
}

/** A QUOTE_SUBMIT for `rfq` as makers write it (read in one pass by the relay, engine/relay/quoteFrame.ts), then one
 *  byte of its text deleted, doubled or replaced: the edges of that reader, end to end. */
function oneByteOff(rfq: Rfq) {
  const now = Math.floor(Date.now() / 1000)
  return fc
    .record({
      maker: hexOf(40).map(h => `0x${h}`),
      signature: hexOf(130).map(h => `0x${h}`),
      at: fc.nat(),
      change: fc.constantFrom('', 'double', ' ', '"', '\\', '0', 'a', 'G', '.', 'e', ',', '}', 'é', '\u0000', '\u007f'),
    })
    .map(({ maker, signature, at, change }) => {
      const quote = { maker, taker: ZERO, tokenIn: rfq.tokenIn, tokenOut: rfq.tokenOut, amountIn: '5', amountOut: '7' }
      const text = JSON.stringify({
        type: 'QUOTE_SUBMIT',
        data: { rfqId: rfq.id, quote: { ...quote, expiry: rfq.expiry, nonce: '1', deadline: now + 600 }, signature },
      })
      const i = at % text.length
      const put = change === 'double' ? text[i]! + text[i]! : change
      return text.slice(0, i) + put + text.slice(i + 1)
    })
}

describe('hostile input: every relay message type, JSON and msgpack', () => {
  let t: TestEngine
  let rfqId: string
  let live: Rfq
  before(async () => {
    // cancel needs the taker's signature here, so no hostile frame may end the RFQ: a refusal harms nothing
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000000', RELAY_CANCEL_AUTH: 'signature' })
    live = await createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 300 })
    rfqId = live.id
  })
  after(() => t.stop())

  for (const encoding of ['json', 'msgpack'] as const) {
    test(
      `${encoding}: every frame gets its type's answer or an ERROR with a code; the socket stays usable`,
      { timeout: 120_000 },
      async () => {
        const binary = encoding === 'msgpack'
        const c = await Client.open(binary ? `${t.relayWs}/?encoding=msgpack&channels=` : `${t.relayWs}/?channels=`, {
          binary,
        })
        await fc.assert(
          fc.asyncProperty(fc.oneof(message, nearMiss(live)), fc.boolean(), async (m, aimAtLiveRfq) => {
            const msg =
              aimAtLiveRfq && typeof m.data === 'object' && m.data !== null && !Array.isArray(m.data)
                ? { ...m, data: { ...m.data, rfqId } }
                : m
            let frame: string | Buffer
            if (binary) frame = packr.pack(msg)
            else {
              try {
                frame = JSON.stringify(msg, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null'
              } catch {
                return
              }
            }
            await judge(c, frame, msg.type, encoding)
          }),
          { numRuns: 250 },
        )
        assert.equal(c.closeCode, null, 'the socket is still open')
        await c.close()
      },
    )
  }

  test('json: every one-byte change of a quote frame as makers write it gets one answer, an ERROR with a code', async () => {
    const c = await Client.open(`${t.relayWs}/?channels=`)
    await fc.assert(
      fc.asyncProperty(oneByteOff(live), async text => judge(c, text, 'QUOTE_SUBMIT', 'json')),
      { numRuns: 200 },
    )
    assert.equal(c.closeCode, null, 'the socket is still open')
    await c.close()
  })

  test('afterwards the engine is healthy and the RFQ still live', async () => {
    assert.equal((await fetch(`${t.relay}/health`)).status, 200)
    const list = (await (await fetch(`${t.relay}/rfqs`)).json()) as { rfqs: { id: string }[] }
    assert.ok(list.rfqs.some(r => r.id === rfqId))
  })
})
