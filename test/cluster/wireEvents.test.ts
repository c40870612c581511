// What travels between nodes: every event survives the trip exactly (amounts past 2^64 included), a private
// RFQ's share token never travels (its hash does), expiry does not travel (each node's own timer fires it),
// and an event that is not one is refused rather than half-applied. (The signed envelope around a batch:
// envelope.test.ts.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { toWire, fromWire, UnknownRfq, type WireEvent } from '../../engine/cluster/wireEvents.js'
import { Packr } from 'msgpackr'
import type { RfqEvent } from '../../actors/rfqTypes.js'
import { makeRfq } from '../relay/helpers.js'

// a batch as the envelope carries it: msgpack of the events array
const packr = new Packr({ useRecords: false })
const packBatch = (events: WireEvent[]) => packr.pack(events)
const unpackBatch = (bytes: Uint8Array) => packr.unpack(bytes) as WireEvent[]

test('events round-trip exactly through a batch; the share token stays home; expiry is not sent', () => {
  const rfq = makeRfq({
    visibility: 'private',
    shareToken: 'secret-token',
    amountIn: 2n ** 200n + 7n,
    allowedMakers: ['0x00000000000000000000000000000000000000aa'],
  })
  const quote = {
    rfqId: rfq.id,
    signature: '0xabc' as const,
    receivedAtMs: 1_700_000_000_123,
    quote: {
      maker: '0x00000000000000000000000000000000000000aa' as const,
      taker: rfq.taker,
      tokenIn: rfq.tokenIn,
      tokenOut: rfq.tokenOut,
      amountIn: (2n ** 200n + 7n).toString(),
      amountOut: '1',
      expiry: rfq.expiry,
      nonce: '18446744073709551617',
      deadline: rfq.expiry,
    },
  }
  const events: RfqEvent[] = [
    { type: 'rfq.created', rfq, shareTokenHash: 'hash-of-token' },
    { type: 'rfq.quoted', rfqId: rfq.id, quote },
    { type: 'rfq.cancelled', rfqId: rfq.id, cancelledAt: new Date(1_700_000_001_000) },
    { type: 'rfq.filled', rfqId: rfq.id, txHash: '0x' + 'ab'.repeat(32) },
    {
      type: 'fill.recorded',
      visibility: 'private',
      fill: { id: 'f1', txHash: '0x01', rfqId: rfq.id, improvementBps: 12.5, takerPoints: 3, makerPoints: 4 },
    },
  ]
  assert.equal(toWire({ type: 'rfq.expired', rfqId: rfq.id, endedAt: new Date(), endedBy: 'expiry' }), null)
  const bytes = packBatch(events.map(e => toWire(e)!))
  assert.ok(!Buffer.from(bytes).includes('secret-token'), 'the token itself never leaves the node')
  const back = unpackBatch(bytes).map(w => fromWire(w))
  assert.deepEqual(
    back,
    events.map(e =>
      e.type === 'rfq.created' ? { ...e, rfq: { ...e.rfq, shareToken: null }, remote: true } : { ...e, remote: true },
    ),
  )
  assert.equal((back[0] as Extract<RfqEvent, { type: 'rfq.created' }>).rfq.amountIn, 2n ** 200n + 7n)
})

test('an event of an unknown kind, or that is no event, is refused', () => {
  assert.throws(() => fromWire({ t: 'nonsense' } as never), /unknown cluster event/)
  for (const w of [null, 7, 'created', { t: 'created', rfq: null }, { t: 'created', rfq: { id: 'x' } }])
    assert.throws(() => fromWire(w as never), JSON.stringify(w))
})

