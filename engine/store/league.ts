// League rollups and standings. Rollups are bumped in the fill's own transaction; standings read
// the rollups (addresses x days in the period, or the all-time rows), never the fills table, so
// their cost does not grow with the number of fills. The score is computed here in SQL with the
// constants of workers/fills/leagueScore.ts so ranking and paging happen in the database.
import type { Tx } from './baselines.js'
import { leagueParams } from '../../workers/fills/leagueScore.js'

export type Role = 'maker' | 'taker'

export interface RollupFill {
  taker: string
  maker: string
  /** UTC day of the fill, YYYY-MM-DD */
  day: string
  notionalUsd: number
  benchmarkAvailable: boolean
  improvementBps: string
  isPrivate: boolean
  takerPoints: number
  makerPoints: number
}

/** Adds one fill to the taker's and the maker's daily and all-time rows (taker first, always: a fixed lock order). */
export async function bumpRollups(sql: Tx, f: RollupFill): Promise<void> {
  const sides = [
    { address: f.taker, role: 'taker', points: f.takerPoints },
    { address: f.maker, role: 'maker', points: f.makerPoints },
  ]
  const b = f.benchmarkAvailable ? 1 : 0
  const imp = f.benchmarkAvailable ? f.improvementBps : '0'
  const p = f.isPrivate ? 1 : 0
  for (const s of sides) {
    await sql`
      insert into league_daily (address, role, day, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points)
      values (${s.address}, ${s.role}, ${f.day}::date, 1, ${f.notionalUsd}, ${b}, ${imp}::numeric, ${p}, ${s.points})
      on conflict (role, day, address) do update set
        fills = league_daily.fills + 1, notional_usd = league_daily.notional_usd + excluded.notional_usd,
        benchmarked_fills = league_daily.benchmarked_fills + excluded.benchmarked_fills,
        improvement_sum = league_daily.improvement_sum + excluded.improvement_sum,
        private_fills = league_daily.private_fills + excluded.private_fills, points = league_daily.points + excluded.points`
    await sql`
      insert into league_totals (address, role, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points)
      values (${s.address}, ${s.role}, 1, ${f.notionalUsd}, ${b}, ${imp}::numeric, ${p}, ${s.points})
      on conflict (role, address) do update set
        fills = league_totals.fills + 1, notional_usd = league_totals.notional_usd + excluded.notional_usd,
        benchmarked_fills = league_totals.benchmarked_fills + excluded.benchmarked_fills,
        improvement_sum = league_totals.improvement_sum + excluded.improvement_sum,
        private_fills = league_totals.private_fills + excluded.private_fills, points = league_totals.points + excluded.points`
  }
}

/** Rebuilds every rollup from the fills table (after a bulk load, or to repair); self-trades stay out, as in recordFill. */
export async function rebuildRollups(sql: Tx): Promise<void> {
  await sql`truncate league_daily, league_totals`
  await sql`
    insert into league_daily (address, role, day, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points)
    select address, role, day, count(*), sum(usd), count(*) filter (where b), coalesce(sum(imp) filter (where b), 0),
           count(*) filter (where p), sum(pts)
    from (
      select taker as address, 'taker' as role, (filled_at at time zone 'utc')::date as day, amount_in_usd as usd,
             benchmark_available as b, improvement_bps as imp, is_private as p, taker_points as pts from fills where taker <> maker
      union all
      select maker, 'maker', (filled_at at time zone 'utc')::date, amount_in_usd, benchmark_available, improvement_bps, is_private, maker_points from fills where taker <> maker
    ) s group by address, role, day`
  await sql`
    insert into league_totals (address, role, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points)
    select address, role, sum(fills), sum(notional_usd), sum(benchmarked_fills), sum(improvement_sum), sum(private_fills), sum(points)
    from league_daily group by address, role`
}

export interface StandingsQuery {
  role: Role
  /** first UTC day of the period; null for all time */
  sinceDay: string | null
  minUsd: number
  /** lowercase substring of the address */
  search: string | null
  limit: number
  offset: number
}

export interface StandingRow {
  rank: number
  address: string
  rawScore: number
  score: number
  filledNotional: number
  avgImprovementBps: number
  privateShare: number
  fills: number
  cancelRate: number | null
  reliability: number | null
  points: number
}

export interface Standings { rows: StandingRow[]; total: number }

