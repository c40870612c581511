// The relay's writes to the shared `rfqs` table: the insert at creation (under its creator's cap on active
// RFQs, which the store arbitrates for every node) and the ends the RFQ actors and the book store (CANCELLED,
// EXPIRED; with when and by whom, migration 097). Every end is conditional on the RFQ still being open, so it
// never undoes a FILLED written by the fill path and the store arbitrates between nodes: a second write of an end
// is a no-op. Also the start-up read that brings live RFQs back into the book after a restart, and the TTL cleanup.
import type {
  AcceptedQuote,
  CreateOutcome,
  EndedBy,
  Rfq,
  RfqStatus,
  StatusChange,
  Visibility,
} from '../../actors/rfqTypes.js'
import type { RestoredRfq, StoredEnd } from '../../actors/book.js'
import type { UnstoredEnd } from '../../actors/unstoredEnds.js'
import type { Sql, Tx } from './db.js'
import { rfqColumns, rfqRowOf, rfqTermsOf, type RfqColumns } from './rfqRow.js'
import { QUOTE_COLUMNS, acceptedQuoteOf, type QuoteColumns } from './quoteRow.js'
import { liveSql, openSql } from './rfqOpen.js'
import { rfqDaysSql, rfqIdSql } from './rfqKey.js'
import { isOpen, rfqDayOf, toUnixSeconds } from '../../workers/values/index.js'

/** The row goes in its creation day's partition (UTC), the day its id names (workers/values/rfqId.ts). */
export async function insertRfq(sql: Tx, rfq: Rfq, shareTokenHash: string | null): Promise<void> {
  const day = rfq.createdAt.toISOString().slice(0, 10)
  const named = rfqDayOf(rfq.id)
  if (named !== 'unknown' && named !== day) throw new Error(`RFQ ${rfq.id} names day ${named}, made on ${day}`)
  await sql`
    insert into rfqs (id, created_day, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility, allowed_makers, share_token_hash, agent_id, created_at)
    values (${rfq.id}, ${day}::date, ${rfq.taker}, ${rfq.tokenIn}, ${rfq.tokenOut}, ${rfq.kind},
      ${rfq.amountIn === null ? null : sql.typed.u256(rfq.amountIn)}, ${rfq.amountOut === null ? null : sql.typed.u256(rfq.amountOut)},
      ${rfq.expiry}, ${rfq.visibility}, ${sql.array(rfq.allowedMakers)}, ${shareTokenHash}, ${rfq.agentId}, ${rfq.createdAt})`
}

/**
 * The insert under its creator's cap on active RFQs, arbitrated here for every node of the venue at once: the
 * creating agent's row is locked (FOR NO KEY UPDATE: one agent's creates queue behind each other, while inserts
 * into its activity log, whose foreign key only shares the row, pass), its active RFQs are counted, and the row
 * goes in only below the cap. Active is what a relay holds live: open and before its own expiry (docs/rfq-api.md,
 * "Lifetime"), judged by Node's clock like every other expiry. An RFQ made without an agent counts against its
 * taker wallet, under an advisory lock.
 */
export async function insertRfqCapped(
  sql: Sql,
  rfq: Rfq,
  shareTokenHash: string | null,
  cap: { max: number },
  nowMs = Date.now(),
): Promise<CreateOutcome> {
  return sql.begin(async tx => {
    const agentId = rfq.agentId
    if (agentId !== null) await tx`select 1 from agents where id = ${agentId} for no key update`
    else await tx`select pg_advisory_xact_lock(hashtext('rfq-cap:' || ${rfq.taker}))`
    // a statement of its own after the lock: under READ COMMITTED it sees every create committed before it
    const [{ n }] = await tx<[{ n: number }]>`
      select count(*)::int as n from rfqs
      where ${agentId !== null ? tx`agent_id = ${agentId}` : tx`taker = ${rfq.taker} and agent_id is null`}
        and ${liveSql(tx, nowMs)}`
    if (n >= cap.max) return { ok: false, code: 'TOO_MANY_ACTIVE', activeCount: n } as const
    await insertRfq(tx, rfq, shareTokenHash)
    return { ok: true, activeCount: n + 1 } as const
  })
}

/** Conditional on the RFQ being open: when it was not, `lost` carries how it ended (the store is the arbiter between nodes). */
export async function persistStatus(
  sql: Sql,
  rfqId: string,
  change: StatusChange,
): Promise<void | { lost: RfqStatus }> {
  const rows =
    change.status === 'CANCELLED'
      ? await sql<Pick<RfqColumns, 'id'>[]>`update rfqs set status = 'CANCELLED', cancelled_at = ${change.at},
        ended_at = ${change.at}, ended_by = 'taker' where ${rfqIdSql(sql, rfqId)} and ${openSql(sql)} returning id`
      : await sql<
          Pick<RfqColumns, 'id'>[]
        >`update rfqs set status = 'EXPIRED', ended_at = ${change.at}, ended_by = ${change.by}
        where ${rfqIdSql(sql, rfqId)} and ${openSql(sql)} returning id`
  if (rows.length) return
  const [r] = await sql<Pick<RfqColumns, 'status'>[]>`select status from rfqs where ${rfqIdSql(sql, rfqId)}`
  return { lost: r?.status ?? 'EXPIRED' }
}

