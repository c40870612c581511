// The relay's WebSocket front, unit by unit (engine/relay/): what an upgrade asks for, the per-IP cap, the channel
// changes a SUBSCRIBE makes, the spec's ERROR frame, the PING/PONG rule and the message limit's one ERROR per window.
// The whole front over real sockets: protocol.test.ts, limits.test.ts, private.test.ts.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ConnectionCounts, parseChannels, readUpgrade } from '../../engine/relay/upgrade.js'
import { channelChanges } from '../../engine/relay/subscriptions.js'
import { errorFrame, type SocketSession } from '../../engine/relay/socketSession.js'
import { livenessStep } from '../../engine/relay/liveness.js'
import { chargeFrame } from '../../engine/relay/inbound.js'
import { FixedWindowLimiter } from '../../engine/front/limits.js'
import { RelayErrors } from '../../actors/errors.js'

const session = (over: Partial<SocketSession> = {}): SocketSession => ({
  ip: '10.0.0.1',
  enc: 'json',
  channels: new Set(),
  shares: new Map(),
  lastSeen: 0,
  awaitingPong: false,
  limitedUntil: 0,
  closed: false,
  ...over,
})

test('an upgrade asks for msgpack by query or by subprotocol, and the subprotocol is echoed only when offered', () => {
  const q = (s: string) => new URLSearchParams(s)
  assert.deepEqual(readUpgrade(q(''), {}), {
    enc: 'json',
    protocol: '',
    channels: new Set(['rfqs', 'quotes']),
    shareToken: null,
  })
  assert.equal(readUpgrade(q('encoding=msgpack'), {}).enc, 'msgpack')
  assert.deepEqual(readUpgrade(q(''), { 'sec-websocket-protocol': 'foo, msgpack' }), {
    enc: 'msgpack',
    protocol: 'msgpack',
    channels: new Set(['rfqs', 'quotes']),
    shareToken: null,
  })
  assert.equal(
    readUpgrade(q('encoding=msgpack'), { 'sec-websocket-protocol': 'json' }).protocol,
    '',
    'json offered, msgpack asked',
  )
  assert.deepEqual(readUpgrade(q('channels=quotes,nope,&shareToken=t1'), {}), {
    enc: 'json',
    protocol: '',
    channels: new Set(['quotes']),
    shareToken: 't1',
  })
  assert.deepEqual(parseChannels(''), new Set(), 'an empty list asks for no public channel')
})

test('the per-IP cap counts open sockets: one more than the max is refused, a close makes room', () => {
  const counts = new ConnectionCounts(2)
  counts.opened('a')
  counts.opened('a')
  counts.opened('b')
  assert.deepEqual([counts.hasRoom('a'), counts.hasRoom('b'), counts.hasRoom('c')], [false, true, true])
  counts.closed('a')
  assert.equal(counts.hasRoom('a'), true)
  counts.closed('b')
  counts.closed('b')
  assert.equal(counts.of('b'), 0, 'never below zero')
})

test('SUBSCRIBE moves a socket from its channels to the wanted ones: joins what is new, leaves what is dropped', () => {
  assert.deepEqual(channelChanges(new Set(['rfqs']), new Set(['quotes'])), { join: ['quotes'], leave: ['rfqs'] })
  assert.deepEqual(channelChanges(new Set(['rfqs', 'quotes']), new Set(['rfqs', 'quotes'])), { join: [], leave: [] })
})

test("the ERROR frame: message and code, the RFQ it is about, and BUSY's retry hint", () => {
  assert.deepEqual(errorFrame(RelayErrors.rfqNotFound()), { type: 'ERROR', data: RelayErrors.rfqNotFound() })
  assert.deepEqual(errorFrame(RelayErrors.busy(250), 'rfq_1'), {
    type: 'ERROR',
    data: { message: RelayErrors.busy(250).message, rfqId: 'rfq_1', code: 'BUSY', retryAfterMs: 250 },
  })
})

test('liveness: quiet for (nearly) an interval gets a PING; still quiet an interval later, the socket is closed', () => {
  assert.equal(livenessStep(session({ lastSeen: 1000 }), 1000 + 8_000, 10_000), 'none')
  assert.equal(livenessStep(session({ lastSeen: 1000 }), 1000 + 9_000, 10_000), 'ping')
  assert.equal(livenessStep(session({ lastSeen: 1000, awaitingPong: true }), 1000 + 20_000, 10_000), 'close')
})

test('the message limit: past it, one ERROR for the window, then silence until it resets', () => {
  let now = 0
  const limiter = new FixedWindowLimiter(2, 60_000, () => now)
  const s = session()
  const step = () => chargeFrame(s, limiter.refusedForMs(s.ip), now)
  assert.deepEqual([step(), step(), step(), step()], ['pass', 'pass', 'refuse', 'silent'])
  assert.equal(s.limitedUntil, 60_000, 'silent until the window resets')
  now = 59_999
  assert.equal(step(), 'silent')
  now = 60_000
  assert.equal(step(), 'pass', 'a new window')
})
