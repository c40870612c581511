// The fills table: the insert that a txHash wins exactly once, and the reads of the reports.
import type { Tx } from './db.js'
import { rfqIdSql } from './rfqKey.js'

export interface NewFill {
  txHash: string
  rfqId: string | null
  taker: string
  maker: string
  tokenIn: string
  tokenOut: string
  amountIn: bigint
  amountOut: bigint
  amountInUsd: number
  isPrivate: boolean
  benchmarkAvailable: boolean
  /** exact decimal text, 2 places */
  improvementBps: string
  baselineSource: string | null
  takerPoints: number
  makerPoints: number
  pointsVersion: string
  filledAt: Date | null
}

/** Returns the new fill's id and day, or null when the txHash is already recorded (the unique constraint decides). */
export async function insertFill(sql: Tx, f: NewFill): Promise<{ id: string; day: string; filledAt: Date } | null> {
  const rows = await sql`
    insert into fills (tx_hash, rfq_id, taker, maker, token_in, token_out, amount_in, amount_out, amount_in_usd, is_private,
      benchmark_available, improvement_bps, baseline_source, taker_points, maker_points, points_version, filled_at)
    values (${f.txHash}, ${f.rfqId}, ${f.taker}, ${f.maker}, ${f.tokenIn}, ${f.tokenOut}, ${sql.typed.u256(f.amountIn)},
      ${sql.typed.u256(f.amountOut)}, ${f.amountInUsd}, ${f.isPrivate}, ${f.benchmarkAvailable}, ${f.improvementBps}::numeric,
      ${f.baselineSource}, ${f.takerPoints}, ${f.makerPoints}, ${f.pointsVersion}, coalesce(${f.filledAt}::timestamptz, now()))
    on conflict (tx_hash) do nothing
    returning id, to_char(filled_at at time zone 'utc', 'YYYY-MM-DD') as day, filled_at`
  const r = rows[0]
  return r ? { id: r.id, day: r.day, filledAt: r.filled_at } : null
}

export interface RfqPerformanceRow {
  rfqAmountIn: bigint
  rfqAmountOut: bigint
  benchmarkAvailable: boolean
  improvementBps: number
  filledAt: Date
  baselineAmountIn: bigint
  baselineAmountOut: bigint
  baselineSource: string
  kind: 0 | 1
}

/** The latest fill of an RFQ joined with its baseline; undefined when either is missing. */
export async function rfqPerformance(sql: Tx, rfqId: string): Promise<RfqPerformanceRow | undefined> {
  const [r] = await sql`
    select f.amount_in, f.amount_out, f.benchmark_available, f.improvement_bps::float8 as improvement_bps, f.filled_at,
           b.amount_in as b_amount_in, b.baseline_amount_out, b.source, coalesce(q.kind, 0)::int as kind
    from fills f join baselines b on b.rfq_id = f.rfq_id and not b.partial left join rfqs q on ${rfqIdSql(sql, rfqId, 'q')}
    where f.rfq_id = ${rfqId}
    order by f.filled_at desc, f.id desc limit 1`
  if (!r) return undefined
  return {
    rfqAmountIn: r.amount_in,
    rfqAmountOut: r.amount_out,
    benchmarkAvailable: r.benchmark_available,
    improvementBps: r.improvement_bps,
    filledAt: r.filled_at,
    baselineAmountIn: r.b_amount_in,
    baselineAmountOut: r.baseline_amount_out,
    baselineSource: r.source,
    kind: r.kind === 1 ? 1 : 0,
  }
}

/** Which of the two a performance report needs is missing for an RFQ: its baseline, its fill, or both. */
export async function performanceMissing(sql: Tx, rfqId: string): Promise<('baseline' | 'fill')[]> {
  const [r] = await sql`
    select exists (select 1 from baselines where rfq_id = ${rfqId} and not partial) as baseline, exists (select 1 from fills where rfq_id = ${rfqId}) as fill`
  return [...(r!.baseline ? [] : ['baseline' as const]), ...(r!.fill ? [] : ['fill' as const])]
}

export interface Summary {
  totalFills: number
  avgImprovementBps: number | null
  medianImprovementBps: number | null
  totalVolumeUsd: number
  pctBetterThanBaseline: number | null
}

// A window's base moves in whole minutes: the raw edge read per request is at most a minute of fills,
// and a move adds only the minute (or minutes, after a quiet spell) that left the window.
const BASE_STEP_MS = 60_000

/**
 * The window's figures from the rollups of migration 080: all-time sums minus the window's base
 * (fills before the minute the window starts in), corrected by the raw fills between that minute and
 * `since`, so the cost does not grow with the fills in the window. Every fill counts for
 * totalFills and volume; the improvement figures count only benchmarked fills (a fill without a
 * baseline has no improvement to speak of). pctBetterThanBaseline is a percentage (0-100) of
 * benchmarked fills. The median is exact: the mean of the two middle values for an even count.
 */
