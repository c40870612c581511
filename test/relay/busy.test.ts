// Admission control under a flood: quotes beyond the admitted work are refused at once with BUSY and a
// retry hint; every accepted quote is broadcast once and stored once; none is lost or duplicated; the
// relay takes quotes again as soon as the flood drains. Real WebSockets, real PostgreSQL.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, createRfq, domainOf, waitFor } from './helpers.js'
import { freshMakers, presignQuotes } from '../../bench/lib/presign.js'
import { Admission } from '../../engine/rfq/admission.js'
import { byJson } from '../helpers/order.js'

let t: TestEngine
before(async () => {
  t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000000', RELAY_ADMISSION_MS: '2', POOL_THREADS: '1' })
})
after(() => t.stop())

test('a flood gets BUSY (with retryAfterMs), never a lost or duplicated accepted quote; the relay recovers', async () => {
  const rfqs = await Promise.all(
    Array.from({ length: 40 }, () => createRfq(t, { expiry: Math.floor(Date.now() / 1000) + 120 })),
  )
  const makers = freshMakers(60)
  const deadline = Math.floor(Date.now() / 1000) + 120
  const terms = rfqs.map(r => ({
    rfqId: r.id,
    taker: r.taker,
    tokenIn: r.tokenIn,
    tokenOut: r.tokenOut,
    amountIn: r.amountIn!,
    expiry: r.expiry,
  }))
  const frames = presignQuotes(domainOf(t), terms, makers, 2400, deadline)
  const flood = frames.slice(0, 2300),
    later = frames.slice(2300)

  const observer = await Client.open(t.relayWs)
  const senders = await Promise.all(Array.from({ length: 8 }, () => Client.open(`${t.relayWs}/?channels=rfqs`)))
  flood.forEach((f, i) => senders[i % senders.length]!.raw(f.frame))
  const answered = () =>
    observer.frames.filter(f => f.type === 'QUOTE_BROADCAST').length +
    senders.reduce((n, s) => n + s.frames.filter(f => f.type === 'ERROR').length, 0)
  await waitFor(answered, n => n >= flood.length, 60_000)

  const errors = senders.flatMap(s => s.frames.filter(f => f.type === 'ERROR').map(f => f.data))
  const busy = errors.filter(e => e.code === 'BUSY')
  assert.ok(busy.length > 0, 'the flood met admission control')
  assert.deepEqual(
    errors.filter(e => e.code !== 'BUSY'),
    [],
    'BUSY is the only refusal of these valid quotes',
  )
  for (const e of busy) {
    assert.ok(Number.isInteger(e.retryAfterMs) && e.retryAfterMs >= 1, JSON.stringify(e))
    assert.match(e.message, /^Busy: .*retry in \d+ ms$/)
  }
  const broadcast = observer.frames
    .filter(f => f.type === 'QUOTE_BROADCAST')
    .map(f => `${f.data.rfqId}:${f.data.quote.maker}`)
  assert.ok(broadcast.length > 0)
  assert.equal(new Set(broadcast).size, broadcast.length, 'no quote broadcast twice')
  assert.equal(broadcast.length + busy.length, flood.length, 'every quote answered exactly once')
  const stored = await t.db
    .sql`select rfq_id || ':' || maker as k from quote_rows where rfq_id in ${t.db.sql(rfqs.map(r => r.id))}`
  assert.deepEqual(
    stored.map(r => r.k).sort(byJson),
    [...broadcast].sort(byJson),
    'stored exactly the broadcast quotes',
  )

  // the flood has drained: quotes are admitted again (one at a time, as a maker quoting a market would)
  for (const [i, f] of later.entries()) {
    senders[0]!.raw(f.frame)
    await waitFor(
      () => observer.frames.filter(f => f.type === 'QUOTE_BROADCAST').length,
      n => n >= broadcast.length + i + 1,
      10_000,
    )
  }
  const metrics = await (await fetch(`${t.api}/metrics`)).text()
  assert.equal(Number(/^relay_quotes_busy_total (\d+)/m.exec(metrics)?.[1]), busy.length)
  for (const c of [observer, ...senders]) c.ws.close()
})

test('admission: a limit steered by queueing delay (wait less the least wait), never below one batch, cut at most once per bound; 0 admits everything', () => {
  let now = 0
  const a = new Admission(20, 64, () => now)
  for (let i = 0; i < 64; i++) assert.equal(a.tryEnter().ok, true)
  assert.deepEqual(a.tryEnter(), { ok: false, retryAfterMs: 20 })
  // answers within the bound: each lets one more in (the first waits also set the pipeline's own latency, 5 ms)
  now += 5
  for (let i = 0; i < 64; i++) a.leave()
  assert.equal(a.stats.limit, 128)
  for (let i = 0; i < 128; i++) assert.equal(a.tryEnter().ok, true)
  assert.equal(a.tryEnter().ok, false)
  // answers past the bound: the limit falls with the overshoot (50 ms late of 20: to 0.5, the most), once
  // per bound however many come late at once; a small overshoot cuts by a tenth at least
  now += 50
  for (let i = 0; i < 128; i++) a.leave()
  assert.equal(a.stats.limit, 64)
  for (let i = 0; i < 64; i++) assert.equal(a.tryEnter().ok, true)
  now += 5
  for (let i = 0; i < 64; i++) a.leave()
  assert.equal(a.stats.limit, 128)
  for (let i = 0; i < 28; i++) a.tryEnter()
  now += 26 // queued 26 - 5 (the least wait seen) = 21 > 20
  for (let i = 0; i < 28; i++) a.leave()
  assert.equal(a.stats.limit, Math.floor(128 * 0.9))
  // never below one full batch
  for (let k = 0; k < 20; k++) {
    a.tryEnter()
    now += 100
    a.leave()
  }
  assert.equal(a.stats.limit, 64)
  assert.equal(a.stats.inFlight, 0)
  const open = new Admission(0, 64, () => now)
  for (let i = 0; i < 1000; i++) assert.equal(open.tryEnter().ok, true)
})

test('admission: the retry hint is the time half of what is in flight takes at the pace answers come, at most the bound', () => {
  let now = 0
  const a = new Admission(100, 64, () => now)
  for (let i = 0; i < 64; i++) a.tryEnter()
  assert.deepEqual(a.tryEnter(), { ok: false, retryAfterMs: 100 }, 'no pace known yet: the bound')
  for (let i = 0; i < 1000; i++) {
    now += 0.1
    a.leave()
    a.tryEnter()
  } // ten answers a ms, for 100 ms
  while (a.tryEnter().ok) {
    /* up to the limit, which grew with the answers */
  }
  const r = a.tryEnter(),
    drain = (a.stats.inFlight / 2) * 0.1
  assert.equal(r.ok, false)
  assert.ok(
    !r.ok && r.retryAfterMs < 100 && Math.abs(r.retryAfterMs - drain) <= 1,
    `${JSON.stringify(r)} vs ${drain} ms`,
  )
})
