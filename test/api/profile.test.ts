// Badges (from fills, cached), profiles, the points leaderboard, and the public per-IP limit.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { post, get, newAgent, wallet } from './agentKit.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'

describe('badges, profile, leaderboard', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({
      PUBLIC_RATE_LIMIT_PER_MIN: '100000',
      AGENT_REGISTRATION_PER_HOUR: '100',
      AGENT_REGISTRATION_PER_DAY: '100',
    })
  })
  after(() => t.stop())

  const recordFill = (taker: string, maker: string, usd: number, visibility = 'public') =>
    post(t.api, '/api/v1/fills', {
      txHash: '0x' + randomBytes(32).toString('hex'),
      taker,
      maker,
      tokenIn: WETH,
      tokenOut: USDC,
      amountIn: '1000',
      amountOut: '2000',
      amountInUsd: usd,
      visibility,
    })

  test('address validation texts', async () => {
    for (const bad of ['0x12', 'abc', '0x' + 'g'.repeat(40)]) {
      const b = await get(t.api, `/api/v1/badges/${bad}`)
      assert.deepEqual([b.status, b.body], [400, { error: 'Invalid address' }])
      const p = await get(t.api, `/api/v1/profile/${bad}`)
      assert.deepEqual([p.status, p.body], [400, { error: 'Invalid address format' }])
    }
  })

  test('badges are computed from fills and cached: a later fill shows only after the cache period', async () => {
    const taker = wallet(),
      maker = wallet()
    const empty = await get(t.api, `/api/v1/badges/${taker.address}`)
    assert.equal(empty.status, 200)
    assert.deepEqual(empty.body.badges, [])
    assert.equal(empty.body.stats.fills, 0)
    const other = wallet()
    for (let i = 0; i < 5; i++)
      assert.equal((await recordFill(other.address, maker.address, 3000, 'private')).status, 200)
    const b = await get(t.api, `/api/v1/badges/${other.address.toUpperCase().replace('0X', '0x')}`)
    assert.equal(b.body.address, other.address)
    assert.deepEqual(b.body.badges.map((x: { id: string }) => x.id).sort(), [
      'first_fill',
      'privacy_first',
      'volume_10k',
    ])
    assert.equal(b.body.stats.fills, 5)
    assert.equal(b.body.stats.takerFills, 5)
    assert.equal(b.body.stats.notionalUsd, 15000)
    assert.ok(Date.parse(b.body.cachedUntil) - Date.parse(b.body.computedAt) === 600_000)
    // the empty taker fills now, but its badges are cached for 10 minutes
    assert.equal((await recordFill(taker.address, maker.address, 10)).status, 200)
    const cached = await get(t.api, `/api/v1/badges/${taker.address}`)
    assert.deepEqual(cached.body, empty.body)
    assert.match(cached.headers.get('cache-control')!, /max-age=600/)
  })

  test('profile: points by role, fills, badges, RFQ counts and agents', async () => {
    const a = await newAgent(t.api, ['taker'])
    const created = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '5' },
      a.headers,
    )
    assert.equal(created.status, 201)
    const maker = wallet()
    assert.equal((await recordFill(a.agent.address, maker.address, 1000)).status, 200)
    const p = await get(t.api, `/api/v1/profile/${a.agent.address}`)
    assert.equal(p.status, 200)
    assert.equal(p.body.address, a.agent.address)
    assert.equal(p.body.asTaker.fills, 1)
    assert.equal(p.body.asMaker.fills, 0)
    assert.ok(p.body.points.taker > 0)
    assert.equal(p.body.points.total, p.body.points.taker)
    assert.deepEqual(p.body.rfqs, { total: 1, active: 1, filled: 0, cancelled: 0, expired: 0 })
    assert.deepEqual(
      p.body.agents.map((x: { agentId: string }) => x.agentId),
      [a.agentId],
    )
    assert.deepEqual(
      p.body.badges.map((x: { id: string }) => x.id),
      ['first_fill'],
    )
    const ownerView = await get(t.api, `/api/v1/profile/${a.owner.address}`)
    assert.deepEqual(
      ownerView.body.agents.map((x: { agentId: string }) => x.agentId),
      [a.agentId],
    )
    const mp = await get(t.api, `/api/v1/profile/${maker.address}`)
    assert.equal(mp.body.asMaker.fills, 1)
    assert.ok(mp.body.points.maker > 0)
  })

  test('leaderboard: points, highest first, paged, role filter', async () => {
    const big = wallet(),
      small = wallet(),
      m = wallet()
    await recordFill(big.address, m.address, 1_000_000)
    await recordFill(small.address, m.address, 1)
    const r = await get(t.api, '/api/v1/leaderboard?role=taker&limit=100')
    assert.equal(r.status, 200)
    const pts = r.body.entries.map((e: { points: number }) => e.points)
    assert.deepEqual(
      pts,
      [...pts].sort((x: number, y: number) => y - x),
    )
    assert.deepEqual(
      r.body.entries.map((e: { rank: number }) => e.rank),
      r.body.entries.map((_: unknown, i: number) => i + 1),
    )
    const iBig = r.body.entries.findIndex((e: { address: string }) => e.address === big.address)
    const iSmall = r.body.entries.findIndex((e: { address: string }) => e.address === small.address)
    assert.ok(iBig >= 0 && iSmall > iBig)
    assert.ok(
      !r.body.entries.some((e: { address: string }) => e.address === m.address),
      'makers are not in the taker board',
    )
    const page = await get(t.api, '/api/v1/leaderboard?limit=1&offset=1')
    assert.equal(page.body.entries.length, 1)
    assert.equal(page.body.entries[0].rank, 2)
    assert.equal(page.body.hasMore, page.body.total > 2)
    for (const q of ['role=admin', 'limit=0', 'limit=101', 'offset=-1'])
      assert.equal((await get(t.api, `/api/v1/leaderboard?${q}`)).status, 400, q)
  })
})

describe('public limit', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine({ PUBLIC_RATE_LIMIT_PER_MIN: '5' })
  })
  after(() => t.stop())

  test('the 6th public request in a minute from one IP is 429 with Retry-After; agent paths are not counted by it', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await get(t.api, '/api/v1/rfqs')).status, 200)
    const r = await get(t.api, '/api/v1/rfqs/anything')
    assert.equal(r.status, 429)
    assert.equal(typeof r.body.error, 'string')
    const ra = Number(r.headers.get('retry-after'))
    assert.ok(ra >= 1 && ra <= 60, `retry-after ${ra}`)
    assert.equal((await get(t.api, '/api/v1/badges/0x' + '1'.repeat(40))).status, 429)
    // the agent surface has its own per-agent limits
    assert.equal((await get(t.api, '/api/v1/agent/auth')).status, 401)
  })
})
