// The document's examples, made by the functions the relay sends with (rfqBroadcast, quoteBroadcast, the
// ERROR table) from one sample RFQ and one quote really signed under the served EIP-712 domain by a known
// key (anvil's second account, never a real one). A maker in any language can check its EIP-712 hashing
// against it: the example's signature recovers to the example's maker only if the digest is right.
import { createRequire } from 'node:module'
import { RelayErrors } from '../../../actors/errors.js'
import type { Address, Hex, QuoteJson, Rfq } from '../../../actors/rfqTypes.js'
import { domainSeparator, quoteDigest } from '../../../workers/sig/quoteHash.js'
import { parseQuote } from '../../../workers/sig/parseQuote.js'
import type { Domain } from '../../../workers/sig/types.js'
import { quoteBroadcast, rfqBroadcast } from '../broadcasts.js'
import type { RelayMessage } from '../codec.js'

interface Signer {
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number }
}
const secp256k1: Signer = createRequire(import.meta.url)('secp256k1')

/** anvil's account #1: a published test key. */
export const EXAMPLE_MAKER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
export const EXAMPLE_MAKER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as Address

const RFQ_ID = 'rfq_5f0c2a9e8b7d4c3a2f1e0d9c8b7a6f5e'
const sampleRfq: Rfq = {
  id: RFQ_ID,
  taker: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  tokenIn: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  tokenOut: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  kind: 0,
  amountIn: 10n ** 18n,
  amountOut: null,
  expiry: 1_900_000_030,
  visibility: 'public',
  allowedMakers: [],
  shareToken: null,
  createdAt: new Date(1_900_000_000_000),
  agentId: null,
}
export const EXAMPLE_QUOTE: QuoteJson = {
  maker: EXAMPLE_MAKER,
  taker: sampleRfq.taker,
  tokenIn: sampleRfq.tokenIn,
  tokenOut: sampleRfq.tokenOut,
  amountIn: '1000000000000000000',
  amountOut: '2500000000',
  expiry: sampleRfq.expiry,
  nonce: '1',
  deadline: 1_900_000_060,
}

/** The example quote's signature under `domain`: deterministic (RFC 6979) and low-S, as the relay wants. */
export function exampleSignature(domain: Domain): Hex {
  const parsed = parseQuote(EXAMPLE_QUOTE)
  if (!parsed.ok) throw new Error(`the example quote is malformed: ${parsed.field}`)
  const digest = quoteDigest(domainSeparator(domain), parsed.quote)
  const { signature, recid } = secp256k1.ecdsaSign(digest, Buffer.from(EXAMPLE_MAKER_KEY.slice(2), 'hex'))
  return `0x${Buffer.from(signature).toString('hex')}${(27 + recid).toString(16)}`
}

/** Example frames per message name (messages.ts), as the relay sends or receives them. */
export function exampleFrames(domain: Domain): Record<string, RelayMessage[]> {
  const signature = exampleSignature(domain)
  const err = (e: { code: string; message: string; retryAfterMs?: number }, rfqId?: string) => ({
    type: 'ERROR',
    data: {
      message: e.message,
      ...(rfqId ? { rfqId } : {}),
      code: e.code,
      ...(e.retryAfterMs ? { retryAfterMs: e.retryAfterMs } : {}),
    },
  })
  return {
    QuoteSubmit: [{ type: 'QUOTE_SUBMIT', data: { rfqId: RFQ_ID, quote: EXAMPLE_QUOTE, signature } }],
    CancelRequest: [{ type: 'CANCEL_REQUEST', data: { rfqId: RFQ_ID } }],
    ClientPing: [{ type: 'PING', data: {} }],
    ClientPong: [{ type: 'PONG', data: {} }],
    Subscribe: [
      { type: 'SUBSCRIBE', data: { shareToken: 'kq3V8bXhN0u6kQp1s2T9yZrA4mC7dE5f' } },
      { type: 'SUBSCRIBE', data: { channels: ['rfqs'] } },
    ],
    RfqBroadcast: [
      rfqBroadcast(sampleRfq),
      rfqBroadcast({ ...sampleRfq, kind: 1, amountIn: null, amountOut: 2_500_000_000n }),
    ],
    QuoteBroadcast: [quoteBroadcast({ rfqId: RFQ_ID, quote: EXAMPLE_QUOTE, signature, receivedAtMs: 0 })],
    RelayPing: [{ type: 'PING', data: {} }],
    RelayPong: [{ type: 'PONG', data: {} }],
    Subscribed: [
      { type: 'SUBSCRIBED', data: { channels: ['rfqs', 'quotes'], rfqIds: ['rfq_0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e'] } },
    ],
    Error: [
      err(RelayErrors.duplicateQuote(), RFQ_ID),
      err(RelayErrors.busy(40), RFQ_ID),
      err(RelayErrors.unknownType('HELLO')),
    ],
  }
}
