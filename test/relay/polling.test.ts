// REST polling on the relay port, as pollers use it: ETag and 304, cursor and since, long polls that
// answer on arrival, empty at the end, free themselves when the client goes away, many held at once;
// and private RFQs sealed on all of it.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign, waitFor } from './helpers.js'

async function get(url: string, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const res = await fetch(url, { headers, signal })
  const text = await res.text()
  return { status: res.status, etag: res.headers.get('etag'), text, body: text ? JSON.parse(text) : undefined }
}

async function heldPolls(t: TestEngine): Promise<number> {
  const m = await (await fetch(`${t.api}/metrics`)).text()
  return Number(/^relay_held_polls (\d+)$/m.exec(m)?.[1] ?? NaN)
}

describe('relay REST polling', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000' })
  })
  after(() => t.stop())

  test('GET /rfqs: an ETag; If-None-Match with it is 304 with no body while nothing changed, 200 after a change', async () => {
    await createRfq(t)
    const first = await get(`${t.relay}/rfqs`)
    assert.equal(first.status, 200)
    assert.ok(first.etag)
    const same = await get(`${t.relay}/rfqs`, { 'if-none-match': first.etag })
    assert.equal(same.status, 304)
    assert.equal(same.text, '')
    await createRfq(t)
    const changed = await get(`${t.relay}/rfqs`, { 'if-none-match': first.etag })
    assert.equal(changed.status, 200)
    assert.notEqual(changed.etag, first.etag)
    assert.equal(changed.body.count, first.body.count + 1)
  })

  test('since=<cursor> returns only RFQs created after it, and quotes accepted after it', async () => {
    const {
      body: { cursor: c0 },
    } = await get(`${t.relay}/rfqs`)
    assert.equal(typeof c0, 'string')
    const a = await createRfq(t),
      b = await createRfq(t)
    const after0 = await get(`${t.relay}/rfqs?since=${c0}`)
    assert.deepEqual(after0.body.rfqs.map((r: { id: string }) => r.id).sort(), [a.id, b.id].sort())
    const after1 = await get(`${t.relay}/rfqs?since=${after0.body.cursor}`)
    assert.deepEqual(after1.body.rfqs, [])

    const { body: q0 } = await get(`${t.relay}/quotes?rfqId=${a.id}`)
    assert.equal(q0.count, 0)
    const maker = account(),
      c = await Client.open(t.relayWs)
    const q = makeQuote(maker, a)
    c.send('QUOTE_SUBMIT', { rfqId: a.id, quote: q, signature: await sign(maker, domainOf(t), q) })
    await c.nextOf('QUOTE_BROADCAST')
    await c.close()
    const q1 = await get(`${t.relay}/quotes?rfqId=${a.id}&since=${q0.cursor}`)
    assert.equal(q1.body.count, 1)
    assert.equal(q1.body.quotes[0].quote.maker, q.maker)
    assert.equal(q1.body.status, 'QUOTED')
    assert.equal((await get(`${t.relay}/quotes?rfqId=${a.id}&since=${q1.body.cursor}`)).body.count, 0)
  })

  test('a long poll answers as soon as something arrives, and with an empty list at the end when nothing does', async () => {
    const {
      body: { cursor },
    } = await get(`${t.relay}/rfqs`)
    const started = Date.now()
    const held = get(`${t.relay}/rfqs?since=${cursor}&wait=10`)
    await new Promise(r => setTimeout(r, 300))
    const rfq = await createRfq(t)
    const r = await held
    assert.deepEqual(
      r.body.rfqs.map((x: { id: string }) => x.id),
      [rfq.id],
    )
    assert.ok(Date.now() - started < 5000, 'answered on arrival, not at the end of the wait')

    const quiet = Date.now()
    const empty = await get(`${t.relay}/rfqs?since=${r.body.cursor}&wait=1`)
    assert.equal(empty.status, 200)
    assert.deepEqual(empty.body.rfqs, [])
    assert.ok(Date.now() - quiet >= 900, 'held for the wait')
  })

  test('many long polls held at once all answer on one arrival; held polls block nothing else', async () => {
    const {
      body: { cursor },
    } = await get(`${t.relay}/rfqs`)
    const held = Array.from({ length: 100 }, () => get(`${t.relay}/rfqs?since=${cursor}&wait=20`))
    await waitFor(
      () => heldPolls(t),
      n => n >= 100,
    )
    assert.equal((await get(`${t.relay}/health`)).status, 200) // the relay still answers everything else
    const rfq = await createRfq(t)
    const all = await Promise.all(held)
    assert.ok(all.every(r => r.body.rfqs.length === 1 && r.body.rfqs[0].id === rfq.id))
    assert.equal(await heldPolls(t), 0)
  })

  test('a held poll whose client goes away is freed', async () => {
    const {
      body: { cursor },
    } = await get(`${t.relay}/rfqs`)
    const ctl = new AbortController()
    const held = Array.from({ length: 20 }, () =>
      get(`${t.relay}/rfqs?since=${cursor}&wait=30`, {}, ctl.signal).catch((e: unknown) => e),
    )
    await waitFor(
      () => heldPolls(t),
      n => n >= 20,
    )
    ctl.abort()
    await Promise.all(held)
    await waitFor(
      () => heldPolls(t),
      n => n === 0,
    )
  })

  test('bad cursors and waits are 400 with a code', async () => {
    const bad = await get(`${t.relay}/rfqs?since=not-a-cursor`)
    assert.equal(bad.status, 400)
    assert.equal(bad.body.code, 'INVALID_CURSOR')
    const noSince = await get(`${t.relay}/rfqs?wait=5`)
    assert.equal(noSince.status, 400)
    assert.equal(noSince.body.code, 'INVALID_WAIT')
    const {
      body: { cursor },
    } = await get(`${t.relay}/rfqs`)
    const tooLong = await get(`${t.relay}/rfqs?since=${cursor}&wait=31`)
    assert.equal(tooLong.status, 400)
    assert.equal(tooLong.body.code, 'INVALID_WAIT')
  })

  test('private RFQs stay sealed: not listed, not waking a poll, not in /quotes without the token; all of it with the token', async () => {
    const {
      body: { cursor },
    } = await get(`${t.relay}/rfqs`)
    const shareToken = randomBytes(16).toString('base64url')
    const held = get(`${t.relay}/rfqs?since=${cursor}&wait=1`)
    const rfq = await createRfq(t, { visibility: 'private', shareToken })
    assert.deepEqual((await held).body.rfqs, [])
    assert.equal(
      (await get(`${t.relay}/rfqs?since=${cursor}`)).body.rfqs.some((r: { id: string }) => r.id === rfq.id),
      false,
    )
    assert.equal((await get(`${t.relay}/quotes?rfqId=${rfq.id}`)).status, 404)
    const seen = await get(`${t.relay}/rfqs?since=${cursor}&shareToken=${shareToken}`)
    assert.deepEqual(
      seen.body.rfqs.map((r: { id: string }) => r.id),
      [rfq.id],
    )
    assert.equal((await get(`${t.relay}/quotes?rfqId=${rfq.id}&shareToken=${shareToken}`)).status, 200)
    const tokenEtag = seen.etag,
      publicEtag = (await get(`${t.relay}/rfqs?since=${cursor}`)).etag
    assert.notEqual(tokenEtag, publicEtag) // a viewer's ETag never answers for another's view
  })
})
