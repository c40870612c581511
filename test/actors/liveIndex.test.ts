// The live read model: sequences, `since`, the ETag's source, long-poll wake-ups and retention.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { EventBus } from '../../actors/events.js'
import { LiveIndex, quotesSince } from '../../actors/liveIndex.js'
import type { AcceptedQuote, Address, Rfq, RfqEvent } from '../../actors/rfqTypes.js'

const A = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
const rfq = (id: string, createdMs: number, expirySec = 4_000_000_000): Rfq => ({
  id,
  taker: A(1),
  tokenIn: A(2),
  tokenOut: A(3),
  kind: 0,
  amountIn: 1n,
  amountOut: null,
  expiry: expirySec,
  visibility: 'public',
  allowedMakers: [],
  shareToken: null,
  createdAt: new Date(createdMs),
  agentId: null,
})
const quote = (rfqId: string, maker: number): AcceptedQuote => ({
  rfqId,
  signature: '0x',
  receivedAtMs: Date.now(),
  quote: {
    maker: A(maker),
    taker: A(0),
    tokenIn: A(2),
    tokenOut: A(3),
    amountIn: '1',
    amountOut: '2',
    expiry: 1,
    nonce: '1',
    deadline: 2,
  },
})

function setup(now = { t: 1_000_000 }) {
  const bus = new EventBus<RfqEvent>()
  return { bus, now, index: new LiveIndex(bus, { retainMs: 1000, now: () => now.t }) }
}

test('every change takes the next sequence; since returns only what came after', () => {
  const { bus, index } = setup()
  bus.publish({ type: 'rfq.created', rfq: rfq('a', 1), shareTokenHash: null })
  const afterA = index.seq
  bus.publish({ type: 'rfq.created', rfq: rfq('b', 2), shareTokenHash: null })
  bus.publish({ type: 'rfq.quoted', rfqId: 'a', quote: quote('a', 7) })
  assert.equal(index.seq, 3)
  assert.deepEqual(
    index.live().map(r => r.rfq.id),
    ['b', 'a'],
  ) // newest first
  assert.deepEqual(
    index.live(afterA).map(r => r.rfq.id),
    ['b'],
  )
  const a = index.get('a')!
  assert.equal(a.status, 'QUOTED')
  assert.equal(a.quoteCount, 1)
  assert.deepEqual(
    quotesSince(a, afterA).map(q => q.quote.maker),
    [A(7)],
  )
})

test('a closed RFQ leaves the live list at once, stays readable with its end state, and is forgotten after retention', () => {
  const { bus, index, now } = setup()
  bus.publish({ type: 'rfq.created', rfq: rfq('a', 1), shareTokenHash: null })
  const before = index.seq
  bus.publish({ type: 'rfq.cancelled', rfqId: 'a', cancelledAt: new Date() })
  assert.ok(index.seq > before, 'a close is a change (a new ETag)')
  assert.deepEqual(index.live(), [])
  assert.equal(index.get('a')!.status, 'CANCELLED')
  now.t += 1001
  assert.equal(index.get('a'), undefined)
})

test('an RFQ past its expiry is not listed even before its actor says so', () => {
  const { bus, index, now } = setup({ t: 10_000_000 })
  bus.publish({ type: 'rfq.created', rfq: rfq('old', 1, 10_001), shareTokenHash: null })
  assert.equal(index.live().length, 1)
  now.t = 10_002_000
  assert.equal(index.live().length, 0)
})

test('changed() wakes every waiter at the next change, times out with false, and can be cancelled', async () => {
  const { bus, index } = setup()
  const w1 = index.changed(5000),
    w2 = index.changed(5000)
  assert.equal(index.waiting, 2)
  bus.publish({ type: 'rfq.created', rfq: rfq('a', 1), shareTokenHash: null })
  assert.deepEqual(await Promise.all([w1.done, w2.done]), [true, true])
  assert.equal(index.waiting, 0)
  assert.equal(await index.changed(20).done, false)
  const w3 = index.changed(5000)
  w3.cancel()
  assert.equal(await w3.done, false)
  assert.equal(index.waiting, 0)
})

test('events for an RFQ it never saw are ignored (no change, no sequence)', () => {
  const { bus, index } = setup()
  bus.publish({ type: 'rfq.quoted', rfqId: 'ghost', quote: quote('ghost', 1) })
  bus.publish({ type: 'rfq.filled', rfqId: 'ghost', txHash: '0x' })
  assert.equal(index.seq, 0)
})

const priv = (id: string, createdMs: number): Rfq => ({
  ...rfq(id, createdMs),
  visibility: 'private',
  agentId: 'agent_x',
})
const holder = (hash: string) => ({ shareTokenHashes: [hash], agentId: null })
const ANON = { shareTokenHashes: [], agentId: null }

