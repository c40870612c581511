// The relay over real WebSocket connections on loopback: every message type, every ERROR text in
// the spec's list, the six validation rules in order, REST on the same port, msgpack.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { Wallet, TypedDataEncoder } from 'ethers'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { Client, account, createRfq, domainOf, makeQuote, sign, waitFor, TOKEN_IN, TOKEN_OUT } from './helpers.js'
import { quoteTypes } from '../../sdk/sign.js'
import { rfqById } from '../../engine/store/rfqQueries.js'
import { swappedTypes, toHighS } from '../workers/sig/fixtures.js'

let t: TestEngine
const clients: Client[] = []
const open = async (query = '', opts: { protocols?: string[]; binary?: boolean } = {}) => {
  const c = await Client.open(`${t.relayWs}/${query}`, opts)
  clients.push(c)
  return c
}

before(async () => {
  t = await startTestEngine({
    RATE_LIMIT_PER_MIN: '100000',
    SPOT_RFQ_ADDRESS: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    CHAIN_ID: '31337',
  })
})
after(async () => {
  await Promise.all(clients.map(c => c.close()))
  await t.stop()
})

test('GET /health carries the spec fields and the EIP-712 domain, while WebSocket upgrades work on the same port', async () => {
  const ws = await open()
  const res = await fetch(`${t.relay}/health`)
  assert.equal(res.status, 200)
  const h = (await res.json()) as any
  assert.equal(h.status, 'ok')
  assert.equal(h.chainId, 31337)
  assert.equal(h.contractAddress, '0x5fbdb2315678afecb367f032d93f642f64180aa3')
  for (const k of ['activeRfqs', 'totalQuotes', 'connectedClients', 'uptime']) assert.equal(typeof h[k], 'number', k)
  assert.ok(h.connectedClients >= 1)
  assert.deepEqual(h.domain, {
    name: 'SpotRFQ',
    version: '1',
    chainId: 31337,
    verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  })
  await ws.sync()
  const nf = await fetch(`${t.relay}/nope`)
  assert.equal(nf.status, 404)
})

test('RFQ_BROADCAST reaches every client with exactly the spec data (EXACT_IN and EXACT_OUT)', async () => {
  const a = await open(),
    b = await open()
  const rfq = await createRfq(t)
  for (const c of [a, b]) {
    const f = await c.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.id)
    assert.deepEqual(f.data, {
      rfqId: rfq.id,
      rfq: {
        taker: rfq.taker,
        tokenIn: TOKEN_IN,
        tokenOut: TOKEN_OUT,
        amountIn: '1000000000000000000',
        amountOut: null,
        kind: 0,
        expiry: rfq.expiry,
        visibility: 'public',
      },
    })
  }
  const out = await createRfq(t, { kind: 1, amountIn: null, amountOut: 5_000_000n })
  const f = await a.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === out.id)
  assert.deepEqual(f.data.rfq, {
    taker: out.taker,
    tokenIn: TOKEN_IN,
    tokenOut: TOKEN_OUT,
    amountIn: null,
    amountOut: '5000000',
    kind: 1,
    expiry: out.expiry,
    visibility: 'public',
  })
})

test('a viem-signed quote is broadcast to every client as {rfqId, quote, signature} and stored', async () => {
  const maker = account(),
    a = await open(),
    b = await open()
  const rfq = await createRfq(t)
  const quote = makeQuote(maker, rfq)
  const signature = await sign(maker, domainOf(t), quote)
  a.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote, signature })
  for (const c of [a, b]) {
    const f = await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
    assert.deepEqual(f.data, { rfqId: rfq.id, quote, signature })
  }
  const rows = await t.db.sql`select maker, amount_out, signature from quote_rows where rfq_id = ${rfq.id}`
  assert.equal(rows.length, 1)
  assert.equal(rows[0]!.maker, quote.maker)
  assert.equal(BigInt(rows[0]!.amount_out), 2_500_000_000n)
  const [r] = await t.db.sql`select status from rfqs where id = ${rfq.id}`
  assert.deepEqual([r?.status, (await rfqById(t.db.sql, rfq.id))?.quoteCount], ['QUOTED', 1])
  const q = (await (await fetch(`${t.relay}/quotes?rfqId=${rfq.id}`)).json()) as any
  assert.equal(q.count, 1)
  assert.deepEqual(q.quotes[0].quote, quote)
})

