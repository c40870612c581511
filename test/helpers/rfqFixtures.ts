// The RFQ and quote the actor suites (test/actors) work on: a public RFQ between two fixed tokens, live for 30 s, and
// a quote of it that every rule passes, from the maker given. One place, so the suites agree on what a valid one is
// (the relay suites' makeRfq, test/relay/helpers.ts, is this with a random id and taker).
import assert from 'node:assert/strict'
import { checkQuote } from '../../actors/quoteChecks.js'
import type { AcceptedQuote, Address, Hex, QuoteJson, Rfq } from '../../actors/rfqTypes.js'

export const T_IN = '0x1111111111111111111111111111111111111111' as Address
export const T_OUT = '0x2222222222222222222222222222222222222222' as Address

export function testRfq(id: string, taker: Address, over: Partial<Rfq> = {}): Rfq {
  const now = Date.now()
  return {
    id,
    taker,
    tokenIn: T_IN,
    tokenOut: T_OUT,
    kind: 0,
    amountIn: 1n,
    amountOut: null,
    expiry: Math.floor(now / 1000) + 30,
    visibility: 'public',
    allowedMakers: [],
    shareToken: null,
    createdAt: new Date(now),
    agentId: null,
    ...over,
  }
}

export function testQuote(maker: Address, taker: Address, nonce = 0): QuoteJson {
  return {
    maker,
    taker,
    tokenIn: T_IN,
    tokenOut: T_OUT,
    amountIn: '1',
    amountOut: '2',
    expiry: 2_000_000_000,
    nonce: String(nonce),
    deadline: Math.floor(Date.now() / 1000) + 60,
  }
}

/** a quote of an RFQ between T_IN and T_OUT as the checks hand it over, with the RFQ id and signature given */
export function checkedQuote(
  parts: { maker: string; amountIn: string; amountOut: string; nonce: string },
  rfqId: string,
  signature: string,
): AcceptedQuote {
  const now = 1_700_000_000
  const rfq: { taker: Address; tokenIn: Address; tokenOut: Address; allowedMakers: Address[] } = {
    taker: `0x${'0'.repeat(40)}`,
    tokenIn: T_IN,
    tokenOut: T_OUT,
    allowedMakers: [],
  }
  const checked = checkQuote(rfq, { ...rfq, ...parts, expiry: now + 60, deadline: String(now + 30) }, now)
  assert.ok(checked.ok)
  return { rfqId, quote: checked.quote, signature: signature as Hex, receivedAtMs: Date.now() }
}
