// Badges (GET /api/v1/badges/:address, cached BADGE_CACHE_MS, 10 minutes by default), profiles
// (GET /api/v1/profile/:address) and the points leaderboard (GET /api/v1/leaderboard). League
// scores are performance only; points live here.
import type { EngineContext } from '../context.js'
import { ok, intParam } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { roundTo } from '../../workers/fills/round.js'
import { agentsOfWallet } from '../store/agents.js'
import { rfqCountsOfTaker } from '../store/rfqQueries.js'
import { badgesFor, type Badge, type FillStats } from './badgeRules.js'
import { fillStats, pointsBoard, roleTotals, type BoardRole, type RoleTotals } from './queries.js'
import { isAddress } from '../../workers/values/index.js'
import type { AgentAuth } from '../front/agentAuth.js'
import { viewerOf } from '../front/viewer.js'

const CACHE_MAX = 10_000
export const BOARD_PAGE = { default: 50, max: 100 } as const

interface BadgeReply {
  address: string
  badges: Badge[]
  stats: ReturnType<typeof statsView>
  computedAt: string
  cachedUntil: string
}

export function profileRoutes({ surfaces, sql, config }: EngineContext, auth: Pick<AgentAuth, 'optionalAgent'>): void {
  const cache = new Map<string, { value: BadgeReply; expires: number }>()

  async function badges(address: string): Promise<BadgeReply> {
    const hit = cache.get(address)
    if (hit && hit.expires > Date.now()) return hit.value
    const stats = await fillStats(sql, address)
    const now = Date.now()
    const value = {
      address,
      badges: badgesFor(stats),
      stats: statsView(stats),
      computedAt: new Date(now).toISOString(),
      cachedUntil: new Date(now + config.BADGE_CACHE_MS).toISOString(),
    }
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
    cache.set(address, { value, expires: now + config.BADGE_CACHE_MS })
    return value
  }

  surfaces.api.get('/api/v1/badges/:address', async req => {
    const a = req.params.address!
    if (!isAddress(a)) throw Errors.badRequest('Invalid address')
    return ok(await badges(a.toLowerCase()), {
      'cache-control': `public, max-age=${Math.floor(config.BADGE_CACHE_MS / 1000)}`,
    })
  })

  surfaces.api.get('/api/v1/profile/:address', async req => {
    const a = req.params.address!
    if (!isAddress(a)) throw Errors.badRequest('Invalid address format')
    const address = a.toLowerCase()
    // RFQ counts follow the visibility rule: an outsider counts public RFQs only; the taker's agent key, or a
    // share token, adds the private RFQs it may see
    const viewer = await viewerOf(req, auth)
    const [b, totals, agents, rfqs] = await Promise.all([
      badges(address),
      roleTotals(sql, address),
      agentsOfWallet(sql, address),
      rfqCountsOfTaker(sql, address, viewer),
    ])
    return ok({
      address,
      points: {
        total: roundTo(totals.maker.points + totals.taker.points, 2),
        maker: roundTo(totals.maker.points, 2),
        taker: roundTo(totals.taker.points, 2),
      },
      asMaker: roleView(totals.maker),
      asTaker: roleView(totals.taker),
      stats: b.stats,
      badges: b.badges,
      rfqs,
      agents: agents.map(x => ({
        agentId: x.id,
        name: x.name,
        ownerWallet: x.ownerWallet,
        agentWallet: x.agentWallet,
        roles: x.roles,
        createdAt: x.createdAt.toISOString(),
      })),
    })
  })

  surfaces.api.get('/api/v1/leaderboard', async req => {
    const role = (req.query.get('role') ?? 'all') as BoardRole
    if (!['all', 'maker', 'taker'].includes(role)) throw Errors.badRequest('role must be all, maker or taker')
    const limit = intParam(req.query, 'limit', BOARD_PAGE.default, 1, BOARD_PAGE.max)
    if (limit === null) throw Errors.badRequest(`limit must be an integer from 1 to ${BOARD_PAGE.max}`)
    const offset = intParam(req.query, 'offset', 0, 0, 1_000_000)
    if (offset === null) throw Errors.badRequest('offset must be an integer >= 0')
    const { rows, total } = await pointsBoard(sql, { role, limit, offset })
    return ok({
      role,
      entries: rows.map((r, i) => ({
        rank: offset + i + 1,
        address: r.address,
        points: roundTo(r.points, 2),
        fills: r.fills,
        notionalUsd: roundTo(r.notionalUsd, 2),
      })),
      total,
      limit,
      offset,
      hasMore: offset + rows.length < total,
    })
  })
}

function statsView(s: FillStats) {
  return {
    fills: s.fills,
    makerFills: s.makerFills,
    takerFills: s.takerFills,
    notionalUsd: roundTo(s.notionalUsd, 2),
    privateFills: s.privateFills,
    benchmarkedFills: s.benchmarkedFills,
    avgImprovementBps: s.avgImprovementBps === null ? null : roundTo(s.avgImprovementBps, 2),
    firstFillAt: s.firstFillAt?.toISOString() ?? null,
    lastFillAt: s.lastFillAt?.toISOString() ?? null,
  }
}

function roleView(t: RoleTotals) {
  return {
    fills: t.fills,
    notionalUsd: roundTo(t.notionalUsd, 2),
    avgImprovementBps: t.avgImprovementBps === null ? null : roundTo(t.avgImprovementBps, 2),
    privateFills: t.privateFills,
    points: roundTo(t.points, 2),
  }
}