export async function performanceSummary(
  sql: Tx,
  q: { window: string; since: Date; tokenIn?: string; tokenOut?: string },
): Promise<Summary> {
  await sql`select fill_summary_advance(${q.window}, ${new Date(Math.floor(q.since.getTime() / BASE_STEP_MS) * BASE_STEP_MS)})`
  const pair =
    q.tokenIn && q.tokenOut
      ? sql`and token_in = ${q.tokenIn} and token_out = ${q.tokenOut}`
      : q.tokenIn
        ? sql`and token_in = ${q.tokenIn}`
        : q.tokenOut
          ? sql`and token_out = ${q.tokenOut}`
          : sql``
  const since = sql`${q.since}::timestamptz`
  // One statement, so the rollups, the base and the raw edge are read from one snapshot. Without a
  // base (never built, or truncated since) the edge is every fill before `since`: slow but right.
  const [r] = await sql`
    with base as (select coalesce((select boundary from fill_summary_bases where scope = ${q.window}), '-infinity'::timestamptz) as b),
    edge as (select least(b, ${since}) as lo, greatest(b, ${since}) as hi, case when b <= ${since} then -1 else 1 end as s from base),
    head as (
      select f.*, edge.s from edge, lateral (
        select improvement_bps as v, benchmark_available as ba, amount_in_usd as u from fills
        where filled_at >= edge.lo and filled_at < edge.hi ${pair}) f),
    tot as (
      select coalesce(sum(fills), 0) as fills, coalesce(sum(volume), 0) as volume, coalesce(sum(bench), 0) as bench,
             coalesce(sum(isum), 0) as isum, coalesce(sum(better), 0) as better
      from (
        select fills, volume_usd as volume, benchmarked as bench, improvement_sum as isum, better from fill_summary where scope = 'all' ${pair}
        union all
        select -fills, -volume_usd, -benchmarked, -improvement_sum, -better from fill_summary where scope = ${q.window} ${pair}
        union all
        select s, s * u::numeric, case when ba then s else 0 end, case when ba then s * v else 0 end,
               case when ba and v > 0 then s else 0 end from head
      ) x),
    -- 1-based ranks of the middle: one rank for an odd count, two neighbours for an even one
    mid as (select (bench::int8 + 1) / 2 as k1, bench::int8 / 2 + 1 as k2 from tot where bench > 0),
    buckets as (
      select bucket, sum(n) as n from (
        select bucket, n from fill_summary_buckets where scope = 'all' ${pair}
        union all select bucket, -n from fill_summary_buckets where scope = ${q.window} ${pair}
        union all select fill_summary_bucket(v), s from head where ba
      ) x group by bucket),
    ranked as (select bucket, sum(n) over (order by bucket) - n as below, n from buckets where n <> 0),
    picked as (
      select r.bucket, r.below from ranked r, mid
      where (mid.k1 > r.below and mid.k1 <= r.below + r.n) or (mid.k2 > r.below and mid.k2 <= r.below + r.n)),
    -- as a range of scalars, so the lookups below are index range scans (at most two buckets hold the middle)
    span as (select min(bucket) as lo, max(bucket) as hi from picked),
    vals as (
      select bucket, improvement, sum(n) as n from (
        select bucket, improvement, n from fill_summary_values
        where scope = 'all' and bucket >= (select lo from span) and bucket <= (select hi from span) ${pair}
        union all
        select bucket, improvement, -n from fill_summary_values
        where scope = ${q.window} and bucket >= (select lo from span) and bucket <= (select hi from span) ${pair}
        union all
        select fill_summary_bucket(v), v, s from head where ba
      ) x group by bucket, improvement),
    vranked as (
      select v.improvement, p.below + sum(v.n) over (partition by v.bucket order by v.improvement) - v.n as below, v.n
      from vals v join picked p using (bucket) where v.n <> 0)
    select tot.fills::int8 as total_fills, tot.volume::float8 as total_volume,
      (tot.isum / nullif(tot.bench, 0))::float8 as avg_improvement,
      (100.0 * tot.better / nullif(tot.bench, 0))::float8 as pct_better,
      (((select improvement from vranked, mid where mid.k1 > below and mid.k1 <= below + n)
        + (select improvement from vranked, mid where mid.k2 > below and mid.k2 <= below + n)) / 2)::float8 as median_improvement
    from tot`
  return {
    totalFills: r!.total_fills,
    avgImprovementBps: r!.avg_improvement,
    medianImprovementBps: r!.median_improvement,
    totalVolumeUsd: r!.total_volume,
    pctBetterThanBaseline: r!.pct_better,
  }
}

export interface ActivityFill {
  txHash: string
  filledAt: Date
  counterparty: string
  tokenIn: string
  tokenOut: string
  amountIn: bigint
  amountOut: bigint
  notionalUsd: number
  isPrivate: boolean
  improvementBps: number
  benchmarkAvailable: boolean
}

export async function activity(
  sql: Tx,
  q: { address: string; role: 'maker' | 'taker'; since: Date | null; limit: number },
): Promise<ActivityFill[]> {
  const mine = q.role === 'maker' ? sql`maker` : sql`taker`
  const other = q.role === 'maker' ? sql`taker` : sql`maker`
  const since = q.since ? sql`and filled_at >= ${q.since}` : sql``
  const rows = await sql`
    select tx_hash, filled_at, ${other} as counterparty, token_in, token_out, amount_in, amount_out, amount_in_usd,
           is_private, improvement_bps::float8 as improvement_bps, benchmark_available
    from fills where ${mine} = ${q.address} ${since}
    order by filled_at desc, id desc limit ${q.limit}`
  return rows.map(r => ({
    txHash: r.tx_hash,
    filledAt: r.filled_at,
    counterparty: r.counterparty,
    tokenIn: r.token_in,
    tokenOut: r.token_out,
    amountIn: r.amount_in,
    amountOut: r.amount_out,
    notionalUsd: r.amount_in_usd,
    isPrivate: r.is_private,
    improvementBps: r.improvement_bps,
    benchmarkAvailable: r.benchmark_available,
  }))
}
