// The maker SDK against the real relay: domain from /health, sign with viem, submit and await the
// broadcast or the error, msgpack, its PING, reconnect backoff; and the example maker bot.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { WebSocketServer } from 'ws'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { MakerClient, DEFAULT_RECONNECT, backoffDelayMs, jittered } from '../../sdk/maker.js'
import { createRfq } from '../relay/helpers.js'
import { quoteAmounts, startMakerBot } from '../../examples/maker-bot.js'
import type { Hex, RfqBroadcast, SubmitResult } from '../../sdk/types.js'

let t: TestEngine
const key = () => `0x${randomBytes(32).toString('hex')}` as Hex
const clients: MakerClient[] = []
const client = (o: Partial<ConstructorParameters<typeof MakerClient>[0]> = {}) => { const c = new MakerClient({ url: t.relayWs, privateKey: key(), ...o }); clients.push(c); return c }

before(async () => { t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000', SPOT_RFQ_ADDRESS: '0x00000000000000000000000000000000000000aa' }) })
after(async () => { await Promise.all(clients.map(c => c.close())); await t.stop() })

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
  assert.deepEqual(second, { ok: false, code: 'DUPLICATE_QUOTE', message: 'Duplicate quote from this maker for this RFQ' })
})

test('msgpack makers exchange the same messages; the client pings on its interval and the relay answers', async () => {
  const m = client({ encoding: 'msgpack', pingIntervalMs: 50 })
  const types: string[] = []
  m.on('message', type => types.push(type))
  await m.connect()
  await m.ping()
  const rfq = await createRfq(t)
  const r = await m.quote(rfq.id, m.quoteFor({ rfqId: rfq.id, rfq: { ...rfq, amountIn: '1', amountOut: null } } as RfqBroadcast, { amountIn: 1n, amountOut: 2n }))
  assert.equal(r.ok, true)
  await new Promise(r => setTimeout(r, 200))
  assert.ok(types.filter(x => x === 'PONG').length >= 3, `PONGs: ${types.join(',')}`)
})

test('reconnects with exponential backoff from the initial delay, doubling; with an opt-in cap it gives up and says so', async () => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise(r => server.once('listening', r))
  const port = (server.address() as { port: number }).port
  // the first connection opens, then the relay goes away: every reconnect is refused
  const gone = new Promise(r => server.on('connection', ws => { server.close(r); setTimeout(() => ws.terminate(), 10) }))
  const m = new MakerClient({ url: `ws://127.0.0.1:${port}`, reconnect: { initialDelayMs: 10, maxAttempts: 4, jitter: 0 } })
  const delays: number[] = []
  const gaveUp: number[] = [], errors: string[] = []
  m.on('reconnecting', (_attempt, delay) => delays.push(delay))
  m.on('giveup', n => gaveUp.push(n))
  m.on('error', e => errors.push(e.code ?? ''))
  await m.connect()
  const deadline = Date.now() + 5000
  while (delays.length < 4 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20))
  await new Promise(r => setTimeout(r, 300))
  await m.close()
  await gone
  assert.deepEqual(delays, [10, 20, 40, 80])
  assert.deepEqual(gaveUp, [4])
  assert.deepEqual(errors, ['RECONNECT_FAILED'])
})

test('the default backoff: 1000 ms doubling (the spec\'s suggestion), capped at 30 s, forever, jittered down by at most 20%', () => {
  assert.deepEqual(DEFAULT_RECONNECT, { initialDelayMs: 1000, maxDelayMs: 30_000, maxAttempts: Infinity, jitter: 0.2 })
  assert.deepEqual(Array.from({ length: 8 }, (_, i) => backoffDelayMs(i)), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000])
  assert.equal(backoffDelayMs(10_000), 30_000)
  assert.equal(jittered(1000, 0.2, () => 0), 1000)
  assert.equal(jittered(1000, 0.2, () => 0.999999), 800)
  for (let i = 0; i < 100; i++) { const d = jittered(5000, 0.2); assert.ok(d >= 4000 && d <= 5000) }
})

test('the maker bot quotes every RFQ it sees from its price rule', async () => {
  const results: [string, SubmitResult][] = []
  const bot = await startMakerBot({ url: t.relayWs, privateKey: key(), rule: { num: 2500n, den: 10n ** 12n, spreadBps: 10n }, onResult: (id, r) => results.push([id, r]) })
  clients.push(bot)
  const a = await createRfq(t)
  const b = await createRfq(t, { kind: 1, amountIn: null, amountOut: 5_000_000n })
  const deadline = Date.now() + 5000
  while (results.length < 2 && Date.now() < deadline) await new Promise(r => setTimeout(r, 20))
  const byId = new Map(results)
  const ra = byId.get(a.id), rb = byId.get(b.id)
  assert.ok(ra?.ok && rb?.ok, JSON.stringify(results))
  assert.equal(ra.broadcast.quote.amountOut, String(10n ** 18n * 2500n * 9990n / (10n ** 12n * 10_000n)))
  assert.equal(rb.broadcast.quote.amountOut, '5000000')
  assert.deepEqual(quoteAmounts({ rfqId: 'x', rfq: { ...rb.broadcast.quote, amountIn: null, amountOut: '5000000', kind: 1, expiry: 0, visibility: 'public' } } as any, { num: 2500n, den: 10n ** 12n, spreadBps: 10n })?.amountIn,
    BigInt(rb.broadcast.quote.amountIn))
})
