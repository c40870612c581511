// Agent registration, keys, auth and the per-agent and per-IP limits, over real HTTP and Postgres.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { Wallet as EthersWallet } from 'ethers'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { registrationMessage } from '../../engine/agents/message.js'
import { hashApiKey } from '../../engine/agents/keys.js'
import { wallet, signedRegistration, post, get, bearer, newAgent, nowSec } from './agentKit.js'

const REG = '/api/v1/agent/register'

describe('agent registration', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({ AGENT_REGISTRATION_PER_HOUR: '1000', AGENT_REGISTRATION_PER_DAY: '1000' })
  })
  after(() => t.stop())

  test('a viem-signed registration gets 201 with a rfq_live_ key of 256 random bits, stored only as its sha256', async () => {
    const owner = wallet(),
      agent = wallet()
    const body = await signedRegistration(owner, agent, { name: 'alpha', roles: ['maker', 'taker'] })
    const r = await post(t.api, REG, body)
    assert.equal(r.status, 201)
    assert.deepEqual(Object.keys(r.body).sort(), [
      'agentId',
      'agentWallet',
      'apiKey',
      'createdAt',
      'name',
      'ownerWallet',
      'roles',
    ])
    assert.equal(r.body.name, 'alpha')
    assert.equal(r.body.ownerWallet, owner.address)
    assert.equal(r.body.agentWallet, agent.address)
    assert.deepEqual(r.body.roles, ['maker', 'taker'])
    assert.match(r.body.apiKey, /^rfq_live_[A-Za-z0-9_-]{43}$/)
    assert.ok(!Number.isNaN(Date.parse(r.body.createdAt)))
    const rows = await t.db.sql`select * from agents where id = ${r.body.agentId}`
    assert.equal(rows.length, 1)
    assert.equal(rows[0]!.key_hash, hashApiKey(r.body.apiKey))
    const everything =
      JSON.stringify(await t.db.sql`select * from agents`) +
      JSON.stringify(await t.db.sql`select * from agent_registrations`)
    assert.ok(!everything.includes(r.body.apiKey), 'the key is nowhere in clear')
    assert.ok(!everything.includes(r.body.apiKey.slice('rfq_live_'.length)), 'not even its random part')
  })

  test('an ethers-signed registration is accepted too (independent signer, same message)', async () => {
    const ethersOwner = EthersWallet.createRandom()
    const agent = wallet()
    const f = {
      name: 'beta',
      ownerWallet: ethersOwner.address,
      agentWallet: agent.account.address,
      roles: ['monitor'],
      timestamp: nowSec(),
    }
    const signature = await ethersOwner.signMessage(registrationMessage(f))
    const r = await post(t.api, REG, { ...f, signature })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    assert.equal(r.body.ownerWallet, ethersOwner.address.toLowerCase())
  })

  test('the signed message is exactly six lines, addresses lowercase, roles in the order given', () => {
    const m = registrationMessage({
      name: 'n',
      ownerWallet: '0xABCDEF0000000000000000000000000000000001',
      agentWallet: '0xAbCdEf0000000000000000000000000000000002',
      roles: ['monitor', 'taker'],
      timestamp: 1700000000,
    })
    assert.equal(
      m,
      'RFQ agent registration\nname: n\nowner: 0xabcdef0000000000000000000000000000000001\nagent: 0xabcdef0000000000000000000000000000000002\nroles: monitor,taker\ntimestamp: 1700000000',
    )
  })

  test('a replayed registration (same signed message) is refused', async () => {
    const body = await signedRegistration(wallet(), wallet())
    assert.equal((await post(t.api, REG, body)).status, 201)
    const again = await post(t.api, REG, body)
    assert.equal(again.status, 409)
    assert.equal(again.body.error, 'Signature already used')
    assert.equal(
      (await t.db.sql`select count(*)::int as n from agents where owner_wallet = ${body.ownerWallet.toLowerCase()}`)[0]!
        .n,
      1,
    )
  })

  test('every check answers its spec text, in the spec order', async () => {
    const owner = wallet(),
      agent = wallet()
    const good = await signedRegistration(owner, agent)
    const cases: [unknown, number, string][] = [
      ['[1]', 400, 'Invalid JSON body'],
      ['', 400, 'Invalid JSON body'],
      ['{bad', 400, 'Invalid JSON body'],
      [{ ...good, name: undefined }, 400, 'name is required (max 64 chars)'],
      [{ ...good, name: 'x'.repeat(65) }, 400, 'name is required (max 64 chars)'],
      [{ ...good, name: 'a\nb' }, 400, 'name is required (max 64 chars)'],
      [{ ...good, name: 'x'.repeat(65), ownerWallet: 'nope' }, 400, 'name is required (max 64 chars)'],
      [{ ...good, ownerWallet: '0x123' }, 400, 'ownerWallet must be a valid 0x address'],
      [{ ...good, agentWallet: 42 }, 400, 'agentWallet must be a valid 0x address'],
      [{ ...good, roles: [] }, 400, 'roles must be a non-empty array of: taker, maker, monitor'],
      [{ ...good, roles: ['admin'] }, 400, 'roles must be a non-empty array of: taker, maker, monitor'],
      [{ ...good, roles: 'taker' }, 400, 'roles must be a non-empty array of: taker, maker, monitor'],
      [{ ...good, signature: undefined }, 400, 'signature is required'],
      [{ ...good, signature: '' }, 400, 'signature is required'],
      [{ ...good, timestamp: undefined }, 400, 'timestamp is required (unix seconds)'],
      [{ ...good, timestamp: 'soon' }, 400, 'timestamp is required (unix seconds)'],
      [
        { ...good, timestamp: nowSec() - 301 },
        400,
        'Signature expired. Timestamp must be within 300s of current time.',
      ],
      [
        { ...good, timestamp: nowSec() + 400 },
        400,
        'Signature expired. Timestamp must be within 300s of current time.',
      ],
      [
        { ...good, signature: '0x1234' },
        400,
        'Signature verification failed: signature must be 0x + 130 hex digits (65 bytes)',
      ],
    ]
    for (const [body, status, text] of cases) {
      const r = await post(t.api, REG, body)
      assert.equal(r.status, status, `${JSON.stringify(body)} -> ${JSON.stringify(r.body)}`)
      assert.equal(r.body.error, text)
    }
  })

  test('a signature by someone else is 403 with expected and recovered', async () => {
    const owner = wallet(),
      impostor = wallet(),
      agent = wallet()
    const body = await signedRegistration(impostor, agent, { ownerWallet: owner.account.address })
    const r = await post(t.api, REG, body)
    assert.equal(r.status, 403)
    assert.deepEqual(r.body, {
      error: 'Signature does not match ownerWallet.',
      expected: owner.address,
      recovered: impostor.address,
      code: 'SIGNATURE_MISMATCH',
    })
  })

  test('a tampered field (roles) no longer matches the signature', async () => {
    const owner = wallet()
    const body = await signedRegistration(owner, wallet(), { roles: ['monitor'] })
    const r = await post(t.api, REG, { ...body, roles: ['taker'] })
    assert.equal(r.status, 403)
    assert.equal(r.body.expected, owner.address)
    assert.notEqual(r.body.recovered, owner.address)
  })

  test('at most 10 agents per owner, also when 14 registrations race', async () => {
    const owner = wallet()
    const bodies = await Promise.all(
      Array.from({ length: 14 }, (_, i) => signedRegistration(owner, wallet(), { name: `bot-${i}` })),
    )
    const rs = await Promise.all(bodies.map(b => post(t.api, REG, b)))
    assert.equal(rs.filter(r => r.status === 201).length, 10)
    const refused = rs.filter(r => r.status !== 201)
    assert.equal(refused.length, 4)
    for (const r of refused) assert.deepEqual([r.status, r.body.error], [409, 'Maximum 10 agents per owner wallet'])
    assert.equal(
      (await t.db.sql`select count(*)::int as n from agents where owner_wallet = ${owner.address}`)[0]!.n,
      10,
    )
  })

  test('GET /api/v1/agent/auth: the agent and its rate limits; 401 missing, malformed, unknown', async () => {
    const a = await newAgent(t.api, ['monitor'], { name: 'watcher' })
    const r = await get(t.api, '/api/v1/agent/auth', a.headers)
    assert.equal(r.status, 200)
    assert.equal(r.body.agentId, a.agentId)
    assert.equal(r.body.name, 'watcher')
    assert.equal(r.body.ownerWallet, a.owner.address)
    assert.equal(r.body.agentWallet, a.agent.address)
    assert.deepEqual(r.body.roles, ['monitor'])
    assert.deepEqual(r.body.rateLimit, { perMinute: 60, perHour: 1000 })
    for (const scheme of ['bearer', 'BEARER']) {
      // RFC 7235: the scheme is case-insensitive
      assert.equal(
        (await get(t.api, '/api/v1/agent/auth', { authorization: `${scheme} ${a.key}` })).status,
        200,
        scheme,
      )
    }
    const missing = await get(t.api, '/api/v1/agent/auth')
    assert.deepEqual([missing.status, missing.body.error], [401, 'Missing API key (Authorization: Bearer <API_KEY>)'])
    for (const h of [
      { authorization: 'Bearer sk_test_abc' },
      { authorization: `Basic ${a.key}` },
      bearer(a.key.slice(0, -1)),
    ]) {
      const m = await get(t.api, '/api/v1/agent/auth', h)
      assert.deepEqual([m.status, m.body.error], [401, 'Invalid API key format'], JSON.stringify(h))
    }
    const unknown = await get(t.api, '/api/v1/agent/auth', bearer('rfq_live_' + 'A'.repeat(43)))
    assert.deepEqual([unknown.status, unknown.body.error], [401, 'Invalid API key'])
  })

  test('a missing role is 403 (monitor-only agent creating an RFQ; taker-only agent listing)', async () => {
    const monitor = await newAgent(t.api, ['monitor'])
    const c = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1' },
      monitor.headers,
    )
    assert.deepEqual([c.status, c.body.error], [403, 'Forbidden: agent lacks the taker role'])
    const taker = await newAgent(t.api, ['taker'])
    const l = await get(t.api, '/api/v1/agent/rfqs', taker.headers)
    assert.deepEqual([l.status, l.body.error], [403, 'Forbidden: agent lacks the monitor role'])
    const f = await post(t.api, '/api/v1/agent/rfqs/x/fill', {}, monitor.headers)
    assert.deepEqual([f.status, f.body.error], [403, 'Forbidden: agent lacks the taker role'])
  })
})

