// The tape an RFQ's live quotes are kept on: what is read back is exactly what was pushed, field by field, whether a
// quote shares its RFQ's taker and tokens or not, as the tape grows, and in order.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { QuoteTape } from '../../actors/quoteTape.js'
import type { AcceptedQuote, Address } from '../../actors/rfqTypes.js'

const A = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
const terms = { id: '01JQ0000000000000000000000', taker: A(1), tokenIn: A(2), tokenOut: A(3) }
const U256_MAX = (2n ** 256n - 1n).toString()

function quote(
  i: number,
  own: { taker?: Address; tokenIn?: Address; tokenOut?: Address; rfqId?: string } = {},
): AcceptedQuote {
  return {
    rfqId: own.rfqId ?? terms.id,
    signature: `0x${i.toString(16).padStart(130, 'a')}`,
    receivedAtMs: 1_790_000_000_123 + i,
    quote: {
      maker: A(0x1000 + i),
      taker: own.taker ?? terms.taker,
      tokenIn: own.tokenIn ?? terms.tokenIn,
      tokenOut: own.tokenOut ?? terms.tokenOut,
      amountIn: (10n ** 18n + BigInt(i)).toString(),
      amountOut: i % 2 ? U256_MAX : String(i + 1),
      expiry: 1_790_000_600 + i,
      nonce: (2n ** 200n + BigInt(i)).toString(),
      deadline: 1_790_000_060 + i,
    },
  }
}

test('a quote reads back exactly as pushed, its own taker and tokens too', () => {
  const tape = new QuoteTape(terms)
  const mine = quote(1)
  const own = quote(2, { taker: A(0), tokenIn: A(9), tokenOut: A(8), rfqId: 'another' })
  tape.push(mine)
  tape.push(own)
  assert.equal(tape.length, 2)
  assert.deepEqual(tape.at(0), mine)
  assert.deepEqual(tape.at(1), own)
  assert.equal(tape.at(2), undefined)
  assert.equal(tape.at(-1), undefined)
})

test('thousands of quotes survive the buffer growing, in order, and slice from any point', () => {
  const pushed = Array.from({ length: 3000 }, (_, i) => quote(i))
  const tape = new QuoteTape(terms)
  for (const q of pushed) tape.push(q)
  assert.equal(tape.length, 3000)
  assert.deepEqual(tape.slice(0), pushed)
  assert.deepEqual(tape.slice(2990), pushed.slice(2990))
  assert.deepEqual(tape.slice(3000), [])
  assert.deepEqual(tape.slice(), pushed)
})

test('a tape made from stored quotes holds them as pushed one by one', () => {
  const stored = [quote(7), quote(8, { taker: A(0) })]
  const tape = new QuoteTape(terms, stored)
  assert.deepEqual(tape.slice(), stored)
  tape.push(quote(9))
  assert.deepEqual(tape.at(2), quote(9))
})

test('one quote pushed to two tapes reads back right in each, whatever terms each was made with', () => {
  const actorTape = new QuoteTape(terms)
  const indexTape = new QuoteTape({ ...terms })
  const otherTape = new QuoteTape({ ...terms, taker: A(0), tokenIn: A(7) })
  const q = quote(3)
  actorTape.push(q)
  indexTape.push(q) // the live index's push, right after the actor's
  otherTape.push(q)
  for (const t of [actorTape, indexTape, otherTape]) assert.deepEqual(t.at(0), q)
})
