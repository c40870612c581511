// The wire between the nodes, attacked: three nodes and one PostgreSQL on a nats-server run as a venue runs it
// (TLS, an nkey per node, each allowed to publish under its own key). An anonymous or plain-text client is
// refused; a node's credential cannot publish under another node's key; and a credential with rights no node
// has (an operator's tool, or a nats-server in an attacker's hands: "ops" here) can still not make a node list,
// broadcast or store anything: its forgeries, alterations and replays are dropped and counted by reason, the five
// forgeries of issue 28 among them. The bytes a listener between a node and nats-server sees hold no id, no
// address and no signature. Real processes, real NATS, real WebSockets and HTTP.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect as tcp } from 'node:net'
import { randomBytes } from 'node:crypto'
import { Packr } from 'msgpackr'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { spawnEngine, type EngineProc } from '../faults/process.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { newAgent, post, get } from '../api/agentKit.js'
import { Client, account, sign, waitFor, ZERO } from '../relay/helpers.js'
import { startSecureNats, extraUser, speaker, dropped, TEST_VENUE, type SecureNats } from './secureNats.js'
import { sniffer, type Sniffer } from './sniffer.js'
import { nodeKeyFromSeed } from '../../engine/cluster/nodeKeys.js'
import { subjectOf, CHANNELS, type Channel } from '../../engine/cluster/subjects.js'
import { hashShareToken } from '../../actors/book.js'
import fc from 'fast-check'
import { toWire } from '../../engine/cluster/wireEvents.js'
import type { Quote } from '../../sdk/types.js'
import type { Rfq } from '../../actors/rfqTypes.js'
import { newRfqId } from '../../engine/rfq/request.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const AMOUNT = '1000000000000000000'
const DOMAIN = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }
const nowSec = () => Math.floor(Date.now() / 1000)
const packr = new Packr({ useRecords: false })
const hex = (n: number) => randomBytes(n).toString('hex')

