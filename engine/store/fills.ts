// The fills table: the insert that a txHash wins exactly once, and the reads of the reports.
import type { Tx } from './baselines.js'

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
    from fills f join baselines b on b.rfq_id = f.rfq_id left join rfqs q on q.id = f.rfq_id
    where f.rfq_id = ${rfqId}
    order by f.filled_at desc, f.id desc limit 1`
  if (!r) return undefined
  return { rfqAmountIn: r.amount_in, rfqAmountOut: r.amount_out, benchmarkAvailable: r.benchmark_available, improvementBps: r.improvement_bps,
    filledAt: r.filled_at, baselineAmountIn: r.b_amount_in, baselineAmountOut: r.baseline_amount_out, baselineSource: r.source, kind: r.kind === 1 ? 1 : 0 }
}

export interface Summary {
  totalFills: number
  avgImprovementBps: number | null
  medianImprovementBps: number | null
  totalVolumeUsd: number
  pctBetterThanBaseline: number | null
}

/**
 * One SQL pass over the window: every fill counts for totalFills and volume; the improvement
 * figures count only fills that had a baseline (benchmarked), as a fill without one has no
 * improvement to speak of. pctBetterThanBaseline is a percentage (0-100) of benchmarked fills.
 */
export async function performanceSummary(sql: Tx, q: { since: Date; tokenIn?: string; tokenOut?: string }): Promise<Summary> {
  const pairFilter = q.tokenIn && q.tokenOut ? sql`and token_in = ${q.tokenIn} and token_out = ${q.tokenOut}`
    : q.tokenIn ? sql`and token_in = ${q.tokenIn}` : q.tokenOut ? sql`and token_out = ${q.tokenOut}` : sql``
  const [r] = await sql`
    select count(*)::int as total_fills,
      (avg(improvement_bps) filter (where benchmark_available))::float8 as avg_improvement,
      percentile_cont(0.5) within group (order by improvement_bps::float8) filter (where benchmark_available) as median_improvement,
      coalesce(sum(amount_in_usd), 0)::float8 as total_volume,
      (100.0 * count(*) filter (where benchmark_available and improvement_bps > 0)
        / nullif(count(*) filter (where benchmark_available), 0))::float8 as pct_better
    from fills where filled_at >= ${q.since} ${pairFilter}`
  return { totalFills: r!.total_fills, avgImprovementBps: r!.avg_improvement, medianImprovementBps: r!.median_improvement,
    totalVolumeUsd: r!.total_volume, pctBetterThanBaseline: r!.pct_better }
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

export async function activity(sql: Tx, q: { address: string; role: 'maker' | 'taker'; since: Date | null; limit: number }): Promise<ActivityFill[]> {
  const mine = q.role === 'maker' ? sql`maker` : sql`taker`
  const other = q.role === 'maker' ? sql`taker` : sql`maker`
  const since = q.since ? sql`and filled_at >= ${q.since}` : sql``
  const rows = await sql`
    select tx_hash, filled_at, ${other} as counterparty, token_in, token_out, amount_in, amount_out, amount_in_usd,
           is_private, improvement_bps::float8 as improvement_bps, benchmark_available
    from fills where ${mine} = ${q.address} ${since}
    order by filled_at desc, id desc limit ${q.limit}`
  return rows.map(r => ({ txHash: r.tx_hash, filledAt: r.filled_at, counterparty: r.counterparty, tokenIn: r.token_in, tokenOut: r.token_out,
    amountIn: r.amount_in, amountOut: r.amount_out, notionalUsd: r.amount_in_usd, isPrivate: r.is_private,
    improvementBps: r.improvement_bps, benchmarkAvailable: r.benchmark_available }))
}
