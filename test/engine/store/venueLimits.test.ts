// The per-account limits the store arbitrates for the whole venue, against a real PostgreSQL with concurrent
// connections (each node of a cluster is another connection): the agent API's sliding windows
// (engine/store/agentRate.ts) and the cap on active RFQs (engine/store/rfqs.ts insertRfqCapped). Under a race,
// exactly the limit is granted; a refusal records nothing; what leaves a window frees its room.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { connect, type Sql } from '../../../engine/store/db.js'
import { hitAgentRate } from '../../../engine/store/agentRate.js'
import { insertRfqCapped } from '../../../engine/store/rfqs.js'
import type { Address, Rfq } from '../../../actors/rfqTypes.js'

const A = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`

describe('per-account limits arbitrated by the store', () => {
  let db: TestDatabase
  let nodes: Sql[] // three pools, as three engine nodes would hold
  before(async () => {
    db = await testDatabase('vl')
    nodes = [0, 1, 2].map(() => connect(db.url, { max: 8 }))
  })
  after(async () => {
    await Promise.all(nodes.map(n => n.end({ timeout: 1 })))
    await db.drop()
  })

  const agent = async () => {
    const id = 'agent_' + randomBytes(6).toString('hex')
    await db.sql`insert into agents (id, name, owner_wallet, agent_wallet, roles, key_hash)
      values (${id}, 'bot', ${A(1)}, ${A(Math.floor(Math.random() * 1e9))}, ${['taker']}, ${randomBytes(32).toString('hex')})`
    return id
  }

  test('agent rate: 30 concurrent requests over three pools, 7 a minute -> exactly 7 granted, the rest told when to retry', async () => {
    const id = await agent()
    const vs = await Promise.all(
      Array.from({ length: 30 }, (_, i) => hitAgentRate(nodes[i % 3]!, id, { perMinute: 7, perHour: 1000 })),
    )
    assert.equal(vs.filter(v => v.ok).length, 7)
    for (const v of vs.filter(v => !v.ok))
      assert.ok(v.retryAfterSec > 0 && v.retryAfterSec <= 60, `retry after ${v.retryAfterSec}`)
    const [row] = await db.sql`select cardinality(hits) as n from agent_rate_windows where agent_id = ${id}`
    assert.equal(row!.n, 7, 'refusals are not recorded')
  })

  test('agent rate: the hour window holds on its own, and a hit that left the minute window frees its room', async () => {
    const id = await agent()
    const limits = { perMinute: 3, perHour: 5 }
    const hits = async (n: number) =>
      (await Promise.all(Array.from({ length: n }, (_, i) => hitAgentRate(nodes[i % 3]!, id, limits)))).filter(
        v => v.ok,
      ).length
    assert.equal(await hits(6), 3)
    // the three grants age past the minute (the database's clock is the only clock): room for two more, then the hour is full
    await db.sql`update agent_rate_windows set hits = array(select t - 61000 from unnest(hits) t) where agent_id = ${id}`
    assert.equal(await hits(6), 2)
    await db.sql`update agent_rate_windows set hits = array(select t - 61000 from unnest(hits) t) where agent_id = ${id}`
    const refused = await hitAgentRate(nodes[0]!, id, limits)
    assert.equal(refused.ok, false, 'five in the hour')
    assert.ok(refused.retryAfterSec > 60 && refused.retryAfterSec <= 3600, `the hour's wait: ${refused.retryAfterSec}`)
    // past the hour the old grants are dropped from the row, not kept forever
    await db.sql`update agent_rate_windows set hits = array(select t - 3600000 from unnest(hits) t) where agent_id = ${id}`
    assert.equal(await hits(1), 1)
    assert.equal((await db.sql`select cardinality(hits) as n from agent_rate_windows where agent_id = ${id}`)[0]!.n, 1)
  })

  test('active-RFQ cap: 30 concurrent creates over three pools -> exactly 10 stored; what ended or aged out frees room', async () => {
    const id = await agent()
    const rfq = (over: Partial<Rfq> = {}): Rfq => ({
      id: 'rfq_' + randomBytes(16).toString('hex'),
      taker: A(7),
      tokenIn: A(2),
      tokenOut: A(3),
      kind: 0,
      amountIn: 10n,
      amountOut: null,
      expiry: Math.floor(Date.now() / 1000) + 120,
      visibility: 'public',
      allowedMakers: [],
      shareToken: null,
      createdAt: new Date(),
      agentId: id,
      ...over,
    })
    const cap = { max: 10 }
    const vs = await Promise.all(Array.from({ length: 30 }, (_, i) => insertRfqCapped(nodes[i % 3]!, rfq(), null, cap)))
    assert.equal(vs.filter(v => v.ok).length, 10)
    assert.deepEqual(
      [...new Set(vs.filter(v => v.ok).map(v => v.activeCount))].sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    )
    for (const v of vs.filter(v => !v.ok)) assert.deepEqual(v, { ok: false, code: 'TOO_MANY_ACTIVE', activeCount: 10 })
    assert.equal(
      (await db.sql`select count(*)::int as n from rfqs where agent_id = ${id}`)[0]!.n,
      10,
      'a refusal stores nothing',
    )
    // one cancelled and one past its expiry: two rooms; one older than the relay's RFQ_TTL_SECS but before its own
    // expiry is still live (an RFQ lives until its expiry, docs/rfq-api.md "Lifetime") and makes no room
    const ids = (await db.sql`select id from rfqs where agent_id = ${id} order by seq limit 3`).map(r => r.id as string)
    await db.sql`update rfqs set status = 'CANCELLED' where id = ${ids[0]!}`
    await db.sql`update rfqs set expiry = ${Math.floor(Date.now() / 1000) - 1} where id = ${ids[1]!}`
    // its day moves with it: in a UTC day's first minute, 61 seconds back is yesterday (the day's check)
    await db.sql`update rfqs set created_at = now() - interval '61 seconds',
      created_day = ((now() - interval '61 seconds') at time zone 'utc')::date where id = ${ids[2]!}`
    const again = await Promise.all(
      Array.from({ length: 6 }, (_, i) => insertRfqCapped(nodes[i % 3]!, rfq(), null, cap)),
    )
    assert.equal(again.filter(v => v.ok).length, 2)
    // an RFQ made without an agent counts against its taker wallet, apart from any agent's
    const walletOnly = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        insertRfqCapped(nodes[i % 3]!, rfq({ agentId: null, taker: A(9) }), null, { max: 2 }),
      ),
    )
    assert.equal(walletOnly.filter(v => v.ok).length, 2)
  })
})