describe('agent and registration limits', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({
      AGENT_RATE_PER_MIN: '3',
      AGENT_RATE_PER_HOUR: '5',
      AGENT_REGISTRATION_PER_HOUR: '2',
      AGENT_REGISTRATION_PER_DAY: '3',
    })
  })
  after(() => t.stop())

  test('registration: the third in an hour from one IP is 429 with the spec text and Retry-After', async () => {
    const a = await newAgent(t.api)
    const b = await newAgent(t.api)
    const r = await post(t.api, REG, await signedRegistration(wallet(), wallet()))
    assert.equal(r.status, 429)
    assert.match(r.body.error, /^Registration rate limit exceeded\. Try again in \d+s\.$/)
    const secs = Number(/in (\d+)s/.exec(r.body.error)![1])
    assert.ok(secs > 3000 && secs <= 3600, `about an hour: ${secs}`)
    assert.equal(r.headers.get('retry-after'), String(secs))

    // per agent: 3 per minute, keyed by the key's hash; another agent has its own budget
    for (let i = 0; i < 3; i++) assert.equal((await get(t.api, '/api/v1/agent/auth', a.headers)).status, 200)
    const limited = await get(t.api, '/api/v1/agent/auth', a.headers)
    assert.deepEqual([limited.status, limited.body.error], [429, 'Agent rate limit exceeded'])
    const ra = Number(limited.headers.get('retry-after'))
    assert.ok(ra >= 1 && ra <= 60, `retry-after ${ra}`)
    assert.equal((await get(t.api, '/api/v1/agent/auth', b.headers)).status, 200)
    const auth = await get(t.api, '/api/v1/agent/auth', b.headers)
    assert.deepEqual(auth.body.rateLimit, { perMinute: 3, perHour: 5 })
  })
})
