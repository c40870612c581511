// The QUOTE_SUBMIT schema and the relay's hand-written quote grammar agree on every input: a quote the schema
// accepts gets the same verdict (same text, same normalised quote) whether the actor skips the grammar
// checks or runs them, and a quote the schema refuses is refused by the ordered rules too. That is what lets
// the actor trust the codec's verdict (actors/quoteChecks.ts `wellFormed`).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { checkQuote } from '../../actors/quoteChecks.js'
import { checkInbound } from '../../engine/relay/contract/validate.js'
import { nasty } from '../hostile/arbitraries.js'

const NOW = 1_900_000_000
const rfq = {
  taker: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc',
  tokenIn: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  tokenOut: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  allowedMakers: [],
} as const
const hex = (n: number) =>
  fc
    .string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'.split('')), minLength: n, maxLength: n })
    .map(h => `0x${h}`)
const uints = fc.oneof(
  fc.bigInt({ min: 0n, max: 1n << 257n }).map(String),
  fc.constantFrom('0', '00', '01', '-1', '1e3', ' 1', '1.0', ''),
)
const seconds = fc.oneof(
  fc.integer({ min: -5, max: 2 ** 54 }),
  fc.double(),
  fc.bigInt({ min: 0n, max: 1n << 60n }).map(String),
  fc.constant(NOW),
)
const value = fc.oneof(nasty, fc.jsonValue({ maxDepth: 1 }), uints, seconds, hex(40))
const good = {
  maker: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  taker: rfq.taker.toUpperCase().replace('0X', '0x'),
  tokenIn: rfq.tokenIn,
  tokenOut: rfq.tokenOut,
  amountIn: '1000',
  amountOut: '2500',
  expiry: NOW + 30,
  nonce: '0',
  deadline: NOW + 60,
}
const quote = fc.record(
  {
    maker: fc.oneof(hex(40), value),
    taker: fc.oneof(fc.constantFrom(rfq.taker, '0x0000000000000000000000000000000000000000'), hex(40), value),
    tokenIn: fc.oneof(fc.constant(rfq.tokenIn), hex(40), value),
    tokenOut: fc.oneof(fc.constant(rfq.tokenOut), hex(40), value),
    amountIn: fc.oneof(uints, value),
    amountOut: fc.oneof(uints, value),
    expiry: seconds,
    nonce: fc.oneof(uints, value),
    deadline: seconds,
  },
  { requiredKeys: [] },
)
// mostly good quotes with a few fields replaced, so both verdicts are common
const raw = fc
  .tuple(quote, fc.array(fc.constantFrom(...Object.keys(good)), { maxLength: 3 }))
  .map(([q, keep]) => ({ ...good, ...Object.fromEntries(Object.entries(q).filter(([k]) => keep.includes(k))) }))
const signature = '0x' + 'ab'.repeat(32) + '1c'.repeat(32) + '1b'

test('a quote the schema accepts gets the same verdict with or without the grammar checks; one it refuses is refused', () => {
  let accepted = 0,
    refused = 0
  fc.assert(
    fc.property(fc.oneof(raw, quote), q => {
      const v = checkInbound({ type: 'QUOTE_SUBMIT', data: { rfqId: 'rfq_x', quote: q, signature } })
      assert.ok(v.ok && v.type === 'QUOTE_SUBMIT')
      const full = checkQuote(rfq, q, NOW)
      if (v.wellFormed) {
        accepted++
        assert.deepEqual(checkQuote(rfq as never, q as Record<string, unknown>, NOW, true), full)
      } else {
        refused++
        assert.equal(full.ok, false, `the schema refuses ${JSON.stringify(q)} but the rules take it`)
      }
    }),
    { numRuns: 3000 },
  )
  assert.ok(accepted > 300 && refused > 300, `both sides exercised: ${accepted} accepted, ${refused} refused`)
})

test("the schema-checked path still applies the rules JSON Schema cannot say (bounds, the clock, the RFQ's terms)", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...good, amountOut: (1n << 256n).toString() }, 'Quote rejected: amountOut exceeds uint256'],
    [
      { ...good, deadline: '9007199254740993' },
      'Quote rejected: deadline must be unix seconds (a non-negative integer)',
    ],
    [{ ...good, deadline: NOW }, 'Quote rejected: Deadline is in the past'],
    [{ ...good, tokenIn: rfq.tokenOut }, 'Quote rejected: tokenIn does not match RFQ'],
    [{ ...good, taker: good.maker }, "Quote rejected: taker must be the RFQ's taker or the zero address"],
  ]
  for (const [q, text] of cases) {
    assert.equal(checkInbound({ type: 'QUOTE_SUBMIT', data: { rfqId: 'r', quote: q, signature } }).ok && true, true)
    const v = checkQuote(rfq, q, NOW, true)
    assert.equal(!v.ok && v.message, text)
  }
})
