// GET /api/v1/league and /api/v1/league/activity. Standings come from the materialised scores
// (all-time rollups minus the period's base, see engine/store/league.ts); paging is limit/offset over a total order (score, rawScore, notional,
// address), so pages never overlap and hasMore is exactly offset + entries < totalParticipants.
import type { EngineContext } from '../context.js'
import { ok, intParam } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { standings, kpi, ensureBase, type Role } from '../store/league.js'
import { activity } from '../store/fills.js'
import { roundTo } from '../../workers/fills/round.js'
import { PERIODS, periodStartDay, type Period } from './period.js'
import { isLowerAddress, MAX_USD } from '../../workers/values/index.js'

export const LEAGUE_PAGE = { default: 50, max: 100 } as const
export const ACTIVITY_PAGE = { default: 10, max: 50 } as const

export function leagueRoutes({ surfaces, sql }: EngineContext): void {
  surfaces.api.get('/api/v1/league', async req => {
    const q = req.query
    const role = roleParam(q)
    const period = periodParam(q)
    const minUsdRaw = q.get('minUsd')
    const minUsd = minUsdRaw === null || minUsdRaw === '' ? 0 : Number(minUsdRaw)
    if (!Number.isFinite(minUsd) || minUsd < 0 || minUsd > MAX_USD * 1000)
      throw Errors.badRequest('Invalid minUsd (a number >= 0)')
    const searchRaw = q.get('search')
    if (searchRaw !== null && searchRaw.trim().length < 4)
      throw Errors.badRequest('search must be at least 4 characters')
    const search = searchRaw === null ? null : searchRaw.trim().toLowerCase()
    const limit = intParam(q, 'limit', LEAGUE_PAGE.default, 1, LEAGUE_PAGE.max)
    if (limit === null) throw Errors.badRequest(`Invalid limit (1-${LEAGUE_PAGE.max})`)
    const offset = intParam(q, 'offset', 0, 0, 1_000_000)
    if (offset === null) throw Errors.badRequest('Invalid offset (an integer >= 0)')
    const sinceDay = periodStartDay(period)
    if (sinceDay !== null) await ensureBase(sql, period, sinceDay)
    const [s, k] = await Promise.all([
      standings(sql, { role, period, minUsd, search, limit, offset }),
      kpi(sql, period),
    ])
    const entries = s.rows.map(r => ({
      rank: r.rank,
      address: r.address,
      score: r.score,
      rawScore: r.rawScore,
      filledNotional: roundTo(r.filledNotional, 2),
      avgImprovementBps: roundTo(r.avgImprovementBps, 2),
      privateShare: roundTo(r.privateShare, 4),
      fills: r.fills,
      reliability: role === 'maker' ? roundTo(r.reliability ?? 1.1, 4) : null,
      cancelRate: role === 'maker' ? roundTo(r.cancelRate ?? 0, 4) : null,
      // Badges are not part of this service's league: the multiplier is reported, neutral, and never enters the score.
      boostMultiplier: 1,
      points: roundTo(r.points, 2),
    }))
    return ok({
      role,
      period,
      minUsd,
      entries,
      totalParticipants: s.total,
      hasMore: offset + entries.length < s.total,
      limit,
      offset,
      kpi: {
        totalNotional: roundTo(k.totalNotional, 2),
        avgImprovementBps: roundTo(k.avgImprovementBps ?? 0, 2),
        privateVolumePct: roundTo(k.privateVolumePct ?? 0, 2),
        fillCount: k.fillCount,
      },
    })
  })

  surfaces.api.get('/api/v1/league/activity', async req => {
    const q = req.query
    const address = q.get('address')
    if (!address) throw Errors.badRequest('address is required')
    if (!isLowerAddress(address))
      throw Errors.badRequest('Invalid address format (expected lowercase 0x + 40 hex chars)')
    const role = roleParam(q)
    const period = periodParam(q)
    const limit = intParam(q, 'limit', ACTIVITY_PAGE.default, 1, ACTIVITY_PAGE.max)
    if (limit === null) throw Errors.badRequest(`Invalid limit (1-${ACTIVITY_PAGE.max})`)
    const day = periodStartDay(period)
    const fills = await activity(sql, {
      address,
      role,
      since: day === null ? null : new Date(`${day}T00:00:00Z`),
      limit,
    })
    return ok({
      address,
      role,
      period,
      fills: fills.map(f => ({
        ...f,
        filledAt: f.filledAt.toISOString(),
        amountIn: f.amountIn.toString(),
        amountOut: f.amountOut.toString(),
      })),
    })
  })
}

function roleParam(q: URLSearchParams): Role {
  const role = q.get('role') ?? 'maker'
  if (role !== 'maker' && role !== 'taker') throw Errors.badRequest('Invalid role (maker or taker)')
  return role
}

function periodParam(q: URLSearchParams): Period {
  const period = q.get('period') ?? '7d'
  if (!(PERIODS as readonly string[]).includes(period)) throw Errors.badRequest('Invalid period (7d, 30d or all)')
  return period as Period
}