test('a quote signed by ethers (an independent signer) is accepted; the same quote under a wrong field order is not', async () => {
  const c = await open()
  const rfq = await createRfq(t)
  const wallet = Wallet.createRandom()
  const d = domainOf(t)
  const quote = makeQuote({ address: wallet.address } as any, rfq)
  const message = { ...quote }
  const good = await wallet.signTypedData(d, { Quote: [...quoteTypes.Quote] }, message)
  assert.equal(TypedDataEncoder.hashStruct('Quote', { Quote: [...quoteTypes.Quote] }, message).length, 66)
  const bad = await wallet.signTypedData(d, { Quote: [...swappedTypes.Quote] }, message)
  assert.deepEqual(await c.error({ rfqId: rfq.id, quote, signature: bad }), {
    message: 'Invalid EIP-712 signature -- signer does not match maker',
    rfqId: rfq.id,
    code: 'INVALID_SIGNATURE',
  })
  c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote, signature: good })
  const f = await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
  assert.equal(f.data.quote.maker, wallet.address.toLowerCase())
})

test('the validation rules run in the spec order: the first failure is the one reported, and nothing failed is broadcast', async () => {
  const c = await open(),
    watcher = await open()
  const maker = account(),
    other = account()
  const rfq = await createRfq(t)
  const d = domainOf(t)
  const expect = async (data: unknown, message: string, code: string) => {
    const e = await c.error(data)
    assert.equal(e.message, message)
    assert.equal(e.code, code)
  }
  // missing pieces come first: nothing else can be checked without them
  await expect({ quote: {}, signature: '0x' }, 'Missing rfqId, quote, or signature', 'MISSING_FIELDS')
  await expect({ rfqId: rfq.id, signature: '0x00' }, 'Missing rfqId, quote, or signature', 'MISSING_FIELDS')
  await expect({ rfqId: rfq.id, quote: {} }, 'Missing rfqId, quote, or signature', 'MISSING_FIELDS')
  // a quote that breaks every rule, fixed one rule at a time
  const signature = await sign(other, d, makeQuote(other, rfq)) // signed by someone else
  let q: any = {
    ...makeQuote(maker, rfq),
    maker: 'nope',
    tokenIn: TOKEN_OUT,
    tokenOut: TOKEN_IN,
    deadline: 1,
    amountIn: '0',
    amountOut: '0',
  }
  await expect({ rfqId: 'rfq_unknown', quote: q, signature }, 'RFQ not found or expired', 'RFQ_NOT_FOUND')
  await expect({ rfqId: rfq.id, quote: q, signature }, 'Invalid maker address', 'INVALID_MAKER')
  q = { ...q, maker: maker.address.toLowerCase() }
  await expect(
    { rfqId: rfq.id, quote: q, signature },
    'Quote rejected: tokenIn does not match RFQ',
    'TOKEN_IN_MISMATCH',
  )
  q = { ...q, tokenIn: TOKEN_IN }
  await expect(
    { rfqId: rfq.id, quote: q, signature },
    'Quote rejected: tokenOut does not match RFQ',
    'TOKEN_OUT_MISMATCH',
  )
  q = { ...q, tokenOut: TOKEN_OUT }
  await expect({ rfqId: rfq.id, quote: q, signature }, 'Quote rejected: Deadline is in the past', 'DEADLINE_PAST')
  q = { ...q, deadline: Math.floor(Date.now() / 1000) + 60 }
  await expect({ rfqId: rfq.id, quote: q, signature }, 'Quote rejected: amountIn must be > 0', 'AMOUNT_IN_ZERO')
  q = { ...q, amountIn: '5' }
  await expect({ rfqId: rfq.id, quote: q, signature }, 'Quote rejected: amountOut must be > 0', 'AMOUNT_OUT_ZERO')
  q = { ...q, amountOut: '7' }
  await expect(
    { rfqId: rfq.id, quote: q, signature },
    'Invalid EIP-712 signature -- signer does not match maker',
    'INVALID_SIGNATURE',
  )
  const good = await sign(maker, d, q)
  c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature: good })
  await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
  // rule 6 comes after rule 5: a second quote with a bad signature reports the signature
  const q2 = { ...q, nonce: '99' }
  await expect(
    { rfqId: rfq.id, quote: q2, signature },
    'Invalid EIP-712 signature -- signer does not match maker',
    'INVALID_SIGNATURE',
  )
  await expect(
    { rfqId: rfq.id, quote: q2, signature: await sign(maker, d, q2) },
    'Duplicate quote from this maker for this RFQ',
    'DUPLICATE_QUOTE',
  )
  await watcher.sync()
  assert.equal(watcher.of('QUOTE_BROADCAST').filter(f => f.data.rfqId === rfq.id).length, 1)
})

