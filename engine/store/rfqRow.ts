// The `rfqs` table as postgres.js hands it over (db.ts's types: numeric to bigint, int8 to number), and its one
// mapper: every read of a whole RFQ row, by the REST API, the relay or the book's restore, goes through `rfqRowOf`.
import type { Address, EndedBy, Rfq, RfqKind, RfqStatus, Visibility } from '../../actors/rfqTypes.js'
import type { Tx } from './db.js'
import { rfqDaysSql } from './rfqKey.js'

/** A row of `rfqs`, column by column (migrations 010, 097), and its quotes' count (rfqColumns). */
export interface RfqColumns {
  seq: number
  id: string
  taker: Address
  token_in: Address
  token_out: Address
  kind: number
  amount_in: bigint | null
  amount_out: bigint | null
  expiry: number
  visibility: Visibility
  allowed_makers: Address[]
  share_token_hash: string | null
  agent_id: string | null
  status: RfqStatus
  quote_count: number
  fill_tx_hash: string | null
  cancelled_at: Date | null
  filled_at: Date | null
  ended_at: Date | null
  ended_by: EndedBy | null
  created_at: Date
}

/** A stored RFQ as every reader takes it. */
export interface RfqRow {
  seq: number
  id: string
  taker: Address
  tokenIn: Address
  tokenOut: Address
  kind: RfqKind
  amountIn: bigint | null
  amountOut: bigint | null
  expiry: number
  visibility: Visibility
  allowedMakers: Address[]
  agentId: string | null
  /** sha256 of a private RFQ's share token, for the visibility rule; never shown */
  shareTokenHash: string | null
  /** as stored; use effectiveStatus() for what a reader should see */
  status: RfqStatus
  quoteCount: number
  fillTxHash: string | null
  cancelledAt: Date | null
  /** as stored (migration 097): when and by whom it ended; use effectiveEnd() for what a reader should see */
  endedAt: Date | null
  endedBy: EndedBy | null
  createdAt: Date
}

/**
 * The columns `rfqRowOf` reads, for a select list over `rfqs`. The quote count is its stored quotes' (an index range of
 * the quotes' key in the RFQ's day's partition): the group commit no longer writes the RFQ's row a quote (migration
 * 104). `ids`: the RFQs a lookup asks for, whose days name that partition when the query is planned (rfqKey.ts);
 * without them each row's partition is found as the subquery runs.
 */
export function rfqColumns(sql: Tx, ids?: readonly string[]) {
  const days = ids ? sql`and ${rfqDaysSql(sql, ids, 'q', 'rfq_day')}` : sql``
  return sql`${sql.unsafe(STORED_COLUMNS)}, (select count(*)::int from quotes q
    where q.rfq_id = rfq_key(rfqs.id) and q.rfq_day = rfqs.created_day ${days}) as quote_count`
}

const STORED_COLUMNS =
  'seq, id, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility, ' +
  'allowed_makers, agent_id, share_token_hash, status, fill_tx_hash, cancelled_at, ended_at, ended_by, created_at'

export function rfqRowOf(c: Omit<RfqColumns, 'filled_at'>): RfqRow {
  return {
    seq: c.seq,
    id: c.id,
    taker: c.taker,
    tokenIn: c.token_in,
    tokenOut: c.token_out,
    kind: c.kind === 1 ? 1 : 0,
    amountIn: c.amount_in,
    amountOut: c.amount_out,
    expiry: c.expiry,
    visibility: c.visibility,
    allowedMakers: c.allowed_makers,
    agentId: c.agent_id,
    shareTokenHash: c.share_token_hash,
    status: c.status,
    quoteCount: c.quote_count,
    fillTxHash: c.fill_tx_hash,
    cancelledAt: c.cancelled_at,
    endedAt: c.ended_at,
    endedBy: c.ended_by,
    createdAt: c.created_at,
  }
}

/** A stored RFQ's terms, as its actor holds them: the share token itself is never stored, only its hash. */
export function rfqTermsOf(r: RfqRow): Rfq {
  return {
    id: r.id,
    taker: r.taker,
    tokenIn: r.tokenIn,
    tokenOut: r.tokenOut,
    kind: r.kind,
    amountIn: r.amountIn,
    amountOut: r.amountOut,
    expiry: r.expiry,
    visibility: r.visibility,
    allowedMakers: r.allowedMakers,
    shareToken: null,
    createdAt: r.createdAt,
    agentId: r.agentId,
  }
}
