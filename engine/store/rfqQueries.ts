// The REST API's reads (and its few guarded writes) of the shared `rfqs` table. Live RFQs change
// only through the RfqDirectory; the writes here touch RFQs that are no longer live, and only
// with a condition on the status, so a racing actor write and this one cannot both win.
import type { Tx } from './db.js'
import type { EndedBy, RfqStatus, Visibility, RfqKind } from '../../actors/rfqTypes.js'
import type { Viewer } from '../../actors/visibility.js'

export interface RfqRow {
  seq: number
  id: string
  taker: `0x${string}`
  tokenIn: `0x${string}`
  tokenOut: `0x${string}`
  kind: RfqKind
  amountIn: bigint | null
  amountOut: bigint | null
  expiry: number
  visibility: Visibility
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
 * An OPEN or QUOTED RFQ whose expiry has passed shows EXPIRED even before its end is stored. Expiry is judged by
 * the engine's clock (Node's), here as in the RFQ actors, the relay's listings, the cancel of a stored RFQ and the
 * TTL cleanup: PostgreSQL's clock is never asked whether an RFQ expired.
 */
export function effectiveStatus(status: RfqStatus, expiry: number, nowSec = Date.now() / 1000): RfqStatus {
  return (status === 'OPEN' || status === 'QUOTED') && expiry <= nowSec ? 'EXPIRED' : status
}

export interface RfqEnd {
  status: RfqStatus
  endedAt: Date | null
  endedBy: EndedBy | null
}

/** How, when and by whom an RFQ ended, as every reader shows it: an expiry not stored yet reads as its own. */
export function effectiveEnd(r: RfqEnd & { expiry: number }, nowSec = Date.now() / 1000): RfqEnd {
  const status = effectiveStatus(r.status, r.expiry, nowSec)
  if (status === 'OPEN' || status === 'QUOTED') return { status, endedAt: null, endedBy: null }
  const unstored = r.status === 'OPEN' || r.status === 'QUOTED'
  if (unstored) return { status, endedAt: new Date(r.expiry * 1000), endedBy: 'expiry' }
  return { status, endedAt: r.endedAt, endedBy: r.endedBy }
}

const COLUMNS =
  'seq, id, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility, agent_id, share_token_hash, ' +
  'status, quote_count, fill_tx_hash, cancelled_at, ended_at, ended_by, created_at'

/**
 * One page, newest first, keyset-paged on `seq` (strictly increasing, unique): rows inserted
 * while a client pages have larger seqs than its cursor, so nothing is skipped or repeated.
 * Returns limit + 1 rows at most; the caller uses the extra one to know there is a next page.
 */
export async function rfqPage(
  sql: Tx,
  q: { open: boolean; beforeSeq: number | null; limit: number; nowSec?: number; viewer: Viewer },
): Promise<RfqRow[]> {
  const now = q.nowSec ?? Math.floor(Date.now() / 1000)
  const rows = await sql`
    select ${sql.unsafe(COLUMNS)} from rfqs
    where ${visibleTo(sql, q.viewer)}
      ${q.beforeSeq !== null ? sql`and seq < ${q.beforeSeq}` : sql``}
      ${q.open ? sql`and status in ('OPEN', 'QUOTED') and expiry > ${now}` : sql``}
    order by seq desc limit ${q.limit + 1}`
  return rows.map(toRow)
}

/** The place (seq) of an RFQ `viewer` may see; undefined for an unknown one and for one it may not see alike. */
export async function seqOfVisible(sql: Tx, id: string, viewer: Viewer): Promise<number | undefined> {
  const [r] = await sql`select seq from rfqs where id = ${id} and ${visibleTo(sql, viewer)}`
  return r ? Number(r.seq) : undefined
}

export async function rfqById(sql: Tx, id: string): Promise<RfqRow | undefined> {
  const [r] = await sql`select ${sql.unsafe(COLUMNS)} from rfqs where id = ${id}`
  return r ? toRow(r) : undefined
}