test('malformed signatures and fields are rejected with an ERROR, never a crash', async () => {
  const c = await open()
  const maker = account()
  const rfq = await createRfq(t)
  const q = makeQuote(maker, rfq)
  const good = await sign(maker, domainOf(t), q)
  const sigErr = 'Invalid EIP-712 signature -- signer does not match maker'
  for (const signature of [toHighS(good), '0xzz' + good.slice(4), good.slice(0, 100), good + '00', 'not hex']) {
    assert.equal((await c.error({ rfqId: rfq.id, quote: q, signature })).message, sigErr, signature)
  }
  assert.equal(
    (await c.error({ rfqId: rfq.id, quote: { ...q, amountOut: (1n << 256n).toString() }, signature: good })).message,
    'Quote rejected: amountOut exceeds uint256',
  )
  assert.equal(
    (await c.error({ rfqId: rfq.id, quote: { ...q, amountIn: '-1' }, signature: good })).code,
    'INVALID_QUOTE_FIELD',
  )
  assert.equal(
    (await c.error({ rfqId: rfq.id, quote: { ...q, nonce: 1.5 }, signature: good })).code,
    'INVALID_QUOTE_FIELD',
  )
  assert.equal(
    (await c.error({ rfqId: rfq.id, quote: { ...q, taker: 42 }, signature: good })).code,
    'INVALID_QUOTE_FIELD',
  )
  assert.equal((await c.error({ rfqId: rfq.id, quote: [], signature: good })).code, 'MISSING_FIELDS')
  // still serving: the good one goes through
  c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature: good })
  await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
})

test('PING is answered with PONG; unknown types and unparsable frames get the spec texts', async () => {
  const c = await open()
  c.send('PING', {})
  assert.deepEqual(await c.nextOf('PONG'), { type: 'PONG', data: {} })
  c.send('PONG', {}) // accepted silently
  c.send('HELLO', {})
  assert.deepEqual((await c.nextOf('ERROR')).data, {
    message: 'Unknown message type: HELLO',
    code: 'UNKNOWN_MESSAGE_TYPE',
  })
  c.raw('{"type": "PING"')
  const e = (await c.nextOf('ERROR')).data
  assert.match(e.message, /^Parse error: /)
  assert.equal(e.code, 'PARSE_ERROR')
  c.raw('[1,2]')
  assert.match((await c.nextOf('ERROR')).data.message, /^Parse error: /)
  c.raw('{"data": {}}')
  assert.equal((await c.nextOf('ERROR')).data.message, 'Unknown message type: undefined')
  await c.sync()
})

test('CANCEL_REQUEST removes the RFQ without a reply; later quotes and cancels are refused; storage says CANCELLED', async () => {
  const c = await open()
  const maker = account()
  const rfq = await createRfq(t)
  c.send('CANCEL_REQUEST', {})
  assert.deepEqual((await c.nextOf('ERROR')).data, { message: 'Missing rfqId', code: 'MISSING_RFQ_ID' })
  c.send('CANCEL_REQUEST', { rfqId: 'rfq_nope' })
  assert.equal((await c.nextOf('ERROR')).data.message, 'RFQ not found or already expired')
  c.send('CANCEL_REQUEST', { rfqId: rfq.id })
  await c.sync()
  assert.equal(c.of('ERROR').filter(f => f.data.rfqId === rfq.id).length, 0, 'a successful cancel sends no reply')
  const q = makeQuote(maker, rfq)
  assert.equal(
    (await c.error({ rfqId: rfq.id, quote: q, signature: await sign(maker, domainOf(t), q) })).message,
    'RFQ not found or expired',
  )
  c.send('CANCEL_REQUEST', { rfqId: rfq.id })
  assert.equal((await c.nextOf('ERROR')).data.message, 'RFQ not found or already expired')
  const list = (await (await fetch(`${t.relay}/rfqs`)).json()) as any
  assert.ok(!list.rfqs.some((r: any) => r.id === rfq.id))
  const [row] = await t.db.sql`select status, cancelled_at from rfqs where id = ${rfq.id}`
  assert.equal(row!.status, 'CANCELLED')
  assert.ok(row!.cancelled_at instanceof Date)
})

