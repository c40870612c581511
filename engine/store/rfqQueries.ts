// The REST API's reads (and its few guarded writes) of the shared `rfqs` table. Live RFQs change
// only through the RfqDirectory; the writes here touch RFQs that are no longer live, and only
// with a condition on the status, so a racing actor write and this one cannot both win.
import type { Tx } from './db.js'
import type { EndedBy, RfqStatus } from '../../actors/rfqTypes.js'
import type { Viewer } from '../../actors/visibility.js'
import { hasExpired, isOpen } from '../../workers/values/index.js'
import { rfqColumns, rfqRowOf, type RfqColumns, type RfqRow } from './rfqRow.js'
import { expiredUnstoredSql, liveSql, openSql } from './rfqOpen.js'
import { rfqIdSql } from './rfqKey.js'

export type { RfqRow } from './rfqRow.js'

/**
 * An open RFQ whose expiry has passed shows EXPIRED even before its end is stored. Expiry is judged by Node's
 * clock (workers/values/rfqStatus.ts), here as in the RFQ actors, the relay's listings, the cancel of a stored RFQ
 * and the TTL cleanup: PostgreSQL's clock is never asked whether an RFQ expired.
 */
export function effectiveStatus(status: RfqStatus, expiry: number, nowMs = Date.now()): RfqStatus {
  return isOpen(status) && hasExpired(expiry, nowMs) ? 'EXPIRED' : status
}

export interface RfqEnd {
  status: RfqStatus
  endedAt: Date | null
  endedBy: EndedBy | null
}

/** How, when and by whom an RFQ ended, as every reader shows it: an expiry not stored yet reads as its own. */
export function effectiveEnd(r: RfqEnd & { expiry: number }, nowMs = Date.now()): RfqEnd {
  const status = effectiveStatus(r.status, r.expiry, nowMs)
  if (isOpen(status)) return { status, endedAt: null, endedBy: null }
  if (isOpen(r.status)) return { status, endedAt: new Date(r.expiry * 1000), endedBy: 'expiry' }
  return { status, endedAt: r.endedAt, endedBy: r.endedBy }
}

/**
 * One page, newest first, keyset-paged on `seq` (strictly increasing, unique): rows inserted
 * while a client pages have larger seqs than its cursor, so nothing is skipped or repeated.
 * Returns limit + 1 rows at most; the caller uses the extra one to know there is a next page.
 */
export async function rfqPage(
  sql: Tx,
  q: { open: boolean; beforeSeq: number | null; limit: number; nowMs?: number; viewer: Viewer },
): Promise<RfqRow[]> {
  const rows = await sql<RfqColumns[]>`
    select ${rfqColumns(sql)} from rfqs
    where ${visibleTo(sql, q.viewer)}
      ${q.beforeSeq !== null ? sql`and seq < ${q.beforeSeq}` : sql``}
      ${q.open ? sql`and ${liveSql(sql, q.nowMs ?? Date.now())}` : sql``}
    order by seq desc limit ${q.limit + 1}`
  return rows.map(rfqRowOf)
}

/** The place (seq) of an RFQ `viewer` may see; undefined for an unknown one and for one it may not see alike. */
export async function seqOfVisible(sql: Tx, id: string, viewer: Viewer): Promise<number | undefined> {
  const [r] = await sql<
    Pick<RfqColumns, 'seq'>[]
  >`select seq from rfqs where ${rfqIdSql(sql, id)} and ${visibleTo(sql, viewer)}`
  return r?.seq
}

export async function rfqById(sql: Tx, id: string): Promise<RfqRow | undefined> {
  const [r] = await sql<RfqColumns[]>`select ${rfqColumns(sql, [id])} from rfqs where ${rfqIdSql(sql, id)}`
  return r ? rfqRowOf(r) : undefined
}

/** Cancels a stored (not live) RFQ still open and unexpired by the engine's clock; undefined when it was not. */
export async function cancelPersisted(sql: Tx, id: string, nowMs = Date.now()): Promise<Date | undefined> {
  const at = new Date(nowMs)
  const [r] = await sql<Pick<RfqColumns, 'cancelled_at'>[]>`
    update rfqs set status = 'CANCELLED', cancelled_at = ${at}, ended_at = ${at}, ended_by = 'taker'
    where ${rfqIdSql(sql, id)} and ${liveSql(sql, nowMs)}
    returning cancelled_at`
  return r?.cancelled_at ?? undefined
}

/**
 * Marks an RFQ filled: the fill rule (engine/rfq/service.ts) as one conditional update. For a live RFQ
 * this runs inside the actor's turn; for a stored one the condition is what keeps a second fill or a
 * cancel from winning too. `happenedAt` (unix seconds) is when the fill happened: it must be before the
 * expiry (a row stored EXPIRED still qualifies when its fill was mined in time). False when not fillable. The fill
 * is stamped by Node's clock (`nowMs`), like a cancel.
 */
export async function markFilled(
  sql: Tx,
  id: string,
  txHash: string,
  happenedAt: number,
  nowMs = Date.now(),
): Promise<boolean> {
  const at = new Date(nowMs)
  const rows = await sql<Pick<RfqColumns, 'id'>[]>`
    update rfqs set status = 'FILLED', fill_tx_hash = ${txHash}, filled_at = ${at}, ended_at = ${at}, ended_by = 'taker'
    where ${rfqIdSql(sql, id)} and (${openSql(sql)} or status = 'EXPIRED') and expiry > ${happenedAt}
    returning id`
  return rows.length === 1
}

export async function fillExists(sql: Tx, txHash: string): Promise<boolean> {
  const [r] = await sql<{ found: 1 }[]>`select 1 as found from fills where tx_hash = ${txHash.toLowerCase()}`
  return !!r
}

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
  nowMs = Date.now(),
): Promise<TakerCounts> {
  const [r] = await sql<TakerCounts[]>`
    select count(*)::int as total,
      (count(*) filter (where ${liveSql(sql, nowMs)}))::int as active,
      (count(*) filter (where status = 'FILLED'))::int as filled,
      (count(*) filter (where status = 'CANCELLED'))::int as cancelled,
      (count(*) filter (where status = 'EXPIRED' or (${expiredUnstoredSql(sql, nowMs)})))::int as expired
    from rfqs where taker = ${taker} and ${visibleTo(sql, viewer)}`
  return { total: r!.total, active: r!.active, filled: r!.filled, cancelled: r!.cancelled, expired: r!.expired }
}

/** A taker's RFQs by effective status, for the profile. */
export type TakerCounts = Record<'active' | 'filled' | 'cancelled' | 'expired' | 'total', number>