/** Cancels a stored (not live) RFQ still open and unexpired by the engine's clock; undefined when it was not. */
export async function cancelPersisted(sql: Tx, id: string, nowMs = Date.now()): Promise<Date | undefined> {
  const at = new Date(nowMs)
  const [r] = await sql`
    update rfqs set status = 'CANCELLED', cancelled_at = ${at}, ended_at = ${at}, ended_by = 'taker'
    where id = ${id} and status in ('OPEN', 'QUOTED') and expiry > ${Math.floor(nowMs / 1000)}
    returning cancelled_at`
  return r?.cancelled_at
}

/**
 * Marks an RFQ filled: the fill rule (engine/rfq/service.ts) as one conditional update. For a live RFQ
 * this runs inside the actor's turn; for a stored one the condition is what keeps a second fill or a
 * cancel from winning too. `happenedAt` (unix seconds) is when the fill happened: it must be before the
 * expiry (a row stored EXPIRED still qualifies when its fill was mined in time). False when not fillable.
 */
export async function markFilled(sql: Tx, id: string, txHash: string, happenedAt: number): Promise<boolean> {
  const rows = await sql`
    update rfqs set status = 'FILLED', fill_tx_hash = ${txHash}, filled_at = now(), ended_at = now(), ended_by = 'taker'
    where id = ${id} and status in ('OPEN', 'QUOTED', 'EXPIRED') and expiry > ${happenedAt}
    returning id`
  return rows.length === 1
}

export async function fillExists(sql: Tx, txHash: string): Promise<boolean> {
  const [r] = await sql`select 1 from fills where tx_hash = ${txHash.toLowerCase()}`
  return !!r
}

/** Counts of a taker's RFQs by effective status, for the profile. */
/**
 * The visibility rule (actors/visibility.ts: canSee) as a condition, so a read skips what the viewer may not see:
 * public, or made by the viewer's agent, or opened by one of its share tokens (a null hash opens nothing).
 */
export function visibleTo(sql: Tx, viewer: Viewer) {
  return sql`(visibility = 'public'
    ${viewer.agentId !== null ? sql`or agent_id = ${viewer.agentId}` : sql``}
    ${viewer.shareTokenHashes.length ? sql`or share_token_hash = any(${sql.array([...viewer.shareTokenHashes])})` : sql``})`
}

/** A taker's RFQs by status, counting only those `viewer` may see (a public profile shows no private RFQ). */
export async function rfqCountsOfTaker(
  sql: Tx,
  taker: string,
  viewer: Viewer,
  nowSec = Math.floor(Date.now() / 1000),
): Promise<Record<'active' | 'filled' | 'cancelled' | 'expired' | 'total', number>> {
  const [r] = await sql`
    select count(*)::int as total,
      (count(*) filter (where status in ('OPEN', 'QUOTED') and expiry > ${nowSec}))::int as active,
      (count(*) filter (where status = 'FILLED'))::int as filled,
      (count(*) filter (where status = 'CANCELLED'))::int as cancelled,
      (count(*) filter (where status = 'EXPIRED' or (status in ('OPEN', 'QUOTED') and expiry <= ${nowSec})))::int as expired
    from rfqs where taker = ${taker} and ${visibleTo(sql, viewer)}`
  return { total: r!.total, active: r!.active, filled: r!.filled, cancelled: r!.cancelled, expired: r!.expired }
}

function toRow(r: Record<string, unknown>): RfqRow {
  return {
    seq: Number(r.seq),
    id: r.id as string,
    taker: r.taker as `0x${string}`,
    tokenIn: r.token_in as `0x${string}`,
    tokenOut: r.token_out as `0x${string}`,
    kind: Number(r.kind) as RfqKind,
    amountIn: big(r.amount_in),
    amountOut: big(r.amount_out),
    expiry: Number(r.expiry),
    visibility: r.visibility as Visibility,
    agentId: (r.agent_id as string | null) ?? null,
    shareTokenHash: (r.share_token_hash as string | null) ?? null,
    status: r.status as RfqStatus,
    quoteCount: Number(r.quote_count),
    fillTxHash: (r.fill_tx_hash as string | null) ?? null,
    cancelledAt: (r.cancelled_at as Date | null) ?? null,
    endedAt: (r.ended_at as Date | null) ?? null,
    endedBy: (r.ended_by as EndedBy | null) ?? null,
    createdAt: r.created_at as Date,
  }
}

function big(x: unknown): bigint | null {
  return x === null || x === undefined ? null : BigInt(x as string | bigint)
}
