// The maker SDK against the real relay: domain from /health, sign with viem, submit and await the
// broadcast or the error, msgpack, its PING, reconnect backoff, its faults; and the example maker bot. Every
// frame an SDK client here receives from the relay is checked against the relay's AsyncAPI document.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { WebSocketServer } from 'ws'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { MakerClient, DEFAULT_RECONNECT, backoffDelayMs, jittered } from '../../sdk/maker.js'
import { createRfq } from '../relay/helpers.js'
import { quoteAmounts, startMakerBot } from '../../examples/maker-bot.js'
import type { ClientFault, Hex, RfqBroadcast, SubmitResult } from '../../sdk/types.js'
import { outbound } from '../contract/conformance.js'

let t: TestEngine
const key = (): Hex => `0x${randomBytes(32).toString('hex')}`
const clients: MakerClient[] = []
const violations: string[] = []
const client = (o: Partial<ConstructorParameters<typeof MakerClient>[0]> = {}) => {
  const c = new MakerClient({ url: t.relayWs, privateKey: key(), ...o })
  c.on('message', (type, data) => {
    const w = outbound({ type, data }, o.encoding ?? 'json')
    if (w) violations.push(w)
  })
  clients.push(c)
  return c
}
after(() => assert.deepEqual(violations, [], "frames that break the relay's AsyncAPI document"))

before(async () => {
  t = await startTestEngine({
    RATE_LIMIT_PER_MIN: '100000',
    SPOT_RFQ_ADDRESS: '0x00000000000000000000000000000000000000aa',
  })
})
after(async () => {
  await Promise.all(clients.map(c => c.close()))
  await t.stop()
})

test('a maker reads the domain from /health, quotes an RFQ it hears of, and gets its broadcast; a second quote gets the duplicate error', async () => {
  const m = client()
  const heard = new Promise<RfqBroadcast>(resolve => m.on('rfq', resolve))
  await m.connect()
  assert.equal((await m.domain()).verifyingContract, '0x00000000000000000000000000000000000000aa')
  const rfq = await createRfq(t)
  const b = await heard
  assert.equal(b.rfqId, rfq.id)
  const first = await m.quote(b.rfqId, m.quoteFor(b, { amountIn: 10n ** 18n, amountOut: 2_500_000_000n }))
  assert.equal(first.ok, true)
  assert.equal(first.ok && first.broadcast.quote.maker, m.address)
  const second = await m.quote(b.rfqId, m.quoteFor(b, { amountIn: 10n ** 18n, amountOut: 2_600_000_000n }))
  assert.deepEqual(second, {
    ok: false,
    code: 'DUPLICATE_QUOTE',
    message: 'Duplicate quote from this maker for this RFQ',
  })
})

test('msgpack makers exchange the same messages; the client pings on its interval and the relay answers', async () => {
  const m = client({ encoding: 'msgpack', pingIntervalMs: 50 })
  const types: string[] = []
  m.on('message', type => types.push(type))
  await m.connect()
  await m.ping()
  const rfq = await createRfq(t)
  const r = await m.quote(
    rfq.id,
    m.quoteFor({ rfqId: rfq.id, rfq: { ...rfq, amountIn: '1', amountOut: null } }, { amountIn: 1n, amountOut: 2n }),
  )
  assert.equal(r.ok, true)
  await new Promise(r => setTimeout(r, 200))
  assert.ok(types.filter(x => x === 'PONG').length >= 3, `PONGs: ${types.join(',')}`)
})

test('reconnects with exponential backoff from the initial delay, doubling; with an opt-in cap it gives up and says so', async () => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise(r => server.once('listening', r))
  const port = (server.address() as { port: number }).port
  // the first connection opens, then the relay goes away: every reconnect is refused
  const gone = new Promise(r =>
    server.on('connection', ws => {
      server.close(r)
      setTimeout(() => ws.terminate(), 10)
    }),
  )
  const m = new MakerClient({
    url: `ws://127.0.0.1:${port}`,
    reconnect: { initialDelayMs: 10, maxAttempts: 4, jitter: 0 },
  })
  const delays: number[] = [],
    causes: string[] = []
  const gaveUp: number[] = [],
    errors: string[] = []
  m.on('reconnecting', (_attempt, delay, cause) => {
    delays.push(delay)
    causes.push(cause)
  })
  m.on('fault', () => {})
  m.on('giveup', n => gaveUp.push(n))
  m.on('error', e => errors.push(e.code ?? ''))
  await m.connect()
  const deadline = Date.now() + 5000
  while (delays.length < 4 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20))
  await new Promise(r => setTimeout(r, 300))
  await m.close()
  await gone
  assert.deepEqual(delays, [10, 20, 40, 80])
  // each reconnect names its cause: the dropped connection first, then the refused attempts
  assert.match(causes[0]!, /closed by the relay or the network \(code 1006/)
  for (const c of causes.slice(1)) assert.match(c, /could not connect: .*ECONNREFUSED/)
  assert.deepEqual(gaveUp, [4])
  assert.deepEqual(errors, ['RECONNECT_FAILED'])
})

