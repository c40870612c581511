// League rollups and standings. Rollups are bumped in the fill's own transaction; a period's
// figures are the all-time rows minus the period's base (everything before its first day,
// computed once per day), so their cost does not grow with the number of fills or the period's
// length. Scores are materialised in league_scores (migration 070): a trigger on league_totals
// rescores an address whenever its rows change, ensureBase rescores a period when its base turns,
// so a league page is a walk of the (period, role, raw_score) index, not a scoring of everyone.
import type { Tx } from './db.js'
import type { Sql } from './db.js'
import { roundTo } from '../../workers/fills/round.js'

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

/**
 * Rebuilds the fill columns of every rollup from the fills table (after a bulk load, or to repair);
 * makers' judged/failed counts (from RFQ outcomes, not fills) are kept. Self-trades stay out, as in recordFill.
 */
export async function rebuildRollups(sql: Tx): Promise<void> {
  await sql`delete from league_daily where judged = 0`
  await sql`update league_daily set fills = 0, notional_usd = 0, benchmarked_fills = 0, improvement_sum = 0, private_fills = 0, points = 0`
  await sql`
    insert into league_daily (address, role, day, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points)
    select address, role, day, count(*), sum(usd), count(*) filter (where b), coalesce(sum(imp) filter (where b), 0),
           count(*) filter (where p), sum(pts)
    from (
      select taker as address, 'taker' as role, (filled_at at time zone 'utc')::date as day, amount_in_usd as usd,
             benchmark_available as b, improvement_bps as imp, is_private as p, taker_points as pts from fills where taker <> maker
      union all
      select maker, 'maker', (filled_at at time zone 'utc')::date, amount_in_usd, benchmark_available, improvement_bps, is_private, maker_points from fills where taker <> maker
    ) s group by address, role, day
    on conflict (role, day, address) do update set fills = excluded.fills, notional_usd = excluded.notional_usd,
      benchmarked_fills = excluded.benchmarked_fills, improvement_sum = excluded.improvement_sum,
      private_fills = excluded.private_fills, points = excluded.points`
  await totalsFromDaily(sql)
}

/** league_totals := sums of league_daily (and every period base is stale). */
export async function totalsFromDaily(sql: Tx): Promise<void> {
  await sql`truncate league_totals, league_base, league_base_meta, league_scores`
  await sql`
    insert into league_totals (address, role, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points, judged, failed)
    select address, role, sum(fills), sum(notional_usd), sum(benchmarked_fills), sum(improvement_sum), sum(private_fills), sum(points),
           sum(judged), sum(failed)
    from league_daily group by address, role`
}

/** A fill dated before today (backfill, tests) changes the "before the period" part of later bases. */
export async function invalidateBases(sql: Tx, day: string): Promise<void> {
  await sql`delete from league_scores where period in (select period from league_base_meta where base_day > ${day}::date)`
  await sql`delete from league_base where period in (select period from league_base_meta where base_day > ${day}::date)`
  await sql`delete from league_base_meta where base_day > ${day}::date`
}

/**
 * Makes sure league_base holds, for `period`, the sums of every daily row before `baseDay`.
 * Computed once per period per day (the first query after the day turns), with the period's
 * scores; an advisory lock makes concurrent first queries compute it once, and fills (which take
 * it shared to rescore) wait for the new base rather than score against a half-built one.
 */
export async function ensureBase(sql: Sql, period: string, baseDay: string): Promise<void> {
  const [m] = await sql`select base_day::text as d from league_base_meta where period = ${period}`
  if (m?.d === baseDay) return
  await sql.begin(async tx => {
    await tx`select pg_advisory_xact_lock(7318230, hashtext(${period}))`
    const [again] = await tx`select base_day::text as d from league_base_meta where period = ${period}`
    if (again?.d === baseDay) return
    await tx`delete from league_base where period = ${period}`
    await tx`
      insert into league_base (period, address, role, fills, notional_usd, benchmarked_fills, improvement_sum, private_fills, points, judged, failed)
      select ${period}, address, role, sum(fills), sum(notional_usd), sum(benchmarked_fills), sum(improvement_sum), sum(private_fills),
             sum(points), sum(judged), sum(failed)
      from league_daily where day < ${baseDay}::date group by address, role`
    await tx`insert into league_base_meta (period, base_day) values (${period}, ${baseDay}::date)
             on conflict (period) do update set base_day = excluded.base_day`
    await tx`select league_rescore(${period}, null, null)`
  })
}

