// An outsider learns nothing of a private RFQ, not even that something happened: on every relay REST route a
// private id answers in the same bytes as an unknown id, with and without If-None-Match (a 304 only for what
// the caller may see); ETags, cursors and /health counts stand still through a private RFQ's whole life; a
// held poll is not woken by it; the SSE feed's ids leave no gap to count it by; the public profile counts the
// same before and after. Real engine, real HTTP.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { randomBytes } from 'node:crypto'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent, post } from '../api/agentKit.js'
import { Client, account, makeQuote, sign, domainOf, makeRfq, waitFor } from '../relay/helpers.js'
import type { Rfq } from '../../actors/rfqTypes.js'
import { sse, type Stream } from './observers.js'

interface Raw {
  status: number
  headers: string[]
  body: string
}

/** The whole answer as a client reads it: status, every header but Date, in order, and the body. */
function raw(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, res => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', c => {
          body += c
        })
        res.on('end', () => {
          const h: string[] = []
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            if (res.rawHeaders[i]!.toLowerCase() !== 'date') h.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
          resolve({ status: res.statusCode!, headers: h, body })
        })
      })
      .on('error', reject)
  })
}

const unknownId = () => 'rfq_' + randomBytes(16).toString('hex')

describe('an outsider learns nothing of a private RFQ', () => {
  let t: TestEngine
  let taker: Awaited<ReturnType<typeof newAgent>>
  let maker: Client
  before(async () => {
    t = await startTestEngine({
      PUBLIC_RATE_LIMIT_PER_MIN: '100000',
      RATE_LIMIT_PER_MIN: '100000',
      RELAY_REST_RATE_LIMIT_PER_MIN: '100000',
      FILL_VERIFY: 'off',
    })
    taker = await newAgent(t.api, ['taker', 'monitor'])
    maker = await Client.open(t.relayWs)
  })
  after(async () => {
    await maker.close()
    await t.stop()
  })

  const createPrivate = async () => {
    const r = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300, visibility: 'private' },
      taker.headers,
    )
    assert.equal(r.status, 201)
    const d = JSON.parse((await raw(`${t.api}/api/v1/rfqs/${r.body.rfqId}`, taker.headers)).body)
    const rfq: Rfq = {
      ...makeRfq(),
      id: r.body.rfqId,
      taker: d.rfq.taker,
      tokenIn: d.rfq.tokenIn.address,
      tokenOut: d.rfq.tokenOut.address,
      expiry: d.rfq.expiry,
    }
    return { rfq, token: r.body.shareToken as string }
  }
  const quote = async (rfq: Rfq, shareToken: string | null) => {
    const m = account()
    const q = makeQuote(m, rfq, { amountIn: '1000' })
    maker.send('QUOTE_SUBMIT', {
      rfqId: rfq.id,
      quote: q,
      signature: await sign(m, domainOf(t), q),
      ...(shareToken ? { shareToken } : {}),
    })
    const f = await maker.next(f => (f.type === 'QUOTE_BROADCAST' || f.type === 'ERROR') && f.data.rfqId === rfq.id)
    assert.equal(f.type, 'QUOTE_BROADCAST', JSON.stringify(f.data))
  }

  test('relay /quotes: a private id answers in the bytes of an unknown id, with and without If-None-Match, live, quoted and ended', async () => {
    const pub = await createPublic()
    await quote(pub, null)
    const pubReply = await raw(`${t.relay}/quotes?rfqId=${pub.id}`)
    const pubCursor = JSON.parse(pubReply.body).cursor as string
    const listEtag = (await raw(`${t.relay}/rfqs`)).headers.find(h => h.toLowerCase().startsWith('etag: '))!.slice(6)
    const pubEtag = pubReply.headers.find(h => h.toLowerCase().startsWith('etag: '))!.slice(6)
    const { rfq, token } = await createPrivate()
    const compare = async (phase: string) => {
      for (const inm of [undefined, pubEtag, listEtag, '*', `"${rfq.id}"`]) {
        for (const q of ['', `&since=${pubCursor}`, `&since=${pubCursor}&wait=1`, '&shareToken=not-the-token']) {
          const h: Record<string, string> = inm ? { 'if-none-match': inm } : {}
          const other = unknownId()
          const [priv, unknown] = await Promise.all([
            raw(`${t.relay}/quotes?rfqId=${rfq.id}${q}`, h),
            raw(`${t.relay}/quotes?rfqId=${other}${q}`, h),
          ])
          assert.equal(priv.status, 404, `${phase} ${inm} ${q}`)
          assert.deepEqual(priv, unknown, `${phase}: If-None-Match ${inm}, query ${q}`)
          assert.equal(priv.body, '{"error":"RFQ not found","code":"RFQ_NOT_FOUND"}')
        }
      }
      // the token holder sees it, and its own ETag answers 304 to it alone
      const seen = await raw(`${t.relay}/quotes?rfqId=${rfq.id}&shareToken=${encodeURIComponent(token)}`)
      assert.equal(seen.status, 200, phase)
      const etag = seen.headers.find(h => h.toLowerCase().startsWith('etag: '))
      if (etag) {
        const inm = { 'if-none-match': etag.slice(6) }
        assert.equal(
          (await raw(`${t.relay}/quotes?rfqId=${rfq.id}&shareToken=${encodeURIComponent(token)}`, inm)).status,
          304,
          phase,
        )
        assert.equal(
          (await raw(`${t.relay}/quotes?rfqId=${rfq.id}`, inm)).status,
          404,
          `${phase}: the holder's ETag is no key for an outsider`,
        )
      }
    }
    await compare('live')
    await quote(rfq, token)
    await compare('quoted')
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfq.id}/cancel`, {}, taker.headers)).status, 200)
    await compare('cancelled')
  })

  test("relay /rfqs and /health: the list's bytes, ETag and cursor and the counts stand still through a private RFQ's life; a public one moves them", async () => {
    await createPublic()
    const list = await raw(`${t.relay}/rfqs`)
    const cursor = JSON.parse(list.body).cursor as string
    const etag = list.headers.find(h => h.toLowerCase().startsWith('etag: '))!.slice(6)
    const since = await raw(`${t.relay}/rfqs?since=${cursor}`)
    const wrong = await raw(`${t.relay}/rfqs?shareToken=not-the-token`)
    const counts = async () => {
      const h = JSON.parse((await raw(`${t.relay}/health`)).body)
      return { activeRfqs: h.activeRfqs, totalQuotes: h.totalQuotes }
    }
    const health = await counts()
    const before = await wakeups(t)
    const held = raw(`${t.relay}/rfqs?since=${cursor}&wait=3`)
    await waitFor(
      () => heldPolls(t),
      n => n === 1,
    )
    const still = async (phase: string) => {
      assert.deepEqual(await raw(`${t.relay}/rfqs`), list, `${phase}: /rfqs`)
      assert.deepEqual(await raw(`${t.relay}/rfqs?since=${cursor}`), since, `${phase}: /rfqs?since`)
      assert.deepEqual(
        await raw(`${t.relay}/rfqs?shareToken=not-the-token`),
        wrong,
        `${phase}: a token that opens nothing`,
      )
      assert.equal((await raw(`${t.relay}/rfqs`, { 'if-none-match': etag })).status, 304, `${phase}: still 304`)
      assert.deepEqual(await counts(), health, `${phase}: /health counts`)
    }
    const { rfq, token } = await createPrivate()
    await still('created')
    for (let i = 0; i < 3; i++) await quote(rfq, token)
    await still('quoted')
    // the holder's view moves with its RFQ
    const mine = await raw(`${t.relay}/rfqs?shareToken=${encodeURIComponent(token)}`)
    assert.ok(JSON.parse(mine.body).rfqs.some((r: { id: string }) => r.id === rfq.id))
    assert.notEqual(JSON.parse(mine.body).cursor, cursor)
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfq.id}/cancel`, {}, taker.headers)).status, 200)
    await still('cancelled')
    assert.equal(await wakeups(t), before, 'the held outsider poll was not woken by any private change')
    assert.deepEqual(JSON.parse((await held).body).rfqs, [])
    // a public RFQ moves all of it
    await createPublic()
    const after = await raw(`${t.relay}/rfqs`)
    assert.notDeepEqual(after, list)
    assert.notEqual(JSON.parse(after.body).cursor, cursor)
    assert.equal((await raw(`${t.relay}/rfqs`, { 'if-none-match': etag })).status, 200)
    assert.equal((await counts()).activeRfqs, health.activeRfqs + 1)
  })

  test("the public profile counts the same before and after a private RFQ; its taker's key counts it", async () => {
    const profile = () => raw(`${t.api}/api/v1/profile/${taker.agent.address}`)
    const before = await profile()
    const mineBefore = JSON.parse(
      (await raw(`${t.api}/api/v1/profile/${taker.agent.address}`, taker.headers)).body,
    ).rfqs
    const { rfq } = await createPrivate()
    assert.deepEqual(await profile(), before, 'live')
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfq.id}/cancel`, {}, taker.headers)).status, 200)
    assert.deepEqual(await profile(), before, 'cancelled')
    const mine = JSON.parse((await raw(`${t.api}/api/v1/profile/${taker.agent.address}`, taker.headers)).body).rfqs
    assert.equal(mine.total, mineBefore.total + 1)
    assert.equal(mine.cancelled, mineBefore.cancelled + 1)
  })

  test("the SSE feed: an outsider's event ids count public events only, with no gap where a private one was; a holder resumes after a private id", async () => {
    const outsider = await sse(`${t.api}/api/v1/feed`, '127.0.0.31')
    const first = await createPublic()
    const { rfq, token } = await createPrivate()
    await quote(rfq, token)
    const holder = await sse(`${t.api}/api/v1/feed`, '127.0.0.32', { 'x-share-token': token, 'last-event-id': '0' })
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfq.id}/cancel`, {}, taker.headers)).status, 200)
    const second = await createPublic()
    const ids = async (s: Stream, rfqId: string) =>
      (
        await waitFor(
          () => events(s).filter(e => e.rfqId === rfqId),
          l => l.length > 0,
          3000,
        )
      ).map(e => e.id)
    const [a] = await ids(outsider, first.id),
      [b] = await ids(outsider, second.id)
    assert.equal(Number(b), Number(a) + 1, `consecutive public ids across the private RFQ's life: ${a}, ${b}`)
    assert.ok(!outsider.text().includes(rfq.id))
    // the holder sees the private events with ids that name the public count before them and a sealed tag
    const privateIds = await waitFor(
      () =>
        events(holder)
          .filter(e => e.rfqId === rfq.id)
          .map(e => e.id),
      l => l.length === 3,
      3000,
    )
    for (const id of privateIds) assert.match(id, new RegExp(`^${a}\\.[A-Za-z0-9_-]{22}$`))
    await waitFor(
      () => events(holder).some(e => e.rfqId === second.id),
      ok => ok,
      3000,
    )
    outsider.close()
    holder.close()
    // a reconnect after the private quote resumes with the cancel: nothing repeated, nothing skipped
    const resumed = await sse(`${t.api}/api/v1/feed`, '127.0.0.33', {
      'x-share-token': token,
      'last-event-id': privateIds[1]!,
    })
    const again = await waitFor(
      () => events(resumed),
      l => l.some(e => e.rfqId === second.id),
      3000,
    )
    assert.deepEqual(
      again.filter(e => e.rfqId === rfq.id || e.rfqId === second.id).map(e => e.event),
      ['rfq.cancelled', 'rfq.created'],
    )
    resumed.close()
  })

  test("API list paging: a cursor names the page's last RFQ, never its place among all RFQs; a cursor naming a private RFQ is refused as a made-up one", async () => {
    const a = await createPublic()
    const { rfq } = await createPrivate()
    const b = await createPublic()
    const page1 = JSON.parse((await raw(`${t.api}/api/v1/rfqs?limit=1`)).body)
    assert.deepEqual(
      page1.items.map((i: { id: string }) => i.id),
      [b.id],
    )
    assert.equal(
      Buffer.from(page1.nextCursor, 'base64url').toString(),
      `r2:${b.id}`,
      'the cursor carries what the page showed, nothing more',
    )
    const page2 = JSON.parse((await raw(`${t.api}/api/v1/rfqs?limit=1&cursor=${page1.nextCursor}`)).body)
    assert.deepEqual(
      page2.items.map((i: { id: string }) => i.id),
      [a.id],
      'no gap, no private RFQ',
    )
    const cursorOf = (id: string) => Buffer.from(`r2:${id}`).toString('base64url')
    const [priv, unknown] = await Promise.all([
      raw(`${t.api}/api/v1/rfqs?cursor=${cursorOf(rfq.id)}`),
      raw(`${t.api}/api/v1/rfqs?cursor=${cursorOf(unknownId())}`),
    ])
    assert.equal(priv.status, 400)
    assert.deepEqual(priv, unknown)
    const mine = await raw(`${t.api}/api/v1/rfqs?limit=1&cursor=${cursorOf(rfq.id)}`, taker.headers)
    assert.deepEqual(
      JSON.parse(mine.body).items.map((i: { id: string }) => i.id),
      [a.id],
      'its taker pages on from it',
    )
  })

  async function createPublic(): Promise<Rfq> {
    const r = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 300 },
      taker.headers,
    )
    assert.equal(r.status, 201)
    const d = JSON.parse((await raw(`${t.api}/api/v1/rfqs/${r.body.rfqId}`)).body)
    return {
      ...makeRfq(),
      id: r.body.rfqId,
      taker: d.rfq.taker,
      tokenIn: d.rfq.tokenIn.address,
      tokenOut: d.rfq.tokenOut.address,
      expiry: d.rfq.expiry,
    }
  }
})

/** The events a stream has read: id, name and the RFQ they are about. */
function events(s: Stream): { id: string; event: string; rfqId: string | undefined }[] {
  return s
    .text()
    .split('\n\n')
    .flatMap(block => {
      const id = /^id: (.+)$/m.exec(block)?.[1],
        event = /^event: (.+)$/m.exec(block)?.[1],
        data = /^data: (.+)$/m.exec(block)?.[1]
      return id && event && data ? [{ id, event, rfqId: JSON.parse(data).rfqId as string | undefined }] : []
    })
}

async function metric(t: TestEngine, name: string): Promise<number> {
  const m = await (await fetch(`${t.api}/metrics`)).text()
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(m)?.[1] ?? NaN)
}
const heldPolls = (t: TestEngine) => metric(t, 'relay_held_polls')
const wakeups = (t: TestEngine) => metric(t, 'relay_poll_wakeups_total')
