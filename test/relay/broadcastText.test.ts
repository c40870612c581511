// Lever 5 of issue 29: a locally accepted quote's QUOTE_BROADCAST is written as text straight from its checked
// fields. It must be exactly the text JSON.stringify makes of the spec's message, for any quote the checks pass
// and any RFQ id or signature (escaped), and it must read back as the same message.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import WebSocket from 'ws'
import { quoteBroadcast, quoteBroadcastJson } from '../../engine/relay/broadcasts.js'
import { quoteBroadcastBytes } from '../../engine/relay/quoteBroadcastBytes.js'
import { uWS, listen, closeListen } from '../../engine/front/uws.js'
import { checkQuote } from '../../actors/quoteChecks.js'
import type { AcceptedQuote, Address, Hex } from '../../actors/rfqTypes.js'
import { checkedQuote } from '../helpers/rfqFixtures.js'

const hexAddress = fc.stringMatching(/^0x[0-9a-fA-F]{40}$/)
const uint = fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }).map(String)

test('the text broadcast is JSON.stringify of the spec message, for any checked quote, RFQ id and signature', () => {
  fc.assert(
    fc.property(
      hexAddress,
      hexAddress,
      hexAddress,
      hexAddress,
      uint,
      uint,
      uint,
      fc.string(),
      fc.string(),
      (maker, taker, tokenIn, tokenOut, amountIn, amountOut, nonce, rfqId, signature) => {
        const now = 1_700_000_000
        const rfq = {
          taker: taker.toLowerCase() as Address,
          tokenIn: tokenIn.toLowerCase() as Address,
          tokenOut: tokenOut.toLowerCase() as Address,
          allowedMakers: [],
        }
        const checked = checkQuote(
          rfq,
          { maker, taker, tokenIn, tokenOut, amountIn, amountOut, nonce, expiry: now + 60, deadline: now + 30 },
          now,
        )
        assert.ok(checked.ok)
        const q: AcceptedQuote = { rfqId, quote: checked.quote, signature: signature as Hex, receivedAtMs: Date.now() }
        const text = quoteBroadcastJson(q)
        assert.equal(text, JSON.stringify(quoteBroadcast(q)))
        assert.deepEqual(JSON.parse(text), quoteBroadcast(q))
      },
    ),
    { numRuns: 300, seed: 29 },
  )
})

const plainId = fc.stringMatching(/^[\w.:-]{1,64}$/)
const hexSignature = fc.stringMatching(/^0x[0-9a-f]{130}$/)

test('the byte broadcast is the UTF-8 of JSON.stringify of the spec message, or null where an id or signature needs escaping', () => {
  let written = 0
  fc.assert(
    fc.property(
      hexAddress,
      uint,
      uint,
      uint,
      fc.oneof(plainId, fc.string()),
      fc.oneof(hexSignature, fc.string()),
      (maker, amountIn, amountOut, nonce, rfqId, signature) => {
        const q = checkedQuote({ maker, amountIn, amountOut, nonce }, rfqId, signature)
        const bytes = quoteBroadcastBytes(q)
        const escapes = JSON.stringify(rfqId) !== `"${rfqId}"` || JSON.stringify(signature) !== `"${signature}"`
        const plain = /^[\w.:-]*$/.test(rfqId) && /^[\w.:-]*$/.test(signature)
        // only what JSON escapes (or another character the byte path leaves to the text path) is left to it
        if (escapes) assert.equal(bytes, null)
        if (!plain) return
        assert.ok(bytes, 'a plain id and signature are written as bytes')
        written++
        assert.equal(Buffer.from(bytes).toString('utf8'), JSON.stringify(quoteBroadcast(q)))
      },
    ),
    { numRuns: 400, seed: 29 },
  )
  assert.ok(written > 100, `the byte path was taken ${written} times`)
})

test('a byte broadcast too long for its buffer is left to the text path, which writes it', () => {
  const id = `rfq_${'a'.repeat(5000)}`
  const q = checkedQuote(
    { maker: `0x${'3'.repeat(40)}`, amountIn: '1', amountOut: '2', nonce: '3' },
    id,
    `0x${'b'.repeat(130)}`,
  )
  assert.equal(quoteBroadcastBytes(q), null)
  assert.equal(quoteBroadcastJson(q), JSON.stringify(quoteBroadcast(q)))
})

test('uWS copies a byte broadcast as it publishes it: the buffer is rewritten by the next quote at once, and each subscriber reads every quote as written', async () => {
  const app = uWS.App().ws('/*', { open: ws => void ws.subscribe('json:quotes') })
  const { port, socket } = await listen(app, '127.0.0.1', 0)
  const client = new WebSocket(`ws://127.0.0.1:${port}`)
  const got: string[] = []
  try {
    await new Promise<void>((resolve, reject) => client.once('open', () => resolve()).once('error', reject))
    // the server's open handler (the subscription) runs before its handshake reply is sent
    const N = 300
    const all = new Promise<void>(resolve =>
      client.on('message', (data: Buffer) => {
        got.push(data.toString('utf8'))
        if (got.length === N) resolve()
      }),
    )
    const sent: string[] = []
    // every quote the same length, so one view of the buffer carries them all, each written over the last
    for (let i = 0; i < N; i++) {
      const q = checkedQuote(
        {
          maker: `0x${(1000 + i).toString(16).padStart(40, '0')}`,
          amountIn: String(100000 + i),
          amountOut: '7',
          nonce: String(i + 10000),
        },
        `rfq_${(5000 + i).toString(16)}`,
        `0x${(7000 + i).toString(16).padStart(130, 'c')}`,
      )
      const bytes = quoteBroadcastBytes(q)!
      assert.ok(bytes)
      app.publish('json:quotes', bytes, false)
      sent.push(JSON.stringify(quoteBroadcast(q)))
    }
    await all
    assert.deepEqual(got, sent)
    assert.equal(new Set(got).size, N)
  } finally {
    client.close()
    closeListen(socket)
  }
})