export interface StandingsQuery {
  role: Role
  /** '7d', '30d' or 'all'; for 7d/30d call ensureBase(period, firstDay) first */
  period: string
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

export interface Standings {
  rows: StandingRow[]
  total: number
}

export async function standings(sql: Tx, q: StandingsQuery): Promise<Standings> {
  const rows = q.search === null ? await page(sql, q) : await searched(sql, q, q.search)
  let total: number = rows[0]?.total ?? 0
  if (!rows.length && q.offset > 0) {
    // past the end: count without the page
    const [c] = await sql`
      select count(*)::int as n from league_scores where period = ${q.period} and role = ${q.role} and notional_usd >= ${q.minUsd}
      ${q.search === null ? sql`` : sql`and address like ${likePattern(q.search)}`}`
    total = c!.n as number
  }
  return {
    total,
    rows: rows.map(r => ({
      rank: Number(r.rank),
      address: r.address,
      rawScore: r.raw_score,
      score: roundTo(r.raw_score, 2),
      filledNotional: r.notional_usd,
      avgImprovementBps: r.avg_imp,
      privateShare: r.private_share,
      fills: r.fills,
      cancelRate: r.cancel_rate ?? null,
      reliability: r.reliability ?? null,
      points: r.points,
    })),
  }
}

// score = round(rawScore, 2) is monotone in rawScore, so ordering by rawScore orders by score too.
const COLUMNS = 'address, fills, notional_usd, points, avg_imp, private_share, cancel_rate, reliability, raw_score'

/** Without a search, a page is a walk of the rank index from `offset`, and the rank is the position. */
function page(sql: Tx, q: StandingsQuery) {
  return sql`
    select ${sql.unsafe(COLUMNS)}, ${q.offset}::int8 + row_number() over (order by raw_score desc, notional_usd desc, address) as rank,
      (select count(*)::int from league_scores where period = ${q.period} and role = ${q.role} and notional_usd >= ${q.minUsd}) as total
    from (select * from league_scores where period = ${q.period} and role = ${q.role} and notional_usd >= ${q.minUsd}
          order by raw_score desc, notional_usd desc, address limit ${q.limit} offset ${q.offset}) p
    order by rank`
}

/** Ranks are taken before the search filter, so an entry found by search keeps its place. */
function searched(sql: Tx, q: StandingsQuery, search: string) {
  return sql`
    with r as (
      select ${sql.unsafe(COLUMNS)}, row_number() over (order by raw_score desc, notional_usd desc, address) as rank
      from league_scores where period = ${q.period} and role = ${q.role} and notional_usd >= ${q.minUsd}),
    f as (select * from r where address like ${likePattern(search)})
    select f.*, count(*) over ()::int as total from f order by rank limit ${q.limit} offset ${q.offset}`
}

const likePattern = (search: string) => '%' + search.replace(/[\\%_]/g, m => '\\' + m) + '%'

export interface Kpi {
  totalNotional: number
  avgImprovementBps: number | null
  privateVolumePct: number | null
  fillCount: number
}

/** Over every fill of the period (each fill has exactly one taker row, so the taker rows count each fill once). */
export async function kpi(sql: Tx, period: string): Promise<Kpi> {
  const [r] = await sql`
    select coalesce(sum(fills), 0)::int as fills, coalesce(sum(notional_usd), 0)::float8 as notional,
           (sum(improvement_sum) / nullif(sum(benchmarked_fills), 0))::float8 as avg_imp,
           (100.0 * sum(private_fills) / nullif(sum(fills), 0))::float8 as private_pct
    from league_scores where period = ${period} and role = 'taker'`
  return {
    totalNotional: r!.notional,
    avgImprovementBps: r!.avg_imp,
    privateVolumePct: r!.private_pct,
    fillCount: r!.fills,
  }
}