test("a quote travels without the terms it shares with its RFQ, and takes them back from the receiver's RFQ", () => {
  const rfq = makeRfq({ amountIn: 5n * 10n ** 18n })
  const terms = {
    id: rfq.id,
    taker: rfq.taker,
    tokenIn: rfq.tokenIn,
    tokenOut: rfq.tokenOut,
    amountIn: rfq.amountIn!.toString(),
    amountOut: null,
  }
  const mk = (taker: string) => ({
    rfqId: rfq.id,
    signature: ('0x' + '1b'.repeat(65)) as `0x${string}`,
    receivedAtMs: 1_700_000_000_456,
    quote: {
      maker: '0x00000000000000000000000000000000000000bb' as const,
      taker: taker as `0x${string}`,
      tokenIn: rfq.tokenIn,
      tokenOut: rfq.tokenOut,
      amountIn: terms.amountIn,
      amountOut: '123456789',
      expiry: rfq.expiry,
      nonce: '7',
      deadline: rfq.expiry,
    },
  })
  const own = mk(rfq.taker),
    anyone = mk('0x0000000000000000000000000000000000000000')
  const full = packBatch([toWire({ type: 'rfq.quoted', rfqId: rfq.id, quote: own })!])
  const compact = packBatch([
    toWire({ type: 'rfq.quoted', rfqId: rfq.id, quote: own }, terms)!,
    toWire({ type: 'rfq.quoted', rfqId: rfq.id, quote: anyone }, terms)!,
  ])
  assert.ok(
    !Buffer.from(compact).includes(rfq.tokenIn.slice(2)) && Buffer.from(full).includes(rfq.tokenIn.slice(2)),
    "the RFQ's tokens stay home",
  )
  const [a, b] = unpackBatch(compact).map(w => fromWire(w, id => (id === rfq.id ? terms : undefined))) as Extract<
    RfqEvent,
    { type: 'rfq.quoted' }
  >[]
  assert.deepEqual(a, { type: 'rfq.quoted', rfqId: rfq.id, quote: own, remote: true })
  assert.deepEqual(b!.quote, anyone)
  assert.ok(a.quote.quote.tokenIn === terms.tokenIn && a.rfqId === terms.id, "the receiver's strings, one per RFQ")
  // a receiver that does not hold the RFQ cannot fill the terms in: it is told which RFQ to read from the store
  assert.throws(
    () => fromWire(unpackBatch(compact)[0]!),
    (e: unknown) => e instanceof UnknownRfq && e.rfqId === rfq.id,
  )
  // terms that differ from the receiver's RFQ travel whole and win
  const other = { ...own, quote: { ...own.quote, amountIn: '999' } }
  assert.equal(
    (
      fromWire(toWire({ type: 'rfq.quoted', rfqId: rfq.id, quote: other }, terms)!, () => terms) as Extract<
        RfqEvent,
        { type: 'rfq.quoted' }
      >
    ).quote.quote.amountIn,
    '999',
  )
})

test("a time no reader can print (past Date's range, not a number) or an id that is not one is refused, not applied", () => {
  const rfq = makeRfq({})
  const created = toWire({ type: 'rfq.created', rfq, shareTokenHash: null }) as Extract<
    ReturnType<typeof toWire>,
    { t: 'created' }
  >
  for (const createdAt of [1e16, -1e16, Number.NaN, '2026-01-01', null]) {
    assert.throws(
      () => fromWire({ ...created, rfq: { ...created.rfq, createdAt } } as never),
      /not a time/,
      String(createdAt),
    )
  }
  assert.throws(() => fromWire({ ...created, rfq: { ...created.rfq, expiry: 1.5 } }), /not an RFQ/)
  const tuple = [
    rfq.id,
    '0x00000000000000000000000000000000000000aa',
    0,
    rfq.tokenIn,
    rfq.tokenOut,
    '1',
    '2',
    rfq.expiry,
    '1',
    rfq.expiry,
    '0xab',
  ]
  assert.equal(
    (fromWire([...tuple, 1_700_000_000_000] as never) as Extract<RfqEvent, { type: 'rfq.quoted' }>).quote.receivedAtMs,
    1_700_000_000_000,
  )
  assert.throws(() => fromWire([...tuple, 1e17] as never), /not a time/)
  assert.throws(() => fromWire({ t: 'cancelled', id: rfq.id, at: 8.7e15 } as never), /not a time/)
  assert.throws(() => fromWire({ t: 'cancelled', id: 7, at: 1 } as never), /not an RFQ id/)
  assert.throws(() => fromWire({ t: 'filled', id: '', tx: '0x' } as never), /not an RFQ id/)
})
