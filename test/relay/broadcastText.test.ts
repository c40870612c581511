// Lever 5 of issue 29: a locally accepted quote's QUOTE_BROADCAST is written as text straight from its checked
// fields. It must be exactly the text JSON.stringify makes of the spec's message, for any quote the checks pass
// and any RFQ id or signature (escaped), and it must read back as the same message.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { quoteBroadcast, quoteBroadcastJson } from '../../engine/relay/broadcasts.js'
import { checkQuote } from '../../actors/quoteChecks.js'
import type { AcceptedQuote, Address, Hex } from '../../actors/rfqTypes.js'

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