describe('a hostile wire: three nodes, one PostgreSQL, nats-server as a venue runs it', () => {
  let nats: SecureNats
  let db: TestDatabase
  let nodes: EngineProc[]
  let sniff: Sniffer
  let ops: NatsConnection
  const opsUser = extraUser('>', '>') // rights no node has
  const captured: { subject: string; data: Uint8Array }[] = [] // copies: a message's bytes are the client's buffer
  let taker: Awaited<ReturnType<typeof newAgent>>
  const keyOf = (id: string) => nodeKeyFromSeed(readFileSync(nats.creds.keyFile(id), 'utf8'))

  before(async () => {
    // n4 is listed but never started: the test holds its key, as whoever stole a node's key would
    nats = await startSecureNats(['n1', 'n2', 'n3', 'n4'], { users: [opsUser.line] })
    sniff = await sniffer(nats.server.port)
    db = await testDatabase('c')
    const env = {
      DATABASE_URL: db.url,
      FILL_VERIFY: 'off',
      RATE_LIMIT_PER_MIN: '100000000',
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      AGENT_RATE_PER_MIN: '100000',
      AGENT_RATE_PER_HOUR: '1000000',
      MAX_ACTIVE_RFQS_PER_WALLET: '10',
      RELAY_REST_RATE_LIMIT_PER_MIN: '600',
    }
    nodes = []
    for (const id of ['n1', 'n2', 'n3']) {
      // n3 reaches nats-server through the listener
      const url = id === 'n3' ? `tls://127.0.0.1:${sniff.port}` : nats.url
      nodes.push(
        await spawnEngine({ ...env, ...nats.env(id, url), DATA_DIR: mkdtempSync(join(tmpdir(), `hostile-${id}-`)) }),
      )
    }
    for (const n of nodes)
      await waitFor(
        async () => (await get(n.relay, '/health')).body.cluster?.peers?.length,
        len => len === 2,
        10_000,
      )
    ops = await nats.connectAs(opsUser.key)
    ops.subscribe('rfq.v3.>', {
      callback: (err, msg) => {
        if (!err) captured.push({ subject: msg.subject, data: Uint8Array.from(msg.data) })
      },
    })
    await ops.flush()
    taker = await newAgent(nodes[0]!.api, ['taker', 'monitor'])
  })
  after(async () => {
    await ops?.close()
    await Promise.all(nodes.filter(n => n.child.exitCode === null).map(n => n.term()))
    await sniff.close()
    await nats.close()
    await db.drop()
  })

  const createRfq = async (node: EngineProc, agent = taker, over: Record<string, unknown> = {}) => {
    const r = await post(
      node.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: AMOUNT, ttlSeconds: 120, ...over },
      agent.headers,
    )
    return r as { status: number; body: { rfqId: string; shareToken: string | null; expiry: number } }
  }
  const quoteFor = async (maker: ReturnType<typeof account>, rfq: { expiry: number }) => {
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
    }
    return { quote, signature: await sign(maker, DOMAIN, quote) }
  }
  const listedAnywhere = async (id: string) => {
    for (const n of nodes)
      if ((await get(n.relay, '/rfqs')).body.rfqs.some((x: { id: string }) => x.id === id)) return true
    return false
  }
  const openAll = () => Promise.all(nodes.map(n => Client.open(n.relayWs)))
  /** a forged RFQ as the wire carries one: the forger knows the format, not the key */
  const forgedRfq = (over: Partial<Rfq> = {}): Rfq => ({
    id: newRfqId(Date.now()),
    taker: taker.agent.address.toLowerCase() as Rfq['taker'],
    tokenIn: WETH,
    tokenOut: USDC,
    kind: 0,
    amountIn: BigInt(AMOUNT),
    amountOut: null,
    expiry: nowSec() + 300,
    visibility: 'public',
    allowedMakers: [],
    shareToken: null,
    createdAt: new Date(),
    agentId: taker.agentId,
    ...over,
  })
  const created = (rfq: Rfq) => toWire({ type: 'rfq.created', rfq, shareTokenHash: null })!
  /** what ops sends as n1: signed with its own key under n1's subject, unsigned, or under a key no node has */
  const asN1 = () => speaker(ops, 'n1', opsUser.key, { subjectKey: keyOf('n1').publicKey })
  const allDropped = () => Promise.all(nodes.map(n => dropped(n.api)))

  test('an anonymous client and a plain-text client are refused by nats-server', async () => {
    await assert.rejects(
      connect({ servers: nats.url, tls: { caFile: nats.creds.caFile } }),
      (e: Error) => e.name === 'AuthorizationError' && /Authorization Violation/.test(e.message),
    )
    // in clear: nats-server's greeting says TLS is required, and what follows in clear ends the connection unanswered
    const answer = await new Promise<string>(resolve => {
      const sock = tcp(nats.server.port, '127.0.0.1')
      let buf = ''
      sock.on('data', d => {
        buf += d.toString()
        if (buf.includes('\r\n') && !buf.includes('CONNECT-SENT')) {
          buf += 'CONNECT-SENT'
          sock.write(
            `CONNECT {"verbose":true,"pedantic":false}\r\nPUB ${subjectOf(TEST_VENUE, keyOf('n1').publicKey, 'events')} 2\r\nhi\r\nPING\r\n`,
          )
        }
      })
      sock.on('close', () => resolve(buf))
      sock.on('error', () => {})
    })
    assert.match(answer, /^INFO \{.*"tls_required":true.*\}/)
    assert.doesNotMatch(answer, /PONG|\+OK/, 'nothing said in clear is answered')
    assert.match(nats.server.log(), /TLS handshake error: tls: first record does not look like a TLS handshake/)
  })

  test("a node's credential publishing under another node's key is refused by nats-server; signing as another node under its own is dropped", async () => {
    const before = await allDropped()
    const received = async () =>
      Promise.all(
        nodes.map(async n =>
          Number(/^cluster_events_received_total (\d+)/m.exec(await (await fetch(`${n.api}/metrics`)).text())?.[1]),
        ),
      )
    const r0 = await received()
    const n4 = await nats.connectAs('n4')
    const refused = (async () => {
      for await (const s of n4.status()) if (s.type === 'error') return String(s.error?.message)
    })()
    const rfq = forgedRfq()
    speaker(n4, 'n4', keyOf('n4'), { subjectKey: keyOf('n1').publicKey }).send('events', [created(rfq)])
    assert.match(
      String(await refused),
      /Permissions Violation for Publish to "rfq\.v3\.31337\.0x0{40}\.U[A-Z2-7]{55}\.events"/,
    )
    await waitFor(
      () => nats.server.log(),
      log => /Publish Violation - Nkey "U[A-Z2-7]{55}", Subject "rfq\.v3\.[^"]+\.events"/.test(log),
      3000,
    )
    // under its own key, saying it is n1: signed by the key its subject names, but not that node's word
    speaker(n4, 'n1', keyOf('n4')).send('events', [created(rfq)])
    await n4.flush()
    await n4.close()
    const after = await waitFor(allDropped, all => all.every((d, i) => d.all > before[i]!.all), 3000)
    for (const [i, d] of after.entries())
      assert.equal(d.wrong_origin! - (before[i]!.wrong_origin ?? 0), 1, nodes[i]!.api)
    assert.deepEqual(await received(), r0, 'no event of either reached a book')
    assert.equal(await listedAnywhere(rfq.id), false)
  })

  test('forged, altered and replayed batches are dropped and counted; no node lists, broadcasts, stores or counts anything of them', async () => {
    const watchers = await openAll()
    const before = await allDropped()
    // a genuine batch of n1's, as ops reads it off the wire: the creation of an RFQ
    const genuine = await createRfq(nodes[0]!)
    assert.equal(genuine.status, 201)
    const n1Events = subjectOf(TEST_VENUE, keyOf('n1').publicKey, 'events')
    const original = await waitFor(
      () => captured.find(m => m.subject === n1Events && Buffer.from(m.data).includes(genuine.body.rfqId)),
      m => !!m,
      3000,
    )
    // altered: another RFQ's id in its place, every other byte the same (the signature no longer matches)
    const ghost = newRfqId(Date.now())
    assert.equal(ghost.length, genuine.body.rfqId.length)
    ops.publish(
      n1Events,
      Buffer.from(Buffer.from(original!.data).toString('latin1').replace(genuine.body.rfqId, ghost), 'latin1'),
    )
    // replayed: the same bytes again, after the RFQ was cancelled
    assert.equal(
      (await post(nodes[1]!.api, `/api/v1/rfqs/${genuine.body.rfqId}/cancel`, {}, taker.headers)).status,
      200,
    )
    await waitFor(
      () => listedAnywhere(genuine.body.rfqId),
      listed => !listed,
      3000,
    )
    ops.publish(n1Events, original!.data)
    // forged: a created RFQ no store has, signed by ops as n1; the same unsigned (as v2 sent it); under a key no node has
    const forged = forgedRfq()
    asN1().send('events', [created(forged)])
    ops.publish(n1Events, packr.pack({ n: 'n1', s: 1, e: [created(forged)] }))
    speaker(ops, 'n1', opsUser.key).send('events', [created(forged)])
    await ops.flush()

    const expected = { bad_signature: 3, replayed: 1, unknown_node: 1 }
    const after = await waitFor(allDropped, all => all.every((d, i) => d.all >= before[i]!.all + 5), 3000)
    for (const [i, d] of after.entries()) {
      assert.deepEqual(
        Object.fromEntries(Object.keys(expected).map(r => [r, d[r]! - (before[i]![r] ?? 0)])),
        expected,
        nodes[i]!.api,
      )
    }
    for (const id of [ghost, forged.id, genuine.body.rfqId]) assert.equal(await listedAnywhere(id), false, id)
    for (const n of nodes)
      for (const id of [ghost, forged.id]) assert.equal((await get(n.api, `/api/v1/rfqs/${id}`)).status, 404)
    assert.equal((await db.sql`select count(*)::int as n from rfqs where id in ${db.sql([ghost, forged.id])}`)[0]!.n, 0)
    for (const w of watchers) {
      await w.sync()
      assert.deepEqual(
        w.frames.filter(f => f.type === 'RFQ_BROADCAST' && [ghost, forged.id].includes(f.data.rfqId)),
        [],
      )
      assert.equal(
        w.frames.filter(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === genuine.body.rfqId).length,
        1,
        'the genuine RFQ, once',
      )
      await w.close()
    }
    // n1's word of hits at its relay REST door (600 a minute), played back until they would pass 700, were they heard
    const n1Limits = subjectOf(TEST_VENUE, keyOf('n1').publicKey, 'limits')
    const from = captured.length
    for (let i = 0; i < 10; i++) assert.equal((await get(nodes[0]!.relay, '/rfqs')).status, 200)
    // the batch that carries them: one flushed just before may hold only the hits before them (api, relay.ws)
    const restHits = (m: (typeof captured)[number]) =>
      (packr.unpack(m.data.subarray(64)) as [number, string, string, number, number, [string, string, number][]])[5]
        .filter(([limiter]) => limiter === 'relay.rest')
        .reduce((sum, [, , n]) => sum + n, 0)
    const hits = await waitFor(
      () => captured.slice(from).find(m => m.subject === n1Limits && restHits(m) > 0),
      m => !!m,
      3000,
    )
    assert.ok(hits, 'n1 told the venue of its relay REST hits')
    const counted = restHits(hits)
    const times = Math.ceil(700 / counted) // past the minute's 600, were they counted
    const replays = await allDropped()
    for (let i = 0; i < times; i++) ops.publish(n1Limits, hits.data)
    await ops.flush()
    await waitFor(allDropped, all => all.every((d, i) => d.replayed! >= replays[i]!.replayed! + times), 5000)
    for (const n of nodes)
      assert.equal((await get(n.relay, '/rfqs')).status, 200, `${n.relay} still serves this address`)
  })

  test("the five forgeries of issue 28 fail: a created RFQ, a victim's cap filled, a quote with a garbage signature, a cancel, a limits batch", async () => {
    const watchers = await openAll()
    const victim = await newAgent(nodes[0]!.api, ['taker'])
    const real = await createRfq(nodes[0]!)
    for (const w of watchers) await w.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === real.body.rfqId, 3000)
    const before = await allDropped()
    const n1 = asN1()
    // 1. a created RFQ the store never saw; 2. ten of them carrying the victim's agentId (its cap is 10)
    const lone = forgedRfq()
    n1.send('events', [created(lone)])
    const capFill = Array.from({ length: 10 }, () =>
      forgedRfq({ agentId: victim.agentId, taker: victim.agent.address.toLowerCase() as Rfq['taker'] }),
    )
    n1.send('events', capFill.map(created))
    // 3. a quote tuple for the real RFQ, with a garbage signature
    const maker = `0x${hex(20)}`
    n1.send('events', [
      [
        real.body.rfqId,
        maker,
        0,
        WETH,
        USDC,
        AMOUNT,
        '2500000000',
        real.body.expiry,
        '7',
        nowSec() + 60,
        `0x${'ab'.repeat(65)}`,
        Date.now(),
      ],
    ])
    // 4. its cancel
    n1.send('events', [{ t: 'cancelled', id: real.body.rfqId, at: Date.now() }])
    // 5. a million hits of this address at every door, shared as n1 would share them
    n1.send(
      'limits',
      ['api', 'relay.rest', 'terminal', 'relay.ws'].map(limiter => [limiter, '127.0.0.1', 1_000_000]),
    )
    await ops.flush()
    await waitFor(allDropped, all => all.every((d, i) => d.bad_signature! >= (before[i]!.bad_signature ?? 0) + 5), 3000)

    for (const rfq of [lone, ...capFill]) assert.equal(await listedAnywhere(rfq.id), false, rfq.id)
    const victimRfqs: string[] = []
    for (const n of nodes) {
      assert.equal((await get(n.api, `/api/v1/rfqs/${lone.id}`)).status, 404)
      const mine = await createRfq(n, victim)
      assert.equal(mine.status, 201, `the victim creates at ${n.api}: its cap is its own`)
      victimRfqs.push(mine.body.rfqId)
      const quotes = await get(n.relay, `/quotes?rfqId=${real.body.rfqId}`)
      assert.equal(quotes.body.count, 0, 'the forged quote is listed nowhere')
      assert.equal((await get(n.relay, '/rfqs')).status, 200, 'this address is not locked out')
    }
    // the real RFQ is still open everywhere: an honest maker quotes it at every node
    const honestMakers: string[] = []
    for (const [i, w] of watchers.entries()) {
      const honest = account()
      honestMakers.push(honest.address.toLowerCase())
      w.send('QUOTE_SUBMIT', { rfqId: real.body.rfqId, ...(await quoteFor(honest, real.body)) })
      const b = await w.next(
        f =>
          (f.type === 'QUOTE_BROADCAST' && f.data.quote.maker === honest.address.toLowerCase()) || f.type === 'ERROR',
        3000,
      )
      assert.equal(b.type, 'QUOTE_BROADCAST', `node ${i + 1}: ${JSON.stringify(b.data)}`)
    }
    // every node hears every honest quote and every victim's RFQ before the watchers close: the cluster's word of them
    // must not arrive late, in the next test's window, where any broadcast is a failure
    const heardAll = (w: Client) =>
      honestMakers.every(m => w.frames.some(f => f.type === 'QUOTE_BROADCAST' && f.data.quote.maker === m)) &&
      victimRfqs.every(id => w.frames.some(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === id))
    await waitFor(
      async () => watchers.every(heardAll),
      ok => ok,
      5000,
    )
    for (const w of watchers) {
      await w.sync()
      assert.deepEqual(
        w.frames.filter(
          f =>
            (f.type === 'QUOTE_BROADCAST' && f.data.quote.maker === maker) ||
            (f.type === 'RFQ_BROADCAST' && f.data.rfqId === lone.id),
        ),
        [],
      )
      await w.close()
    }
    const stored =
      await db.sql`select count(*)::int as n from quote_rows where rfq_id = ${real.body.rfqId} and maker = ${maker}`
    assert.equal(stored[0]!.n, 0)
  })

  test('any malformed, unauthenticated or oversized message is dropped and counted; no node crashes or changes', async () => {
    const snapshot = async () => ({
      lists: await Promise.all(
        nodes.map(async n => (await get(n.relay, '/rfqs')).body.rfqs.map((x: { id: string }) => x.id).sort()),
      ),
      peers: await Promise.all(nodes.map(async n => (await get(n.relay, '/health')).body.cluster.peers)),
      rows: (await db.sql`select (select count(*) from rfqs)::int as r, (select count(*) from quotes)::int as q`)[0],
    })
    const before = await snapshot(),
      d0 = await allDropped()
    const watchers = await openAll()
    const subject = (id: string, channel: Channel) => subjectOf(TEST_VENUE, keyOf(id).publicKey, channel)
    // unauthenticated: any bytes, on every node's subjects and every channel
    const noise = fc.sample(fc.uint8Array({ maxLength: 3000 }), { numRuns: 150, seed: 28 })
    noise.forEach((bytes, i) => ops.publish(subject(['n1', 'n2', 'n3', 'n4'][i % 4]!, CHANNELS[i % 3]!), bytes))
    // under keys no node has; past the size a node reads
    for (let i = 0; i < 20; i++)
      ops.publish(subjectOf(TEST_VENUE, extraUser('x').key.publicKey, CHANNELS[i % 3]!), randomBytes(200))
    for (const channel of CHANNELS) ops.publish(subject('n2', channel), randomBytes(600 * 1024))
    // signed by a listed key, but no message: any value where a batch, a heartbeat or hits belong
    const n4 = await nats.connectAs('n4')
    const speak = speaker(n4, 'n4', keyOf('n4'))
    const values = fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 100, seed: 28 })
    values.forEach(v => speak.send('nodes', typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v))
    values.forEach(v => speak.send('events', { v }))
    values.forEach(v => speak.send('events', [{ t: 'created', rfq: v }, { t: 'cancelled', id: v, at: v }, [v, v, v]]))
    await n4.flush()
    await n4.close()
    await ops.flush()
    const exact = { bad_signature: noise.length, unknown_node: 20, oversized: 3, malformed: 200, bad_event: 300 }
    const total = Object.values(exact).reduce((a, b) => a + b, 0)
    const after = await waitFor(allDropped, all => all.every((d, i) => d.all >= d0[i]!.all + total), 10_000)
    for (const [i, d] of after.entries()) {
      assert.deepEqual(
        Object.fromEntries(Object.keys(exact).map(r => [r, d[r]! - (d0[i]![r] ?? 0)])),
        exact,
        nodes[i]!.api,
      )
    }
    assert.deepEqual(await snapshot(), before, 'nothing listed, no peer, nothing stored')
    for (const n of nodes) assert.equal(n.child.exitCode, null, 'no node died')
    for (const w of watchers) {
      await w.sync()
      assert.deepEqual(
        w.frames.filter(f => f.type !== 'PONG'),
        [],
        'no broadcast',
      )
      await w.close()
    }
  })

  test('a listener between a node and nats-server reads no RFQ id, address, signature or token hash: only TLS records', async () => {
    const from = sniff.bytes().length
    const maker = account()
    // a private RFQ created at n1 reaches n3 through the listener, and one created at n3 leaves through it
    const atN1 = (await createRfq(nodes[0]!, taker, { visibility: 'private', allowedMakers: [maker.address] })).body
    const atN3 = (await createRfq(nodes[2]!, taker, { visibility: 'private', allowedMakers: [maker.address] })).body
    const signatures: string[] = []
    for (const [rfq, at] of [
      [atN1, nodes[1]!],
      [atN3, nodes[2]!],
    ] as const) {
      const submitter = await Client.open(`${at.relayWs}/?shareToken=${rfq.shareToken}`)
      const holder = await Client.open(`${nodes[2]!.relayWs}/?shareToken=${rfq.shareToken}`)
      const q = await quoteFor(maker, rfq)
      await waitFor(
        async () =>
          (await get(at.relay, `/rfqs?shareToken=${rfq.shareToken}`)).body.rfqs.some(
            (x: { id: string }) => x.id === rfq.rfqId,
          ),
        ok => ok,
        3000,
      )
      submitter.send('QUOTE_SUBMIT', { rfqId: rfq.rfqId, ...q })
      // n3's holder hears it: for the RFQ made at n1 its word came in through the listener
      const heard = await holder.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.rfqId, 5000)
      signatures.push(heard.data.signature)
      await submitter.close()
      await holder.close()
    }
    await waitFor(
      () => get(nodes[0]!.relay, `/quotes?rfqId=${atN3.rfqId}&shareToken=${atN3.shareToken}`),
      r => r.body.count === 1,
      3000,
    )
    const seen = sniff.bytes().subarray(from)
    const secrets = [
      atN1.rfqId,
      atN3.rfqId,
      taker.agent.address.toLowerCase().slice(2),
      maker.address.toLowerCase().slice(2),
      taker.agentId,
      ...signatures.map(sig => sig.slice(2)),
      hashShareToken(atN1.shareToken!),
      hashShareToken(atN3.shareToken!),
      keyOf('n3').publicKey,
    ]
    assert.ok(seen.length > 2000, `the listener saw the traffic: ${seen.length} bytes`)
    assert.ok(seen.indexOf(Buffer.from([0x17, 0x03, 0x03])) >= 0, 'TLS application data records')
    assert.deepEqual(
      secrets.filter(x => seen.includes(x) || sniff.bytes().includes(x)),
      [],
      'nothing readable on the wire',
    )
    assert.ok(!sniff.bytes().includes('CONNECT'), 'the nkey and its signed nonce travel inside TLS too')
    // the control: the same batches, read by a client holding a credential, carry every one of them in clear
    const plain = Buffer.concat(captured.map(m => Buffer.from(m.data)))
    assert.deepEqual(
      secrets.slice(0, -1).filter(x => !plain.includes(x)),
      [],
      'what TLS hides is there to hide',
    )
  })
})