test('GET /rfqs lists live RFQs with quote counts; GET /quotes is 400 without rfqId and 404 for an unknown one', async () => {
  const c = await open()
  const maker = account()
  const rfq = await createRfq(t)
  const q = makeQuote(maker, rfq)
  c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature: await sign(maker, domainOf(t), q) })
  await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
  const list = (await (await fetch(`${t.relay}/rfqs`)).json()) as any
  const item = list.rfqs.find((r: any) => r.id === rfq.id)
  assert.deepEqual(item, {
    id: rfq.id,
    taker: rfq.taker,
    tokenIn: TOKEN_IN,
    tokenOut: TOKEN_OUT,
    kind: 0,
    amountIn: '1000000000000000000',
    amountOut: null,
    expiry: rfq.expiry,
    visibility: 'public',
    status: 'QUOTED',
    quoteCount: 1,
    createdAt: rfq.createdAt.toISOString(),
  })
  assert.equal(list.count, list.rfqs.length)
  const missing = await fetch(`${t.relay}/quotes`)
  assert.equal(missing.status, 400)
  assert.deepEqual(await missing.json(), { error: 'Missing rfqId' })
  const unknown = await fetch(`${t.relay}/quotes?rfqId=rfq_unknown`)
  assert.equal(unknown.status, 404)
  const quotes = (await (await fetch(`${t.relay}/quotes?rfqId=${rfq.id}`)).json()) as any
  assert.equal(quotes.rfqId, rfq.id)
  assert.equal(quotes.status, 'QUOTED')
  assert.equal(quotes.quotes[0].signature.length, 132)
})

test('msgpack: ?encoding=msgpack and the msgpack subprotocol exchange the same messages as binary frames', async () => {
  const byQuery = await open('?encoding=msgpack', { binary: true })
  const byProtocol = await open('', { protocols: ['msgpack'], binary: true })
  assert.equal(byProtocol.ws.protocol, 'msgpack')
  const json = await open()
  const maker = account()
  const rfq = await createRfq(t)
  for (const c of [byQuery, byProtocol]) {
    const f = await c.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfq.id)
    assert.equal(f.data.rfq.amountIn, '1000000000000000000')
  }
  const q = makeQuote(maker, rfq)
  byQuery.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote: q, signature: await sign(maker, domainOf(t), q) })
  for (const c of [byQuery, byProtocol, json]) {
    const f = await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
    assert.deepEqual(f.data.quote, q)
  }
  byProtocol.send('PING', {})
  assert.deepEqual(await byProtocol.nextOf('PONG'), { type: 'PONG', data: {} })
  let binaryFrames = 0
  byQuery.ws.on('message', (_m, isBinary) => {
    if (isBinary) binaryFrames++
  })
  byQuery.send('NOPE', {})
  assert.equal((await byQuery.nextOf('ERROR')).data.message, 'Unknown message type: NOPE')
  assert.equal(binaryFrames, 1)
})

test('burst: 50 concurrent submissions of one maker on one RFQ give exactly one broadcast and 49 duplicates', async () => {
  const watcher = await open()
  const submitters = await Promise.all(Array.from({ length: 5 }, () => open()))
  const maker = account()
  const rfq = await createRfq(t)
  const d = domainOf(t)
  const signed = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const q = makeQuote(maker, rfq, { nonce: String(i), amountOut: String(2_500_000_000 + i) })
      return { rfqId: rfq.id, quote: q, signature: await sign(maker, d, q) }
    }),
  )
  signed.forEach((s, i) => submitters[i % 5]!.send('QUOTE_SUBMIT', s))
  await watcher.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
  const errors = await waitFor(
    () => submitters.flatMap(c => c.of('ERROR')).filter(f => f.data.rfqId === rfq.id),
    e => e.length >= 49,
  )
  await Promise.all([watcher, ...submitters].map(c => c.sync()))
  assert.equal(watcher.of('QUOTE_BROADCAST').filter(f => f.data.rfqId === rfq.id).length, 1)
  assert.equal(errors.length, 49)
  assert.ok(errors.every(e => e.data.message === 'Duplicate quote from this maker for this RFQ'))
  const [row] = await t.db.sql`select count(*)::int as n from quote_rows where rfq_id = ${rfq.id}`
  assert.equal(row!.n, 1)
})