test("positions: the public one never moves on a private change; a token holder's also moves on its RFQ, and only then", () => {
  const { bus, index } = setup()
  bus.publish({ type: 'rfq.created', rfq: rfq('pub', 1), shareTokenHash: null })
  const p0 = index.positionFor(ANON)
  bus.publish({ type: 'rfq.created', rfq: priv('x', 2), shareTokenHash: 'hx' })
  bus.publish({ type: 'rfq.quoted', rfqId: 'x', quote: quote('x', 7) })
  bus.publish({ type: 'rfq.cancelled', rfqId: 'x', cancelledAt: new Date() })
  bus.publish({ type: 'rfq.created', rfq: priv('y', 3), shareTokenHash: 'hy' })
  assert.equal(index.positionFor(ANON), p0, 'four private changes: the public position stands')
  assert.equal(index.publicSeq, p0)
  assert.equal(index.positionFor(holder('hx')), index.get('x')!.lastSeq, "x's holder is at x's last change")
  assert.ok(index.positionFor(holder('hx')) < index.seq, "and not at y's, which it may not see")
  assert.equal(index.positionFor(holder('nothing')), p0, 'a token that opens nothing is an outsider')
  bus.publish({ type: 'rfq.quoted', rfqId: 'pub', quote: quote('pub', 8) })
  assert.equal(index.positionFor(ANON), index.seq, 'a public change moves everyone')
  assert.equal(index.positionFor(holder('hx')), index.seq)
})

test('changed(): a private change wakes only the polls that may see it; a poll on one RFQ wakes only for that RFQ', async () => {
  const { bus, index } = setup()
  bus.publish({ type: 'rfq.created', rfq: rfq('pub', 1), shareTokenHash: null })
  bus.publish({ type: 'rfq.created', rfq: priv('x', 2), shareTokenHash: 'hx' })
  const woke: string[] = []
  const watch = (name: string, w: { done: Promise<boolean> }) =>
    void w.done.then(v => {
      if (v) woke.push(name)
    })
  const polls = {
    anon: index.changed(5000),
    wrong: index.changed(5000, { viewer: holder('nothing') }),
    token: index.changed(5000, { viewer: holder('hx') }),
    taker: index.changed(5000, { viewer: { shareTokenHashes: [], agentId: 'agent_x' } }),
    onX: index.changed(5000, { rfqId: 'x' }),
    onPub: index.changed(5000, { rfqId: 'pub' }),
  }
  for (const [name, w] of Object.entries(polls)) watch(name, w)
  assert.equal(index.waiting, 6)
  const before = index.wakeups
  bus.publish({ type: 'rfq.quoted', rfqId: 'x', quote: quote('x', 7) })
  await new Promise(r => setImmediate(r))
  assert.deepEqual(woke.sort(), ['onX', 'taker', 'token'])
  assert.equal(index.wakeups - before, 3, 'three woken, not six')
  assert.equal(index.waiting, 3)
  bus.publish({ type: 'rfq.quoted', rfqId: 'pub', quote: quote('pub', 7) })
  await new Promise(r => setImmediate(r))
  assert.deepEqual(woke.sort(), ['anon', 'onPub', 'onX', 'taker', 'token', 'wrong'])
  assert.equal(index.waiting, 0)
})

test('10,000 held polls of outsiders cost a private change nothing: none is woken', async () => {
  const { bus, index } = setup()
  bus.publish({ type: 'rfq.created', rfq: priv('x', 2), shareTokenHash: 'hx' })
  const held = Array.from({ length: 10_000 }, () => index.changed(5000))
  const before = index.wakeups
  for (let i = 0; i < 300; i++) bus.publish({ type: 'rfq.quoted', rfqId: 'x', quote: quote('x', i) })
  assert.equal(index.wakeups, before)
  assert.equal(index.waiting, 10_000)
  for (const h of held) h.cancel()
  assert.equal(index.waiting, 0)
})

test("a restored RFQ's quotes come before every cursor; quotes added later are read after theirs", () => {
  const { bus, index } = setup()
  index.restore([{ rfq: rfq('r', 1), shareTokenHash: null, quotes: [quote('r', 1), quote('r', 2)] }])
  const start = index.seq
  bus.publish({ type: 'rfq.quoted', rfqId: 'r', quote: quote('r', 3) })
  const mid = index.seq
  bus.publish({ type: 'rfq.quoted', rfqId: 'r', quote: quote('r', 4) })
  const r = index.get('r')!
  const makers = (since: number) => quotesSince(r, since).map(q => q.quote.maker)
  assert.deepEqual(makers(-1), [A(1), A(2), A(3), A(4)], 'from before the start: all, in order')
  assert.deepEqual(makers(start), [A(3), A(4)], 'the restored ones predate every cursor')
  assert.deepEqual(makers(mid), [A(4)])
  assert.deepEqual(makers(index.seq), [], 'nothing after the last change')
  assert.equal(r.quoteCount, 4)
})