export async function standings(sql: Tx, q: StandingsQuery): Promise<Standings> {
  const p = leagueParams
  const source = q.sinceDay === null
    ? sql`select address, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points
          from league_totals where role = ${q.role}`
    : sql`select address, sum(fills)::int as fills, sum(notional_usd) as notional_usd, sum(benchmarked_fills)::int as benchmarked_fills,
                 sum(improvement_sum) as improvement_sum, sum(private_fills)::int as private_fills, sum(points) as points
          from league_daily where role = ${q.role} and day >= ${q.sinceDay}::date group by address`
  const quality = q.role === 'maker'
    ? sql`left join (select maker, sum(failed)::float8 / nullif(sum(judged), 0) as cancel_rate from maker_quality_daily
                     ${q.sinceDay === null ? sql`` : sql`where day >= ${q.sinceDay}::date`} group by maker) mq on mq.maker = a.address`
    : sql`left join (select null::text as maker, null::float8 as cancel_rate) mq on false`
  const search = q.search === null ? sql`` : sql`where address like ${'%' + q.search.replace(/[\\%_]/g, m => '\\' + m) + '%'}`
  // rawScore = w*log10(1+notional) * (1 + clamp(avgImp)/d) * (1 + bonus*privateShare) * reliability (makers)
  const rows = await sql`
    with a as (${source}),
    m as (
      select a.address, a.fills, a.notional_usd, a.points,
             case when a.benchmarked_fills > 0 then (a.improvement_sum / a.benchmarked_fills)::float8 else 0 end as avg_imp,
             a.private_fills::float8 / a.fills as private_share,
             case when ${q.role} = 'maker' then coalesce(mq.cancel_rate, 0) end as cancel_rate
      from a ${quality}
      where a.notional_usd >= ${q.minUsd}
    ),
    s as (
      select m.*, least(greatest(1.1 - cancel_rate * 1.5, 0.5), 1.1) as reliability,
             ${p.notionalWeight}::float8 * log(1 + greatest(notional_usd, 0))
               * (1 + least(greatest(avg_imp, ${-p.improvementClampBps}::float8), ${p.improvementClampBps}::float8) / ${p.improvementDivisor}::float8)
               * (1 + ${p.privacyBonus}::float8 * private_share)
               * coalesce(least(greatest(1.1 - cancel_rate * 1.5, 0.5), 1.1), 1) as raw_score
      from m
    ),
    r as (
      select s.*, round(raw_score::numeric, 2)::float8 as score,
             row_number() over (order by round(raw_score::numeric, 2) desc, raw_score desc, notional_usd desc, address) as rank
      from s
    ),
    f as (select * from r ${search})
    select f.*, (select count(*) from f)::int as total from f order by rank limit ${q.limit} offset ${q.offset}`
  let total: number = rows[0]?.total ?? 0
  if (!rows.length) {
    if (q.offset > 0) {   // past the end: count without the page
      const [c] = await sql`
        with a as (${source}) select count(*)::int as n from a where a.notional_usd >= ${q.minUsd}
        ${q.search === null ? sql`` : sql`and address like ${'%' + q.search.replace(/[\\%_]/g, m => '\\' + m) + '%'}`}`
      total = c!.n as number
    }
  }
  return {
    total,
    rows: rows.map(r => ({ rank: Number(r.rank), address: r.address, rawScore: r.raw_score, score: r.score, filledNotional: r.notional_usd,
      avgImprovementBps: r.avg_imp, privateShare: r.private_share, fills: r.fills, cancelRate: r.cancel_rate ?? null,
      reliability: r.reliability ?? null, points: r.points })),
  }
}

export interface Kpi { totalNotional: number; avgImprovementBps: number | null; privateVolumePct: number | null; fillCount: number }

/** Over every fill of the period (each fill has exactly one taker row, so the taker rollup counts each fill once). */
export async function kpi(sql: Tx, sinceDay: string | null): Promise<Kpi> {
  const from = sinceDay === null ? sql`league_totals where role = 'taker'` : sql`league_daily where role = 'taker' and day >= ${sinceDay}::date`
  const [r] = await sql`
    select coalesce(sum(fills), 0)::int as fills, coalesce(sum(notional_usd), 0)::float8 as notional,
           (sum(improvement_sum) / nullif(sum(benchmarked_fills), 0))::float8 as avg_imp,
           (100.0 * sum(private_fills) / nullif(sum(fills), 0))::float8 as private_pct
    from ${from}`
  return { totalNotional: r!.notional, avgImprovementBps: r!.avg_imp, privateVolumePct: r!.private_pct, fillCount: r!.fills }
}
