// The relay's writes to the shared `rfqs` table: the insert at creation (under its creator's cap on active
// RFQs, which the store arbitrates for every node) and the ends the RFQ actors and the book store (CANCELLED,
// EXPIRED; with when and by whom, migration 097). Every end is conditional on the RFQ still being open, so it
// never undoes a FILLED written by the fill path and the store arbitrates between nodes: a second write of an end
// is a no-op. Also the start-up read that brings live RFQs back into the book after a restart, and the TTL cleanup.
import type {
  AcceptedQuote,
  Address,
  CreateOutcome,
  EndedBy,
  Hex,
  Rfq,
  RfqKind,
  RfqStatus,
  StatusChange,
  Visibility,
} from '../../actors/rfqTypes.js'
import type { RestoredRfq, StoredEnd } from '../../actors/book.js'
import type { UnstoredEnd } from '../../actors/unstoredEnds.js'
import type { Sql, Tx } from './db.js'

export async function insertRfq(sql: Tx, rfq: Rfq, shareTokenHash: string | null): Promise<void> {
  await sql`
    insert into rfqs (id, taker, token_in, token_out, kind, amount_in, amount_out, expiry, visibility, allowed_makers, share_token_hash, agent_id, created_at)
    values (${rfq.id}, ${rfq.taker}, ${rfq.tokenIn}, ${rfq.tokenOut}, ${rfq.kind},
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
  nowSec = Math.floor(Date.now() / 1000),
): Promise<CreateOutcome> {
  return sql.begin(async tx => {
    const agentId = rfq.agentId
    if (agentId !== null) await tx`select 1 from agents where id = ${agentId} for no key update`
    else await tx`select pg_advisory_xact_lock(hashtext('rfq-cap:' || ${rfq.taker}))`
    // a statement of its own after the lock: under READ COMMITTED it sees every create committed before it
    const [{ n }] = (await tx`
      select count(*)::int as n from rfqs
      where ${agentId !== null ? tx`agent_id = ${agentId}` : tx`taker = ${rfq.taker} and agent_id is null`}
        and status in ('OPEN', 'QUOTED') and expiry > ${nowSec}`) as unknown as [{ n: number }]
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
      ? await sql`update rfqs set status = 'CANCELLED', cancelled_at = ${change.at}, ended_at = ${change.at}, ended_by = 'taker'
        where id = ${rfqId} and status in ('OPEN', 'QUOTED') returning id`
      : await sql`update rfqs set status = 'EXPIRED', ended_at = ${change.at}, ended_by = ${change.by}
        where id = ${rfqId} and status in ('OPEN', 'QUOTED') returning id`
  if (rows.length) return
  const [r] = await sql`select status from rfqs where id = ${rfqId}`
  return { lost: (r?.status ?? 'EXPIRED') as RfqStatus }
}

/** The heal: ends the store could not take when they happened, stored EXPIRED by the engine where still open. */
export async function storeEnds(sql: Sql, ends: readonly UnstoredEnd[]): Promise<number> {
  if (!ends.length) return 0
  const rows = await sql`
    update rfqs r set status = 'EXPIRED', ended_at = e.at, ended_by = 'engine'
    from json_to_recordset(${JSON.stringify(ends.map(e => ({ id: e.rfqId, at: e.at.toISOString() })))}::text::json) as e(id text, at timestamptz)
    where r.id = e.id and r.status in ('OPEN', 'QUOTED') returning r.id`
  return rows.length
}

/**
 * The relay's TTL cleanup: RFQs still open in the store more than RFQ_TTL_SECS past their own expiry (no node's
 * actor stored their end: the engine was stopped or crashed, or the database was down, when they expired) are
 * stored EXPIRED by the engine, at their expiry. Expiry is judged by the engine's clock (`nowSec`), as everywhere.
 * Answers how many it ended.
 */
export async function sweepEnded(sql: Sql, ttlSecs: number, nowSec = Math.floor(Date.now() / 1000)): Promise<number> {
  const rows = await sql`
    update rfqs set status = 'EXPIRED', ended_at = to_timestamp(expiry), ended_by = 'engine'
    where status in ('OPEN', 'QUOTED') and expiry <= ${nowSec - ttlSecs} returning id`
  return rows.length
}

/** How a closed RFQ ended, for a cluster node whose write the store refused; undefined while it is open. */
export async function endOfRfq(sql: Sql, rfqId: string): Promise<StoredEnd | undefined> {
  const [r] = await sql`select status, ended_at, ended_by, fill_tx_hash from rfqs where id = ${rfqId}`
  if (!r) return { status: 'EXPIRED', at: null, txHash: null, by: null }
  if (r.status !== 'CANCELLED' && r.status !== 'FILLED' && r.status !== 'EXPIRED') return undefined
  return { status: r.status, at: r.ended_at ?? null, txHash: r.fill_tx_hash ?? null, by: r.ended_by ?? null }
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
  const nowSec = Math.floor(nowMs / 1000)
  const rows = await sql`
    select * from rfqs
    where status in ('OPEN', 'QUOTED') and expiry > ${nowSec} ${
      only === undefined
        ? sql``
        : 'id' in only
          ? sql`and id = ${only.id}`
          : sql`and share_token_hash = ${only.shareTokenHash}`
    }
    order by seq`
  if (!rows.length) return []
  const quotes = await quotesOfRfqs(
    sql,
    rows.map(r => r.id as string),
  )
  return rows.map(r => ({
    rfq: {
      id: r.id,
      taker: r.taker,
      tokenIn: r.token_in,
      tokenOut: r.token_out,
      kind: Number(r.kind) as RfqKind,
      amountIn: r.amount_in === null ? null : BigInt(r.amount_in),
      amountOut: r.amount_out === null ? null : BigInt(r.amount_out),
      expiry: Number(r.expiry),
      visibility: r.visibility as Visibility,
      allowedMakers: r.allowed_makers as Address[],
      shareToken: null,
      createdAt: r.created_at as Date,
      agentId: r.agent_id ?? null,
    },
    shareTokenHash: r.share_token_hash ?? null,
    quotes: quotes.get(r.id) ?? [],
  }))
}

/** Stored quotes by RFQ id, each RFQ's in arrival order. */
export async function quotesOfRfqs(sql: Sql, rfqIds: string[]): Promise<Map<string, AcceptedQuote[]>> {
  const rows = await sql`
    select rfq_id, maker, taker, token_in, token_out, amount_in::text, amount_out::text, expiry, nonce::text, deadline, signature, received_at
    from quotes where rfq_id = any(${sql.array(rfqIds)}) order by id`
  const out = new Map<string, AcceptedQuote[]>()
  for (const r of rows) {
    const list = out.get(r.rfq_id) ?? []
    list.push({
      rfqId: r.rfq_id,
      signature: r.signature as Hex,
      receivedAt: r.received_at as Date,
      quote: {
        maker: r.maker,
        taker: r.taker,
        tokenIn: r.token_in,
        tokenOut: r.token_out,
        amountIn: r.amount_in,
        amountOut: r.amount_out,
        expiry: Number(r.expiry),
        nonce: r.nonce,
        deadline: Number(r.deadline),
      },
    })
    out.set(r.rfq_id, list)
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
  const [r] =
    await sql`select visibility, share_token_hash, status, expiry, ended_at, ended_by from rfqs where id = ${rfqId}`
  return r
    ? {
        visibility: r.visibility as Visibility,
        shareTokenHash: r.share_token_hash ?? null,
        status: r.status as RfqStatus,
        expiry: Number(r.expiry),
        endedAt: r.ended_at ?? null,
        endedBy: r.ended_by ?? null,
      }
    : undefined
}