test("the default backoff: 1000 ms doubling (the spec's suggestion), capped at 30 s, forever, jittered down by at most 20%", () => {
  assert.deepEqual(DEFAULT_RECONNECT, { initialDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: Infinity, jitter: 0.2 })
  assert.deepEqual(
    Array.from({ length: 8 }, (_, i) => backoffDelayMs(i)),
    [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000],
  )
  assert.equal(backoffDelayMs(10_000), 30_000)
  assert.equal(
    jittered(1000, 0.2, () => 0),
    1000,
  )
  assert.equal(
    jittered(1000, 0.2, () => 0.999999),
    800,
  )
  for (let i = 0; i < 100; i++) {
    const d = jittered(5000, 0.2)
    assert.ok(d >= 4000 && d <= 5000)
  }
})

test('the maker bot quotes every RFQ it sees from its price rule', async () => {
  const results: [string, SubmitResult][] = []
  const bot = await startMakerBot({
    url: t.relayWs,
    privateKey: key(),
    rule: { num: 2500n, den: 10n ** 12n, spreadBps: 10n },
    onResult: (id, r) => results.push([id, r]),
  })
  clients.push(bot)
  const a = await createRfq(t)
  const b = await createRfq(t, { kind: 1, amountIn: null, amountOut: 5_000_000n })
  const deadline = Date.now() + 5000
  while (results.length < 2 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20))
  const byId = new Map(results)
  const ra = byId.get(a.id),
    rb = byId.get(b.id)
  assert.ok(ra?.ok && rb?.ok, JSON.stringify(results))
  assert.equal(ra.broadcast.quote.amountOut, String((10n ** 18n * 2500n * 9990n) / (10n ** 12n * 10_000n)))
  assert.equal(rb.broadcast.quote.amountOut, '5000000')
  assert.deepEqual(
    quoteAmounts(
      {
        rfqId: 'x',
        rfq: { ...rb.broadcast.quote, amountIn: null, amountOut: '5000000', kind: 1, expiry: 0, visibility: 'public' },
      } as any,
      { num: 2500n, den: 10n ** 12n, spreadBps: 10n },
    )?.amountIn,
    BigInt(rb.broadcast.quote.amountIn),
  )
})

test('nothing is dropped silently: unreadable frames, a listener that throws, and why a connection ended are faults', async () => {
  // a relay that misbehaves is outside what the real one can be made to do: a local server sends the bad frames
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise(r => server.once('listening', r))
  server.on('connection', ws => {
    ws.send('not json')
    ws.send(Buffer.from([0x82, 0xa4, 0x74]), { binary: true }) // a map cut off in its first key
    ws.send(JSON.stringify({ data: 1 }))
    ws.send(JSON.stringify({ type: 'RFQ_BROADCAST', data: { rfqId: 'r1', rfq: {} } }))
    ws.send(JSON.stringify({ type: 'PING', data: {} }))
  })
  const m = new MakerClient({ url: `ws://127.0.0.1:${(server.address() as { port: number }).port}`, reconnect: false })
  const faults: ClientFault[] = [],
    heard: string[] = []
  m.on('fault', f => faults.push(f))
  m.on('rfq', () => {
    throw new Error("a bug in the maker's pricing")
  })
  m.on('rfq', b => heard.push(b.rfqId)) // the next listener still runs
  const pong = new Promise(r => server.on('connection', ws => ws.on('message', r)))
  await m.connect()
  await pong // the PING after the bad frames is answered
  await m.close()
  await new Promise(r => server.close(r))
  assert.deepEqual(
    faults.map(f => f.kind),
    ['frame', 'frame', 'frame', 'listener'],
  )
  assert.match((faults[0] as { message: string }).message, /^unreadable JSON frame from the relay: /)
  assert.match((faults[1] as { message: string }).message, /^unreadable msgpack frame from the relay: /)
  assert.equal((faults[2] as { message: string }).message, 'a frame from the relay without a string type')
  assert.deepEqual(
    { ...faults[3], error: String((faults[3] as { error: unknown }).error) },
    { kind: 'listener', event: 'rfq', error: "Error: a bug in the maker's pricing" },
  )
  assert.deepEqual(heard, ['r1'])
})

test('without a fault listener, faults go to console.warn, one line each', async () => {
  const warned: string[] = []
  const warn = console.warn
  console.warn = (...a: unknown[]) => {
    warned.push(a.join(' '))
  }
  try {
    const m = new MakerClient({ url: 'ws://127.0.0.1:9', reconnect: false })
    await assert.rejects(m.connect())
  } finally {
    console.warn = warn
  }
  assert.equal(warned.length, 1)
  assert.match(warned[0]!, /^\[maker-sdk\] ws:\/\/127\.0\.0\.1:9\/: could not connect: .*ECONNREFUSED/)
})
