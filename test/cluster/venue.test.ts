// Three engine processes on one nats-server and one PostgreSQL act as one venue: whichever node a client
// uses, it sees every RFQ and quote once; one quote per maker per RFQ holds across nodes under races; a
// cancel, a fill, an expiry and a private RFQ's seal hold on every node; and after kill -9 of a node
// nothing any client saw broadcast is lost and its RFQs live on through the survivors. Real processes,
// real NATS (as a venue runs it: TLS, an nkey per node, signed messages), real WebSockets and HTTP. The test
// speaks on the wire itself as n9, a node of the venue whose key it holds.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { PrivateKeyAccount } from 'viem/accounts'
import { spawnEngine, type EngineProc } from '../faults/process.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { startSecureNats, speaker, dropped, type SecureNats } from './secureNats.js'
import { nodeKeyFromSeed } from '../../engine/cluster/nodeKeys.js'
import { readFileSync } from 'node:fs'
import { newAgent, post, get } from '../api/agentKit.js'
import { Client, account, sign, waitFor, ZERO, type Frame } from '../relay/helpers.js'
import type { Quote } from '../../sdk/types.js'
import { MakerClient } from '../../sdk/maker.js'
import { privateKeyToAccount } from 'viem/accounts'
import { hashShareToken } from '../../actors/book.js'
import { rfqById } from '../../engine/store/rfqQueries.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const AMOUNT = '1000000000000000000'
const DOMAIN = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }
const DUPLICATE = 'Duplicate quote from this maker for this RFQ'
const nowSec = () => Math.floor(Date.now() / 1000)

