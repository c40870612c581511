// Reads for badges, profiles and the points leaderboard: the fills table (badges are computed
// from fills) and the league's all-time rollups (points).
import type { Tx } from '../store/db.js'
import type { FillStats } from './badgeRules.js'

export async function fillStats(sql: Tx, address: string): Promise<FillStats> {
  const [r] = await sql`
    select count(*)::int as fills,
      (count(*) filter (where maker = ${address}))::int as maker_fills,
      (count(*) filter (where taker = ${address}))::int as taker_fills,
      coalesce(sum(amount_in_usd), 0)::float8 as notional_usd,
      (count(*) filter (where is_private))::int as private_fills,
      (count(*) filter (where benchmark_available))::int as benchmarked_fills,
      (avg(improvement_bps) filter (where benchmark_available))::float8 as avg_improvement_bps,
      min(filled_at) as first_fill_at, max(filled_at) as last_fill_at
    from fills where maker = ${address} or taker = ${address}`
  return {
    fills: r!.fills,
    makerFills: r!.maker_fills,
    takerFills: r!.taker_fills,
    notionalUsd: r!.notional_usd,
    privateFills: r!.private_fills,
    benchmarkedFills: r!.benchmarked_fills,
    avgImprovementBps: r!.avg_improvement_bps,
    firstFillAt: r!.first_fill_at,
    lastFillAt: r!.last_fill_at,
  }
}

export interface RoleTotals {
  fills: number
  notionalUsd: number
  avgImprovementBps: number | null
  privateFills: number
  points: number
}

export async function roleTotals(sql: Tx, address: string): Promise<{ maker: RoleTotals; taker: RoleTotals }> {
  const rows = await sql`
    select role, fills, notional_usd::float8 as notional_usd, private_fills, points::float8 as points,
      case when benchmarked_fills > 0 then (improvement_sum / benchmarked_fills)::float8 end as avg_improvement_bps
    from league_totals where address = ${address}`
  const empty: RoleTotals = { fills: 0, notionalUsd: 0, avgImprovementBps: null, privateFills: 0, points: 0 }
  const of = (role: string): RoleTotals => {
    const r = rows.find(x => x.role === role)
    return r
      ? {
          fills: r.fills,
          notionalUsd: r.notional_usd,
          avgImprovementBps: r.avg_improvement_bps,
          privateFills: r.private_fills,
          points: r.points,
        }
      : empty
  }
  return { maker: of('maker'), taker: of('taker') }
}

export type BoardRole = 'maker' | 'taker' | 'all'

export interface BoardRow {
  address: string
  points: number
  fills: number
  notionalUsd: number
}

/** Points, highest first; ties by address so pages never overlap. */
export async function pointsBoard(
  sql: Tx,
  q: { role: BoardRole; limit: number; offset: number },
): Promise<{ rows: BoardRow[]; total: number }> {
  const roleFilter = q.role === 'all' ? sql`` : sql`where role = ${q.role}`
  const rows = await sql`
    select address, sum(points)::float8 as points, sum(fills)::int as fills, sum(notional_usd)::float8 as notional_usd,
      count(*) over ()::int as total
    from league_totals ${roleFilter}
    group by address
    order by sum(points) desc, address
    limit ${q.limit} offset ${q.offset}`
  let total = rows[0]?.total as number | undefined
  if (total === undefined) {
    const [c] = await sql`select count(distinct address)::int as n from league_totals ${roleFilter}`
    total = c!.n as number
  }
  return {
    rows: rows.map(r => ({ address: r.address, points: r.points, fills: r.fills, notionalUsd: r.notional_usd })),
    total,
  }
}
