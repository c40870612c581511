// AMM baselines: one per rfqId (upsert). A client's baseline (what the user was shown) always
// wins; the route finder's server-side baseline only fills the gap and never overwrites a client's.
import type postgres from 'postgres'
import type { Tx } from './db.js'
import { rfqIdSql } from './rfqKey.js'

export type BaselineSource = 'client' | 'sor'

export interface RouteSummaryItem {
  protocol: string
  poolType: string
  fractionPct: number
}

export interface Baseline {
  rfqId: string
  tokenIn: string
  tokenOut: string
  amountIn: bigint
  baselineAmountOut: bigint
  baselineEffectivePrice: number
  baselinePriceImpactBps: number
  baselineBlockNumber: string
  baselineTimestamp: Date
  baselineRouteSummary: RouteSummaryItem[]
  source: BaselineSource
  /** the route finder could route only `amountIn` of a larger RFQ: not a benchmark for the whole */
  partial?: boolean
}

/** Inserts or updates the baseline of b.rfqId; returns its id (stable across updates), or null when a 'sor' write yielded to a client baseline. */
export async function upsertBaseline(sql: Tx, b: Baseline): Promise<string | null> {
  const rows = await sql`
    insert into baselines (rfq_id, token_in, token_out, amount_in, baseline_amount_out, baseline_effective_price,
      baseline_price_impact_bps, baseline_block_number, baseline_timestamp, baseline_route_summary, source, partial)
    values (${b.rfqId}, ${b.tokenIn}, ${b.tokenOut}, ${sql.typed.u256(b.amountIn)}, ${sql.typed.u256(b.baselineAmountOut)},
      ${b.baselineEffectivePrice}, ${b.baselinePriceImpactBps}, ${b.baselineBlockNumber}, ${b.baselineTimestamp},
      ${sql.json(b.baselineRouteSummary as unknown as postgres.JSONValue)}, ${b.source}, ${b.partial ?? false})
    on conflict (rfq_id) do update set
      token_in = excluded.token_in, token_out = excluded.token_out, amount_in = excluded.amount_in,
      baseline_amount_out = excluded.baseline_amount_out, baseline_effective_price = excluded.baseline_effective_price,
      baseline_price_impact_bps = excluded.baseline_price_impact_bps, baseline_block_number = excluded.baseline_block_number,
      baseline_timestamp = excluded.baseline_timestamp, baseline_route_summary = excluded.baseline_route_summary,
      source = excluded.source, partial = excluded.partial, updated_at = now()
    where excluded.source = 'client' or baselines.source = 'sor'
    returning id`
  return (rows[0]?.id as string | undefined) ?? null
}

export interface BaselineForFill {
  id: string
  amountIn: bigint
  baselineAmountOut: bigint
  source: BaselineSource
  /** the RFQ's kind when the RFQ is ours; client-generated rfqIds are EXACT_IN */
  kind: 0 | 1
}

export async function baselineForRfq(sql: Tx, rfqId: string): Promise<BaselineForFill | undefined> {
  const [row] = await sql`
    select b.id, b.amount_in, b.baseline_amount_out, b.source, coalesce(r.kind, 0)::int as kind
    from baselines b left join rfqs r on ${rfqIdSql(sql, rfqId, 'r')}
    where b.rfq_id = ${rfqId} and not b.partial` // a partial baseline is no benchmark for the whole RFQ
  if (!row) return undefined
  return {
    id: row.id,
    amountIn: row.amount_in,
    baselineAmountOut: row.baseline_amount_out,
    source: row.source,
    kind: row.kind === 1 ? 1 : 0,
  }
}

/** Why an RFQ has no server-side baseline (engine/sor/baselineQueue.ts). */
export interface BaselineMiss {
  rfqId: string
  code: string
  reason: string
}

export async function recordBaselineMiss(sql: Tx, m: BaselineMiss): Promise<void> {
  await sql`
    insert into baseline_misses (rfq_id, code, reason) values (${m.rfqId}, ${m.code}, ${m.reason})
    on conflict (rfq_id) do update set code = excluded.code, reason = excluded.reason, created_at = now()`
}

export async function baselineMiss(sql: Tx, rfqId: string): Promise<{ code: string; reason: string } | undefined> {
  const [row] = await sql`select code, reason from baseline_misses where rfq_id = ${rfqId}`
  return row ? { code: row.code as string, reason: row.reason as string } : undefined
}