describe('a cluster of three nodes is one venue', () => {
  let nats: SecureNats
  let db: TestDatabase
  let nodes: EngineProc[]
  let taker: Awaited<ReturnType<typeof newAgent>>

  before(async () => {
    nats = await startSecureNats(['n1', 'n2', 'n3', 'n9'])
    db = await testDatabase('c')
    const env = {
      DATABASE_URL: db.url,
      FILL_VERIFY: 'off',
      RFQ_TTL_SECS: '60',
      RATE_LIMIT_PER_MIN: '100000000',
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      AGENT_RATE_PER_MIN: '100000',
      AGENT_RATE_PER_HOUR: '1000000',
      MAX_ACTIVE_RFQS_PER_WALLET: '1000',
      RELAY_REST_RATE_LIMIT_PER_MIN: '1000000',
      TERMINAL_RATE_LIMIT_PER_MIN: '60',
    }
    nodes = []
    for (const id of ['n1', 'n2', 'n3'])
      nodes.push(
        await spawnEngine({ ...env, ...nats.env(id), DATA_DIR: mkdtempSync(join(tmpdir(), `cluster-${id}-`)) }),
      )
    taker = await newAgent(nodes[0]!.api, ['taker', 'monitor'])
    // every node hears the other two before the venue is used
    for (const n of nodes)
      await waitFor(
        async () => (await get(n.relay, '/health')).body.cluster?.peers?.length,
        len => len === 2,
        10_000,
      )
  })
  after(async () => {
    await Promise.all(nodes.filter(n => n.child.exitCode === null).map(n => n.term()))
    await voice?.close()
    await nats.close()
    await db.drop()
  })
  /** the test's own voice on the wire: node n9 of the venue, signing with its key (one run: one epoch, one numbering) */
  let voice: Awaited<ReturnType<SecureNats['connectAs']>> | undefined
  let n9Speaker: ReturnType<typeof speaker> | undefined
  const n9Key = () => nodeKeyFromSeed(readFileSync(nats.creds.keyFile('n9'), 'utf8'))
  const n9 = async () => {
    voice ??= await nats.connectAs('n9')
    return (n9Speaker ??= speaker(voice, 'n9', n9Key()))
  }
  const heard = async () => {
    await voice?.flush()
  }

  const createRfq = async (node: EngineProc, over: Record<string, unknown> = {}) => {
    const r = await post(
      node.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: AMOUNT, ttlSeconds: 120, ...over },
      taker.headers,
    )
    assert.equal(r.status, 201, JSON.stringify(r.body))
    return r.body as { rfqId: string; shareToken: string | null; expiry: number }
  }
  const quoteFor = async (maker: PrivateKeyAccount, rfq: { expiry: number }, over: Partial<Quote> = {}) => {
    const quote: Quote = {
      maker: maker.address.toLowerCase() as Quote['maker'],
      taker: ZERO,
      tokenIn: WETH,
      tokenOut: USDC,
      amountIn: AMOUNT,
      amountOut: String(2_500_000_000 + Math.floor(Math.random() * 1e6)),
      expiry: rfq.expiry,
      nonce: String(Math.floor(Math.random() * 1e12)),
      deadline: nowSec() + 120,
      ...over,
    }
    return { quote, signature: await sign(maker, DOMAIN, quote) }
  }
  const broadcasts = (c: Client, type: string, rfqId: string) =>
    c.frames.filter(f => f.type === type && f.data.rfqId === rfqId)
  const openAll = () => Promise.all(nodes.filter(n => n.child.exitCode === null).map(n => Client.open(n.relayWs)))

  test('a per-IP limit holds across the venue: hits counted at two nodes count at the third', async () => {
    const terminal = (n: EngineProc) => `http://127.0.0.1:${n.ports.terminal}/options/underlyings`
    for (const n of [nodes[0]!, nodes[1]!]) {
      for (let i = 0; i < 25; i++) assert.equal((await fetch(terminal(n))).status, 200)
    }
    await new Promise(r => setTimeout(r, 400)) // a few sharing batches
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await fetch(terminal(nodes[2]!))).status)
    // 60 a minute for this address across the venue: 50 were spent elsewhere, so the third node grants 10
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429])
    const metrics = await (await fetch(`${nodes[2]!.api}/metrics`)).text()
    assert.ok(Number(/^cluster_limit_hits_absorbed_total (\d+)/m.exec(metrics)?.[1]) >= 50)
  })

  test('fan-out: an RFQ created at one node and a quote submitted at another reach the clients of every node, once each', async () => {
    const clients = await openAll()
    const rfq = await createRfq(nodes[0]!)
    for (const c of clients) await c.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.rfqId, 3000)
    const maker = account()
    const { quote, signature } = await quoteFor(maker, rfq)
    clients[1]!.send('QUOTE_SUBMIT', { rfqId: rfq.rfqId, quote, signature })
    for (const c of clients) {
      const b = await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.rfqId, 3000)
      assert.equal(b.data.signature, signature.toLowerCase())
      assert.deepEqual(b.data.quote, quote)
    }
    for (const c of clients) await c.sync()
    await new Promise(r => setTimeout(r, 200)) // a second copy would have arrived by now
    for (const c of clients) {
      assert.equal(broadcasts(c, 'RFQ_BROADCAST', rfq.rfqId).length, 1)
      assert.equal(broadcasts(c, 'QUOTE_BROADCAST', rfq.rfqId).length, 1)
    }
    // the relay's REST reads and the API agree on every node
    for (const n of nodes) {
      const list = (await get(n.relay, '/rfqs')).body.rfqs.find((x: { id: string }) => x.id === rfq.rfqId)
      assert.equal(list?.quoteCount, 1, `node ${n.api}`)
      const quotes = (await get(n.relay, `/quotes?rfqId=${rfq.rfqId}`)).body
      assert.deepEqual(
        quotes.quotes.map((q: { signature: string }) => q.signature),
        [signature.toLowerCase()],
      )
      const detail = (await get(n.api, `/api/v1/rfqs/${rfq.rfqId}`)).body
      assert.equal(detail.status, 'QUOTED')
    }
    for (const c of clients) await c.close()
  })

  test('a race of makers x distinct quotes x nodes: exactly one broadcast per (RFQ, maker) on every node and one stored row', async () => {
    const observers = await openAll()
    const senders = await Promise.all(nodes.map(n => Client.open(`${n.relayWs}/?channels=rfqs`)))
    const rfqs = await Promise.all([0, 1, 2, 0].map(i => createRfq(nodes[i]!)))
    const makers = Array.from({ length: 10 }, () => account())
    const submissions: { node: number; rfqId: string; maker: string; frame: string }[] = []
    for (const rfq of rfqs)
      for (const maker of makers)
        for (let node = 0; node < 3; node++) {
          const { quote, signature } = await quoteFor(maker, rfq) // three different quotes of one maker, one per node
          submissions.push({
            node,
            rfqId: rfq.rfqId,
            maker: quote.maker,
            frame: JSON.stringify({ type: 'QUOTE_SUBMIT', data: { rfqId: rfq.rfqId, quote, signature } }),
          })
        }
    for (const o of observers)
      await waitFor(
        () => rfqs.every(r => broadcasts(o, 'RFQ_BROADCAST', r.rfqId).length === 1),
        ok => ok,
        3000,
      )
    // all at once: each node's sender fires its share without waiting for answers
    for (const s of submissions) senders[s.node]!.raw(s.frame)
    const pairs = rfqs.length * makers.length
    const seen = (o: Client) =>
      o.frames.filter(f => f.type === 'QUOTE_BROADCAST' && rfqs.some(r => r.rfqId === f.data.rfqId))
    for (const o of observers)
      await waitFor(
        () => seen(o).length,
        n => n >= pairs,
        15_000,
      )
    const errors = () => senders.flatMap(s => s.frames.filter(f => f.type === 'ERROR'))
    await waitFor(
      () => errors().length,
      n => n >= submissions.length - pairs,
      15_000,
    )
    for (const o of [...observers, ...senders]) await o.sync()
    await new Promise(r => setTimeout(r, 300))
    const keyOf = (f: Frame) => `${f.data.rfqId}:${f.data.quote.maker}`
    for (const o of observers) {
      const keys = seen(o).map(keyOf)
      assert.equal(keys.length, pairs, 'one broadcast per (RFQ, maker) on this node')
      assert.equal(new Set(keys).size, pairs)
    }
    // every node broadcast the same quote (the stored one) for each pair
    const chosen = (o: Client) => new Map(seen(o).map(f => [keyOf(f), f.data.signature]))
    const first = chosen(observers[0]!)
    for (const o of observers.slice(1)) assert.deepEqual(chosen(o), first)
    assert.deepEqual(
      errors()
        .map(f => f.data.message)
        .filter(m => m !== DUPLICATE),
      [],
      'the only refusal is the duplicate',
    )
    assert.equal(errors().length, submissions.length - pairs)
    const stored =
      await db.sql`select rfq_id || ':' || maker as k, signature from quote_rows where rfq_id in ${db.sql(rfqs.map(r => r.rfqId))}`
    assert.equal(stored.length, pairs, 'one stored row per (RFQ, maker)')
    assert.deepEqual(
      new Map(stored.map(r => [r.k as string, r.signature as string])),
      first,
      'the broadcast quote is the stored one',
    )
    assert.deepEqual(
      await Promise.all(rfqs.map(async r => (await rfqById(db.sql, r.rfqId))?.quoteCount)),
      rfqs.map(() => makers.length),
    )
    for (const c of [...observers, ...senders]) await c.close()
  })

  test('a cancel at one node is refused everywhere within a second; a fill at one node closes the RFQ on every node', async () => {
    const clients = await openAll()
    const rfq = await createRfq(nodes[1]!)
    for (const c of clients) await c.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.rfqId, 3000)
    const r = await post(nodes[0]!.api, `/api/v1/rfqs/${rfq.rfqId}/cancel`, {}, taker.headers)
    assert.equal(r.status, 200, JSON.stringify(r.body))
    const cancelledAt = Date.now()
    for (const n of [nodes[1]!, nodes[2]!]) {
      await waitFor(
        async () => (await get(n.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === rfq.rfqId),
        listed => !listed,
        1000,
      )
    }
    assert.ok(Date.now() - cancelledAt < 1000)
    const maker = account()
    for (const c of clients.slice(1)) {
      const e = await c.error({ rfqId: rfq.rfqId, ...(await quoteFor(maker, rfq)) })
      assert.equal(e.code, 'RFQ_NOT_FOUND')
      c.send('CANCEL_REQUEST', { rfqId: rfq.rfqId })
      assert.equal((await c.nextOf('ERROR')).data.code, 'RFQ_NOT_FOUND')
    }
    const again = await post(nodes[2]!.api, `/api/v1/rfqs/${rfq.rfqId}/cancel`, {}, taker.headers)
    assert.equal(again.status, 409, JSON.stringify(again.body))
    assert.equal(again.body.code, 'NOT_OPEN')
    assert.equal((await db.sql`select count(*)::int as n from quote_rows where rfq_id = ${rfq.rfqId}`)[0]!.n, 0)

    const toFill = await createRfq(nodes[2]!)
    for (const c of clients) await c.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === toFill.rfqId, 3000)
    const fill = await post(
      nodes[1]!.api,
      `/api/v1/agent/rfqs/${toFill.rfqId}/fill`,
      {
        txHash: '0x' + randomBytes(32).toString('hex'),
        maker: maker.address,
        amountIn: AMOUNT,
        amountOut: '2500000000',
        amountInUsd: 2500,
      },
      taker.headers,
    )
    assert.equal(fill.status, 200, JSON.stringify(fill.body))
    for (const n of [nodes[0]!, nodes[2]!]) {
      await waitFor(
        async () => (await get(n.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === toFill.rfqId),
        listed => !listed,
        1000,
      )
    }
    const e = await clients[2]!.error({ rfqId: toFill.rfqId, ...(await quoteFor(account(), toFill)) })
    assert.equal(e.code, 'RFQ_NOT_FOUND')
    assert.equal((await post(nodes[0]!.api, `/api/v1/rfqs/${toFill.rfqId}/cancel`, {}, taker.headers)).status, 409)
    for (const c of clients) await c.close()
  })

  test('a private RFQ created at one node stays sealed on the others; its token holder on another node sees and quotes it', async () => {
    const rfq = await createRfq(nodes[0]!, { visibility: 'private' })
    assert.ok(rfq.shareToken)
    const stranger = await Client.open(nodes[2]!.relayWs)
    const holder = await Client.open(nodes[2]!.relayWs)
    holder.send('SUBSCRIBE', { shareToken: rfq.shareToken })
    const subscribed = await holder.nextOf('SUBSCRIBED')
    assert.deepEqual(subscribed.data.rfqIds, [rfq.rfqId], 'the other node knows the RFQ by its token')
    assert.equal((await holder.next(f => f.type === 'RFQ_BROADCAST')).data.rfqId, rfq.rfqId)
    const maker = account()
    const e = await stranger.error({ rfqId: rfq.rfqId, ...(await quoteFor(maker, rfq)) })
    assert.equal(e.code, 'RFQ_NOT_FOUND', 'without the token it does not exist')
    holder.send('QUOTE_SUBMIT', { rfqId: rfq.rfqId, ...(await quoteFor(maker, rfq)) })
    const b = await holder.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.rfqId)
    assert.equal(b.data.quote.maker, maker.address.toLowerCase())
    await stranger.sync()
    assert.equal(
      stranger.frames.filter(f => f.data?.rfqId === rfq.rfqId && f.type !== 'ERROR').length,
      0,
      'nothing of it reached the stranger',
    )
    for (const n of nodes) {
      assert.ok(
        !(await get(n.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === rfq.rfqId),
        'not listed without the token',
      )
      assert.equal((await get(n.relay, `/quotes?rfqId=${rfq.rfqId}`)).status, 404)
      // the quote's word reaches the other nodes within a batch (CLUSTER_BATCH_MS) and a NATS hop
      const sealed = await waitFor(
        () => get(n.relay, `/quotes?rfqId=${rfq.rfqId}&shareToken=${rfq.shareToken}`),
        r => r.body.count === 1,
        1000,
      )
      assert.equal(sealed.status, 200)
      assert.equal(sealed.body.count, 1)
    }
    await stranger.close()
    await holder.close()
  })

  test('a private RFQ whose word never left its node (stored, then the node died) is found by its token on another node, and nothing by a token that opens nothing', async () => {
    // what a node leaves behind when kill -9 lands between its commit and its next batch: the row, no word
    const id = `rfq_${randomBytes(16).toString('hex')}`,
      token = randomBytes(24).toString('base64url'),
      expiry = nowSec() + 120
    const adopted = async () =>
      Number(/^cluster_rfqs_adopted_total (\d+)/m.exec(await (await fetch(`${nodes[2]!.api}/metrics`)).text())?.[1])
    const before = await adopted()
    await db.sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, share_token_hash)
      values (${id}, ${ZERO}, ${WETH}, ${USDC}, 0, ${AMOUNT}, ${expiry}, 'private', ${hashShareToken(token)})`
    // a poller holding the token finds it at once at a node that never heard of it; a wrong token finds nothing
    const polled = (t: string) =>
      get(nodes[0]!.relay, `/rfqs?shareToken=${t}`).then(r => r.body.rfqs.map((x: { id: string }) => x.id))
    assert.ok(!(await polled(randomBytes(24).toString('base64url'))).includes(id))
    assert.ok((await polled(token)).includes(id), 'listed at the first poll')
    const holder = await Client.open(nodes[2]!.relayWs)
    holder.send('SUBSCRIBE', { shareToken: randomBytes(24).toString('base64url') })
    assert.deepEqual((await holder.nextOf('SUBSCRIBED')).data.rfqIds, [], 'a token that opens nothing finds nothing')
    holder.send('SUBSCRIBE', { shareToken: token })
    assert.deepEqual((await holder.nextOf('SUBSCRIBED')).data.rfqIds, [id])
    await holder.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === id)
    await holder.sync()
    assert.equal(broadcasts(holder, 'RFQ_BROADCAST', id).length, 1, 'announced once')
    assert.equal(await adopted(), before + 1)
    const maker = account()
    holder.send('QUOTE_SUBMIT', { rfqId: id, ...(await quoteFor(maker, { expiry })) })
    const b = await holder.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === id)
    assert.equal(b.data.quote.maker, maker.address.toLowerCase())
    assert.equal((await db.sql`select count(*)::int as n from quote_rows where rfq_id = ${id}`)[0]!.n, 1)
    await holder.close()
  })

  test("a taker cancels at a node its creation's word has not reached (API, relay, past the TTL): it is cancelled, and the late word brings no ghost back", async () => {
    const { toWire } = await import('../../engine/cluster/wireEvents.js')
    const b = nodes[1]!
    const watcher = await Client.open(b.relayWs)
    // what the creating node leaves while its word is on the way: the row, committed before the taker was answered
    const stored = async (createdAgoMs = 0) => {
      const rfq = {
        id: `rfq_${randomBytes(16).toString('hex')}`,
        taker: taker.agent.address.toLowerCase() as `0x${string}`,
        tokenIn: WETH as `0x${string}`,
        tokenOut: USDC as `0x${string}`,
        kind: 0 as const,
        amountIn: BigInt(AMOUNT),
        amountOut: null,
        expiry: nowSec() + 120,
        visibility: 'public' as const,
        allowedMakers: [],
        shareToken: null,
        createdAt: new Date(Date.now() - createdAgoMs),
        agentId: taker.agentId,
      }
      await db.sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, agent_id, created_at, created_day)
        values (${rfq.id}, ${rfq.taker}, ${WETH}, ${USDC}, 0, ${AMOUNT}, ${rfq.expiry}, 'public', ${rfq.agentId}, ${rfq.createdAt},
          ${rfq.createdAt.toISOString().slice(0, 10)})`
      return rfq
    }
    const viaApi = await stored(),
      viaRelay = await stored(),
      pastTtl = await stored(61_000) // RFQ_TTL_SECS is 60 here
    assert.equal((await post(b.api, `/api/v1/rfqs/${viaApi.id}/cancel`, {}, taker.headers)).status, 200)
    assert.equal((await post(b.api, `/api/v1/rfqs/${pastTtl.id}/cancel`, {}, taker.headers)).status, 200)
    watcher.send('CANCEL_REQUEST', { rfqId: viaRelay.id }) // a success has no reply (spec): the store says
    const status = async () =>
      (await db.sql`select status from rfqs where id in ${db.sql([viaApi.id, viaRelay.id, pastTtl.id])}`).map(
        r => r.status as string,
      )
    await waitFor(status, all => all.every(s => s === 'CANCELLED'), 2000)
    await watcher.sync()
    assert.deepEqual(watcher.of('ERROR'), [], 'the relay cancels an RFQ its node had not heard of yet')

    // the creating node's word arrives late, then one more RFQ's, in order on one connection
    const marker = await stored()
    const created = (rfq: typeof marker) => toWire({ type: 'rfq.created', rfq, shareTokenHash: null })!
    ;(await n9()).send('events', [created(viaApi), created(viaRelay), created(pastTtl), created(marker)])
    await heard()
    await watcher.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === marker.id, 3000)
    await watcher.sync()
    const ghosts = [viaApi.id, viaRelay.id, pastTtl.id]
    // each was announced once, when it joined the book before its cancel (the one older than RFQ_TTL_SECS too: the
    // TTL never ends an RFQ before its own expiry); none is announced again by its late word
    const announced = (id: string) => broadcasts(watcher, 'RFQ_BROADCAST', id).length
    assert.deepEqual(ghosts.map(announced), [1, 1, 1], 'no cancelled RFQ announced again')
    const listed = (await get(b.relay, '/rfqs')).body.rfqs.map((x: { id: string }) => x.id)
    assert.ok(listed.includes(marker.id))
    assert.deepEqual(
      listed.filter((id: string) => ghosts.includes(id)),
      [],
      'no cancelled RFQ listed again',
    )
    assert.equal((await post(b.api, `/api/v1/rfqs/${marker.id}/cancel`, {}, taker.headers)).status, 200)
    await watcher.close()
  })

  test('before the word: a maker holding the token from connect quotes without repeating it; a repeat cancel after the store closed the RFQ says how it ended', async () => {
    const id = `rfq_${randomBytes(16).toString('hex')}`,
      token = randomBytes(24).toString('base64url'),
      expiry = nowSec() + 120
    await db.sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, share_token_hash)
      values (${id}, ${ZERO}, ${WETH}, ${USDC}, 0, ${AMOUNT}, ${expiry}, 'private', ${hashShareToken(token)})`
    const maker = account()
    const holder = await Client.open(`${nodes[0]!.relayWs}/?shareToken=${token}`)
    holder.send('QUOTE_SUBMIT', { rfqId: id, ...(await quoteFor(maker, { expiry })) })
    const b = await holder.next(f => (f.type === 'QUOTE_BROADCAST' || f.type === 'ERROR') && f.data.rfqId === id)
    assert.equal(b.type, 'QUOTE_BROADCAST', JSON.stringify(b.data))
    assert.equal((await db.sql`select count(*)::int as n from quote_rows where rfq_id = ${id}`)[0]!.n, 1)
    await holder.close()

    // another node cancelled it in the store and its word is late: this node's actor still has it open
    const watcher = await Client.open(nodes[1]!.relayWs)
    const rfq = await createRfq(nodes[0]!)
    await watcher.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.rfqId, 3000)
    await db.sql`update rfqs set status = 'CANCELLED', cancelled_at = now() where id = ${rfq.rfqId}`
    const again = await post(nodes[1]!.api, `/api/v1/rfqs/${rfq.rfqId}/cancel`, {}, taker.headers)
    assert.equal(again.status, 409, JSON.stringify(again.body))
    assert.deepEqual([again.body.code, again.body.status], ['NOT_OPEN', 'CANCELLED'])
    // and the refused write made the node learn how it ended
    await waitFor(
      async () => (await get(nodes[1]!.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === rfq.rfqId),
      listed => !listed,
      2000,
    )
    await watcher.close()
  })

  test('hostile cluster messages (unsigned, signed by another node, oversized, replayed, not a message, a batch of bad events, bad limit hits) are dropped and counted by reason; the venue goes on', async () => {
    const { Packr } = await import('msgpackr')
    const { sign } = await import('node:crypto')
    const packr = new Packr({ useRecords: false })
    const speak = await n9()
    const before = await Promise.all(nodes.map(n => dropped(n.api)))
    speak.raw('events', new Uint8Array([0xc1, 0xff, 0x00])) // no signature
    speak.raw('events', packr.pack({ n: 'n9', s: 1, e: [] })) // an unsigned batch (v2)
    speak.raw('nodes', new Uint8Array(70_000)) // zeros: a signature that does not verify
    speak.raw('events', new Uint8Array(600 * 1024)) // past MAX_MESSAGE_BYTES: not even read
    const junk = Buffer.from('signed, but no message')
    speak.raw('events', Buffer.concat([sign(null, junk, n9Key().privateKey), junk])) // signed, not msgpack
    speak.send('events', { n: 'x', s: 'one', e: 7 }) // signed, not a batch
    speak.send('nodes', -1) // signed, not a heartbeat
    speaker(voice!, 'n1', n9Key()).send('events', []) // n9's key, saying it is n1
    const first = speak.send('events', [
      { t: 'nonsense' },
      { t: 'created', rfq: { amountIn: 'not a number' } },
      null,
      { t: 'created', rfq: { amountIn: null, amountOut: null, createdAt: 0 } },
      { t: 'quoted', q: ['rfq_x'] },
      ['rfq_x'],
      ['rfq_x', '0xab', null, null, null, null, null, 1, '1', 1, 7, 'not a time'],
      // times past Date's range: once printed by the feed's replay, they would have thrown outside every guard
      {
        t: 'created',
        h: null,
        rfq: {
          id: 'rfq_far',
          taker: ZERO,
          tokenIn: WETH,
          tokenOut: USDC,
          kind: 0,
          amountIn: '1',
          amountOut: null,
          expiry: nowSec() + 60,
          createdAt: 1e16,
          visibility: 'public',
          allowedMakers: [],
          agentId: null,
        },
      },
      ['rfq_far', '0xab', 0, WETH, USDC, '1', '2', 1, '1', 1, '0xab', 1e17],
    ])
    speak.raw('events', first) // the same batch again
    speak.send('limits', [['relay.ws', '127.0.0.1', -5], ['api', 7, 1], 'x', ['terminal', '1.2.3.4', 1e12]])
    await heard()
    const expected = { bad_signature: 3, oversized: 1, malformed: 3, wrong_origin: 1, bad_event: 9, replayed: 1 }
    const total = Object.values(expected).reduce((x, y) => x + y, 0)
    for (const [i, n] of nodes.entries()) {
      const now = await waitFor(
        () => dropped(n.api),
        d => d.all >= before[i]!.all + total,
        3000,
      )
      assert.deepEqual(
        Object.fromEntries(Object.keys(expected).map(r => [r, (now[r] ?? 0) - (before[i]![r] ?? 0)])),
        expected,
        n.api,
      )
    }
    // the feed's replay, from its start, still answers (nothing unprintable reached it)
    const feed = new AbortController()
    const stream = await fetch(`${nodes[2]!.api}/api/v1/feed`, {
      headers: { 'last-event-id': '0' },
      signal: feed.signal,
    })
    assert.equal(stream.status, 200)
    assert.match(new TextDecoder().decode((await stream.body!.getReader().read()).value), /: connected/)
    feed.abort()
    // quotes for RFQs nobody has: a few are read one by one; a message of many costs one reconcile, not a read each
    const reconciles = async () =>
      Number(/^cluster_reconciles_total (\d+)/m.exec(await (await fetch(`${nodes[2]!.api}/metrics`)).text())?.[1])
    const unknownQuotes = (n: number) =>
      Array.from({ length: n }, () => [
        `rfq_${randomBytes(8).toString('hex')}`,
        '0xab',
        null,
        null,
        null,
        null,
        null,
        1,
        '1',
        1,
        '0xab',
        Date.now(),
      ])
    const r0 = await reconciles()
    speak.send('events', unknownQuotes(16))
    await heard()
    await new Promise(r => setTimeout(r, 300))
    assert.equal(await reconciles(), r0, 'sixteen unknown RFQs are read one by one')
    speak.send('events', unknownQuotes(500))
    await heard()
    await waitFor(reconciles, n => n > r0, 3000)
    // tokens no client should send reach the store lookup harmlessly: found nothing, said so, never a 500
    const hostileTokens = ['x'.repeat(10_000), '\u0000é', "' or 1=1 --", '%']
    const prober = await Client.open(nodes[2]!.relayWs)
    for (const shareToken of hostileTokens) {
      prober.send('SUBSCRIBE', { shareToken })
      assert.deepEqual((await prober.nextOf('SUBSCRIBED')).data.rfqIds, [])
      const polled = await get(nodes[1]!.relay, `/rfqs?shareToken=${encodeURIComponent(shareToken)}`)
      // a list without it, or a 4xx with a code (control characters are refused at the door)
      assert.ok(
        polled.status === 200
          ? !polled.body.rfqs.some((x: { visibility: string }) => x.visibility === 'private')
          : polled.status === 400 && typeof polled.body.code === 'string',
        `${polled.status} ${JSON.stringify(polled.body)}`,
      )
    }
    prober.send('SUBSCRIBE', { shareToken: '\ud800' }) // a lone surrogate
    assert.deepEqual((await prober.nextOf('SUBSCRIBED')).data.rfqIds, [])
    assert.ok(
      [200, 400].includes((await get(nodes[1]!.relay, '/rfqs?shareToken=%E0%A4%A')).status),
      'a broken escape is no token, never a 500',
    )
    await prober.close()
    // no ghost peer from a heartbeat that is not a node's name
    assert.deepEqual((await get(nodes[2]!.relay, '/health')).body.cluster.peers, ['n1', 'n2'])
    // every node still serves, and still fans out
    const clients = await openAll()
    const rfq = await createRfq(nodes[0]!)
    for (const c of clients) await c.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.rfqId, 3000)
    for (const c of clients) await c.close()
  })

  test("a batch lost on the way (or sent into a dropped link) is seen from its node's next heartbeat, even with no batch after it: every node reconciles and shows what was stored", async () => {
    const reconciles = async (n: EngineProc) =>
      Number(/^cluster_reconciles_total (\d+)/m.exec(await (await fetch(`${n.api}/metrics`)).text())?.[1])
    const watcher = await Client.open(nodes[2]!.relayWs)
    const speak = await n9()
    const sent = speak.last('events')
    speak.send('nodes', sent) // n9, whose every batch was heard everywhere
    await heard()
    for (const n of nodes)
      await waitFor(
        async () => (await get(n.relay, '/health')).body.cluster.peers,
        p => p.includes('n9'),
        3000,
      )
    const before = await Promise.all(nodes.map(reconciles))
    // its sixth and seventh never arrived; one created this RFQ, stored before its word left
    const id = `rfq_${randomBytes(16).toString('hex')}`
    await db.sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility)
      values (${id}, ${ZERO}, ${WETH}, ${USDC}, 0, ${AMOUNT}, ${nowSec() + 120}, 'public')`
    speak.send('nodes', sent + 2) // it sent two more, which never arrived
    await heard()
    for (const [i, n] of nodes.entries())
      await waitFor(
        () => reconciles(n),
        k => k > before[i]!,
        3000,
      )
    await watcher.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === id, 3000)
    for (const n of nodes)
      await waitFor(
        async () => (await get(n.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === id),
        ok => ok,
        3000,
      )
    await watcher.close()
  })

  test('a NATS outage: nodes keep serving, and when NATS is back they catch up from the store without a restart', async () => {
    const watcher = await Client.open(nodes[2]!.relayWs)
    await nats.stop()
    await waitFor(
      async () => (await get(nodes[2]!.relay, '/health')).body.cluster.nats,
      s => s === 'reconnecting',
      5000,
    )
    const rfq = await createRfq(nodes[0]!) // its word cannot travel now
    // a maker at another node still quotes it: the node reads the RFQ from the store
    const maker = account()
    const other = await Client.open(nodes[1]!.relayWs)
    other.send('QUOTE_SUBMIT', { rfqId: rfq.rfqId, ...(await quoteFor(maker, rfq)) })
    await other.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.rfqId, 3000)
    await nats.start() // back on the same address, with the same users
    for (const n of nodes)
      await waitFor(
        async () => (await get(n.relay, '/health')).body.cluster.nats,
        s => s === 'connected',
        10_000,
      )
    // the third node reconciles with the store: its client now hears of the RFQ and its quote, once
    await watcher.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.rfqId, 5000)
    await watcher.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.rfqId, 5000)
    assert.equal((await get(nodes[2]!.relay, `/quotes?rfqId=${rfq.rfqId}`)).body.count, 1)
    await watcher.close()
    await other.close()
  })

  test('kill -9 of a node mid-stream: every quote a client saw broadcast is stored; its RFQs are quotable within 5 s, cancellable, and expire', async t => {
    const [victim, b, c] = nodes as [EngineProc, EngineProc, EngineProc]
    const observers = await Promise.all([b, c].map(n => Client.open(n.relayWs)))
    const victimClient = await Client.open(victim.relayWs)
    const rfqs = await Promise.all([0, 1, 2].map(() => createRfq(victim)))
    const short = await createRfq(victim, { ttlSeconds: 10 })
    for (const o of [...observers, victimClient])
      await waitFor(
        () => rfqs.every(r => broadcasts(o, 'RFQ_BROADCAST', r.rfqId).length),
        ok => ok,
        3000,
      )
    const senders = await Promise.all([victim, b, c].map(n => Client.open(`${n.relayWs}/?channels=rfqs`)))
    // a maker on the SDK, connected to the victim, with the venue's other nodes to fall back on
    const sdkKey = `0x${randomBytes(32).toString('hex')}` as const
    const sdk = new MakerClient({
      url: victim.relayWs,
      fallbackUrls: [b.relayWs, c.relayWs],
      privateKey: sdkKey,
      reconnect: { initialDelayMs: 200 },
    })
    await sdk.connect()
    t.after(() => sdk.close()) // even when an assertion fails: a reconnecting SDK keeps its process alive
    const reconnected = new Promise<number>(resolve => sdk.on('reconnected', () => resolve(Date.now())))
    const makers = Array.from({ length: 30 }, () => account())
    const frames: { node: number; frame: string }[] = []
    for (const [i, maker] of makers.entries())
      for (const rfq of rfqs) {
        frames.push({
          node: i % 3,
          frame: JSON.stringify({ type: 'QUOTE_SUBMIT', data: { rfqId: rfq.rfqId, ...(await quoteFor(maker, rfq)) } }),
        })
      }
    const reconciles = async (n: EngineProc) =>
      Number(/^cluster_reconciles_total (\d+)/m.exec(await (await fetch(`${n.api}/metrics`)).text())?.[1])
    const reconcilesBefore = await Promise.all([b, c].map(reconciles))
    // a stream across the three nodes; the victim dies a third of the way in
    let killed: Promise<number> | undefined
    for (const [i, f] of frames.entries()) {
      if (i === Math.floor(frames.length / 3)) killed = victim.kill9()
      const s = senders[f.node]!
      if (s.ws.readyState === s.ws.OPEN) s.raw(f.frame)
      if (i % 10 === 9) await new Promise(r => setTimeout(r, 5))
    }
    await killed
    const diedAt = Date.now()
    await new Promise(r => setTimeout(r, 1500))
    const seen = new Set<string>()
    for (const o of [...observers, victimClient])
      for (const f of o.frames) if (f.type === 'QUOTE_BROADCAST') seen.add(`${f.data.rfqId}:${f.data.quote.maker}`)
    assert.ok(seen.size > 0)
    const stored = new Set(
      (
        await db.sql`select rfq_id || ':' || maker as k from quote_rows where rfq_id in ${db.sql(rfqs.map(r => r.rfqId))}`
      ).map(r => r.k as string),
    )
    for (const k of seen) assert.ok(stored.has(k), `broadcast but not stored: ${k}`)
    // what the victim stored in its last moments may have died in its outbox: when its heartbeats stop, the
    // survivors read the store, and show every stored quote of its RFQs
    for (const [i, n] of [b, c].entries())
      await waitFor(
        () => reconciles(n),
        k => k > reconcilesBefore[i]!,
        6000,
      )
    // the store and the node read together at each try: quotes sent to the survivors may still be committing when
    // the first try reads (under load), and the store's count is the truth to meet, not one read of it
    for (const n of [b, c])
      for (const r of rfqs)
        await waitFor(
          async () => ({
            inStore: (await db.sql`select count(*)::int as n from quote_rows where rfq_id = ${r.rfqId}`)[0]!
              .n as number,
            shown: (await get(n.relay, `/quotes?rfqId=${r.rfqId}`)).body.count as number,
          }),
          k => k.shown === k.inStore,
          3000,
        )

    // the dead node's RFQs take quotes through the survivors within 5 s, and can be cancelled there
    const late = account()
    const quotedAt = await waitFor(
      async () => {
        const e = observers[0]!
        e.send('QUOTE_SUBMIT', { rfqId: rfqs[0]!.rfqId, ...(await quoteFor(late, rfqs[0]!)) })
        try {
          await e.next(f => f.type === 'QUOTE_BROADCAST' && f.data.quote.maker === late.address.toLowerCase(), 500)
          return Date.now()
        } catch {
          return 0
        }
      },
      at => at > 0,
      5000,
    )
    assert.ok(quotedAt - diedAt < 5000)
    // the SDK maker went on through a survivor, and quotes the dead node's RFQ there
    assert.ok((await reconnected) - diedAt < 5000)
    const sdkResult = await sdk.quote(rfqs[2]!.rfqId, {
      ...(await quoteFor(account(), rfqs[2]!)).quote,
      maker: privateKeyToAccount(sdkKey).address.toLowerCase() as Quote['maker'],
    })
    assert.equal(sdkResult.ok, true, JSON.stringify(sdkResult))
    await sdk.close()
    await observers[1]!.next(
      f => f.type === 'QUOTE_BROADCAST' && f.data.quote.maker === late.address.toLowerCase(),
      3000,
    )
    const cancel = await post(c.api, `/api/v1/rfqs/${rfqs[1]!.rfqId}/cancel`, {}, taker.headers)
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body))
    // its TTLs still fire: the 10-second RFQ expires on the survivors and is stored EXPIRED
    await waitFor(
      async () => (await db.sql`select status from rfqs where id = ${short.rfqId}`)[0]!.status,
      s => s === 'EXPIRED',
      15_000,
    )
    for (const n of [b, c])
      assert.ok(!(await get(n.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === short.rfqId))
    for (const o of [...observers, ...senders.slice(1)]) await o.close()
  })
})