/** The heal: ends the store could not take when they happened, stored EXPIRED by the engine where still open. */
export async function storeEnds(sql: Sql, ends: readonly UnstoredEnd[]): Promise<number> {
  if (!ends.length) return 0
  const rows = await sql<Pick<RfqColumns, 'id'>[]>`
    update rfqs r set status = 'EXPIRED', ended_at = e.at, ended_by = 'engine'
    from json_to_recordset(${JSON.stringify(ends.map(e => ({ id: e.rfqId, at: e.at.toISOString() })))}::text::json) as e(id text, at timestamptz)
    where r.id = e.id and ${rfqDaysSql(
      sql,
      ends.map(e => e.rfqId),
      'r',
    )} and ${openSql(sql, 'r')} returning r.id`
  return rows.length
}

/**
 * The relay's TTL cleanup: RFQs still open in the store more than RFQ_TTL_SECS past their own expiry (no node's
 * actor stored their end: the engine was stopped or crashed, or the database was down, when they expired) are
 * stored EXPIRED by the engine, at their expiry. Expiry is judged by Node's clock (`nowMs`), as everywhere.
 * Answers how many it ended.
 */
export async function sweepEnded(sql: Sql, ttlSecs: number, nowMs = Date.now()): Promise<number> {
  const rows = await sql<Pick<RfqColumns, 'id'>[]>`
    update rfqs set status = 'EXPIRED', ended_at = to_timestamp(expiry), ended_by = 'engine'
    where ${openSql(sql)} and expiry <= ${toUnixSeconds(nowMs) - ttlSecs} returning id`
  return rows.length
}

/** How a closed RFQ ended, for a cluster node whose write the store refused; undefined while it is open. */
export async function endOfRfq(sql: Sql, rfqId: string): Promise<StoredEnd | undefined> {
  const [r] = await sql<Pick<RfqColumns, 'status' | 'ended_at' | 'ended_by' | 'fill_tx_hash'>[]>`
    select status, ended_at, ended_by, fill_tx_hash from rfqs where ${rfqIdSql(sql, rfqId)}`
  if (!r) return { status: 'EXPIRED', at: null, txHash: null, by: null }
  if (isOpen(r.status)) return undefined
  return { status: r.status, at: r.ended_at, txHash: r.fill_tx_hash, by: r.ended_by }
}

/**
 * RFQs still open and before their own expiry (RFQ_TTL_SECS never ends one earlier), with their stored quotes:
 * what the book held when the engine stopped.
 */
export async function loadLiveRfqs(
  sql: Sql,
  nowMs = Date.now(),
  only?: { id: string } | { shareTokenHash: string },
): Promise<RestoredRfq[]> {
  const rows = (
    await sql<RfqColumns[]>`
    select ${rfqColumns(sql, only && 'id' in only ? [only.id] : undefined)} from rfqs
    where ${liveSql(sql, nowMs)} ${
      only === undefined
        ? sql``
        : 'id' in only
          ? sql`and ${rfqIdSql(sql, only.id)}`
          : sql`and share_token_hash = ${only.shareTokenHash}`
    }
    order by seq`
  ).map(rfqRowOf)
  if (!rows.length) return []
  const quotes = await quotesOfRfqs(
    sql,
    rows.map(r => r.id),
  )
  return rows.map(r => ({ rfq: rfqTermsOf(r), shareTokenHash: r.shareTokenHash, quotes: quotes.get(r.id) ?? [] }))
}

/**
 * Stored quotes by RFQ id, each RFQ's in the order they came: by time, then by the number their accepting actor gave
 * them (a node's own quotes of one millisecond; two nodes number apart, and their clocks order them). The ids' days
 * name the RFQ partitions to probe, and each RFQ row's day its one quote partition. The days are also given to the quotes as values: for RFQs of one day the
 * planner carries the day across the join by itself, but for several days the join's `rfq_day = r.created_day`
 * alone leaves every quote partition planned (pruned only as it runs), ~0.1 ms of planning each at 30 days.
 */
export async function quotesOfRfqs(sql: Sql, rfqIds: string[]): Promise<Map<string, AcceptedQuote[]>> {
  const rows = await sql<QuoteColumns[]>`
    select x.* from rfqs r cross join lateral (
      select ${sql.unsafe(QUOTE_COLUMNS)}, q.arrival from quotes q
      where q.rfq_id = rfq_key(r.id) and q.rfq_day = r.created_day and ${rfqDaysSql(sql, rfqIds, 'q', 'rfq_day')}) x
    where r.id = any(${sql.array(rfqIds)}) and ${rfqDaysSql(sql, rfqIds, 'r')} order by x.rfq_id, x.received_at, x.arrival, x.maker`
  const out = new Map<string, AcceptedQuote[]>()
  for (const row of rows) {
    const list = out.get(row.rfq_id) ?? []
    list.push(acceptedQuoteOf(row))
    out.set(row.rfq_id, list)
  }
  return out
}

export interface StoredAccess {
  visibility: Visibility
  shareTokenHash: string | null
  status: RfqStatus
  expiry: number
  endedAt: Date | null
  endedBy: EndedBy | null
}

/** A stored RFQ's visibility and share-token hash, and how it ended, for the relay's /quotes fallback; undefined when unknown. */
export async function rfqAccess(sql: Sql, rfqId: string): Promise<StoredAccess | undefined> {
  type Access = Pick<RfqColumns, 'visibility' | 'share_token_hash' | 'status' | 'expiry' | 'ended_at' | 'ended_by'>
  const [r] = await sql<Access[]>`
    select visibility, share_token_hash, status, expiry, ended_at, ended_by from rfqs where ${rfqIdSql(sql, rfqId)}`
  return r
    ? {
        visibility: r.visibility,
        shareTokenHash: r.share_token_hash,
        status: r.status,
        expiry: r.expiry,
        endedAt: r.ended_at,
        endedBy: r.ended_by,
      }
    : undefined
}
