// The relay bench's observer keys each broadcast to its send time by reading its bytes where the relay lays them out:
// the bytes the relay really writes must be read to the same key JSON.parse gives, and any other layout must fall back
// to the parse rather than to a wrong key.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { broadcastKey, keyFromLayout } from '../../bench/lib/broadcastKey.js'
import { quoteBroadcastBytes } from '../../engine/relay/quoteBroadcastBytes.js'
import { quoteBroadcast } from '../../engine/relay/broadcasts.js'
import { checkedQuote } from '../helpers/rfqFixtures.js'

/** a checked quote's accepted form, as the relay broadcasts it */
const accepted = (rfqId: string, maker: string) =>
  checkedQuote({ maker, amountIn: '1000', amountOut: '2000', nonce: '7' }, rfqId, `0x${'ab'.repeat(65)}`)

test("the relay's broadcast bytes are read to the key JSON.parse gives, without parsing", () => {
  for (const [id, maker] of [
    ['rfq_0198a3b2c4d5e6f708192a3b4c5d6e7f', `0x${'Ab'.repeat(20)}`],
    ['r', `0x${'00'.repeat(20)}`],
  ] as const) {
    const bytes = Buffer.from(quoteBroadcastBytes(accepted(id, maker))!)
    const parsed = JSON.parse(bytes.toString()) as { data: { rfqId: string; quote: { maker: string } } }
    const expected = `${parsed.data.rfqId}:${parsed.data.quote.maker}`
    assert.equal(expected, `${id}:${maker.toLowerCase()}`)
    assert.equal(keyFromLayout(bytes), expected) // the fast path holds for what the relay writes
    assert.equal(broadcastKey(bytes), expected)
  }
})

test('a broadcast laid out otherwise is parsed, never misread', () => {
  const q = accepted('rfq_01', `0x${'cd'.repeat(20)}`)
  const message = quoteBroadcast(q) as { type: string; data: Record<string, unknown> }
  // the same message with its data's keys in another order, and with whitespace
  const reordered = Buffer.from(
    JSON.stringify({ type: message.type, data: { quote: message.data.quote, ...message.data } }),
  )
  const spaced = Buffer.from(JSON.stringify(message, null, 1))
  for (const bytes of [reordered, spaced]) {
    assert.equal(keyFromLayout(bytes), undefined)
    assert.equal(broadcastKey(bytes), `rfq_01:0x${'cd'.repeat(20)}`)
  }
})
