// Every number the spec promises an account holds for the venue, not per node: three engine processes on one
// nats-server and one PostgreSQL, and clients that spread their requests over all three at once. The cap on
// active RFQs, the agents per owner wallet and the agent API's per-minute limit each grant exactly their number.
// Real processes, real NATS, real HTTP.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnEngine, type EngineProc } from '../faults/process.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { startSecureNats, type SecureNats } from './secureNats.js'
import { newAgent, post, get, signedRegistration, wallet } from '../api/agentKit.js'
import { waitFor } from '../relay/helpers.js'

const AGENT_RATE_PER_MIN = 40

describe('per-account limits hold across a cluster of three nodes', () => {
  let nats: SecureNats
  let db: TestDatabase
  let nodes: EngineProc[]

  before(async () => {
    nats = await startSecureNats(['n1', 'n2', 'n3'])
    db = await testDatabase('cl')
    const env = {
      DATABASE_URL: db.url,
      FILL_VERIFY: 'off',
      RFQ_TTL_SECS: '120',
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      AGENT_RATE_PER_MIN: String(AGENT_RATE_PER_MIN),
      AGENT_RATE_PER_HOUR: '1000000',
      AGENT_REGISTRATION_PER_HOUR: '100000',
      AGENT_REGISTRATION_PER_DAY: '100000',
      RELAY_REST_RATE_LIMIT_PER_MIN: '1000000',
    }
    nodes = []
    for (const id of ['n1', 'n2', 'n3'])
      nodes.push(await spawnEngine({ ...env, ...nats.env(id), DATA_DIR: mkdtempSync(join(tmpdir(), `limits-${id}-`)) }))
    for (const n of nodes)
      await waitFor(
        async () => (await get(n.relay, '/health')).body.cluster?.peers?.length,
        len => len === 2,
        10_000,
      )
  })
  after(async () => {
    await Promise.all(nodes.filter(n => n.child.exitCode === null).map(n => n.term()))
    await nats.close()
    await db.drop()
  })

  const create = (node: EngineProc, headers: Record<string, string>) =>
    post(
      node.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000', ttlSeconds: 120 },
      headers,
    )

  test('the active-RFQ cap: 30 concurrent creates spread over three nodes -> exactly 10 live, on every node; a cancel at one node frees a slot at another', async () => {
    const taker = await newAgent(nodes[0]!.api, ['taker'])
    const rs = await Promise.all(Array.from({ length: 30 }, (_, i) => create(nodes[i % 3]!, taker.headers)))
    const made = rs.filter(r => r.status === 201)
    assert.equal(made.length, 10, JSON.stringify(rs.map(r => r.status)))
    for (const r of rs.filter(r => r.status !== 201)) {
      assert.equal(r.status, 429)
      assert.deepEqual(r.body, { error: 'Too many active RFQs', activeCount: 10, code: 'TOO_MANY_ACTIVE' })
      assert.ok(Number(r.headers.get('retry-after')) >= 1)
    }
    const ids = made.map(r => r.body.rfqId as string).sort()
    assert.deepEqual(
      made.map(r => r.body.activeCount).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    )
    assert.deepEqual(
      (await db.sql`select id from rfqs where agent_id = ${taker.agentId} order by id`).map(r => r.id),
      ids,
      'a refused create stores nothing',
    )
    // every node's relay lists the same ten, and nothing of the refused twenty
    for (const n of nodes) {
      const listed = async () =>
        (await get(n.relay, '/rfqs')).body.rfqs
          .filter((x: { taker: string }) => x.taker === taker.agent.address)
          .map((x: { id: string }) => x.id)
          .sort()
      assert.deepEqual(await waitFor(listed, l => l.length >= 10, 5000), ids)
    }
    assert.equal((await create(nodes[1]!, taker.headers)).status, 429)
    assert.equal((await post(nodes[0]!.api, `/api/v1/rfqs/${ids[0]}/cancel`, {}, taker.headers)).status, 200)
    const again = await create(nodes[2]!, taker.headers)
    assert.equal(again.status, 201, JSON.stringify(again.body))
    assert.equal(again.body.activeCount, 10)
    assert.equal((await create(nodes[1]!, taker.headers)).status, 429)
  })

  test('agents per owner wallet: 30 concurrent registrations of one owner spread over three nodes -> exactly 10, the rest 409', async () => {
    const owner = wallet()
    const bodies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => signedRegistration(owner, wallet(), { name: `bot-${i}` })),
    )
    const rs = await Promise.all(bodies.map((b, i) => post(nodes[i % 3]!.api, '/api/v1/agent/register', b)))
    assert.equal(rs.filter(r => r.status === 201).length, 10, JSON.stringify(rs.map(r => r.status)))
    for (const r of rs.filter(r => r.status !== 201))
      assert.deepEqual([r.status, r.body.error, r.body.code], [409, 'Maximum 10 agents per owner wallet', 'MAX_AGENTS'])
    assert.equal((await db.sql`select count(*)::int as n from agents where owner_wallet = ${owner.address}`)[0]!.n, 10)
  })

  test(`the agent API's per-minute limit: 100 concurrent requests of one agent spread over three nodes -> exactly ${AGENT_RATE_PER_MIN} answered`, async () => {
    const a = await newAgent(nodes[1]!.api, ['monitor'])
    const rs = await Promise.all(
      Array.from({ length: 100 }, (_, i) => get(nodes[i % 3]!.api, '/api/v1/agent/auth', a.headers)),
    )
    assert.equal(rs.filter(r => r.status === 200).length, AGENT_RATE_PER_MIN, JSON.stringify(rs.map(r => r.status)))
    for (const r of rs.filter(r => r.status !== 200)) {
      assert.deepEqual([r.status, r.body.error], [429, 'Agent rate limit exceeded'])
      const wait = Number(r.headers.get('retry-after'))
      assert.ok(wait >= 1 && wait <= 60, `retry-after ${wait}`)
    }
    // another agent has a budget of its own at every node
    const b = await newAgent(nodes[2]!.api, ['monitor'])
    for (const n of nodes) assert.equal((await get(n.api, '/api/v1/agent/auth', b.headers)).status, 200)
  })
})
