// Accepted quotes, durable by group commit: every quote accepted while the previous transaction
// was in flight goes into the next one, so at high rates one commit (one fsync) carries hundreds
// of quotes, and at low rates a quote waits for no timer. The same transaction bumps the RFQs'
// quote_count and moves OPEN to QUOTED. A quote's promise resolves only after its commit.
import type { AcceptedQuote } from '../../actors/rfqTypes.js'
import type { Sql } from './db.js'
import { createBatcher } from '../pool/batcher.js'
import { isUnavailable } from './unavailable.js'
import { openSql } from './rfqOpen.js'

export interface QuoteWriter {
  /**
   * Resolves once the quote is committed; rejects with DuplicateQuoteError when (rfq, maker) was already stored,
   * and with RfqClosedError when the RFQ is no longer open in the store (closed on another node, or first here).
   */
  write(q: AcceptedQuote): Promise<void>
  /** resolves when everything written so far is committed */
  flush(): Promise<void>
  readonly stats: { commits: number; quotes: number; maxBatch: number }
}

/** The store already holds a quote of this maker for this RFQ (a replay, or another node's). */
export class DuplicateQuoteError extends Error {
  override name = 'DuplicateQuoteError'
  readonly code = 'DUPLICATE_QUOTE'
}

/** The RFQ was closed in the store before the quote's commit (the store is the arbiter between nodes). */
export class RfqClosedError extends Error {
  override name = 'RfqClosedError'
  readonly code = 'RFQ_CLOSED'
}

/** What a quote's commit made of it: stored, refused as a maker's second, or refused for a closed RFQ. */
type QuoteCommitResult = 'stored' | 'duplicate' | 'closed'

// A few commits may overlap (each on its own connection): quote inserts and count increments
// commute, and overlapping hides one commit's round trip and fsync behind another's.
export function createQuoteWriter(
  sql: Sql,
  {
    maxBatch = 2000,
    maxInFlight = 2,
    observe,
  }: { maxBatch?: number; maxInFlight?: number; observe?: (seconds: number, quotes: number) => void } = {},
): QuoteWriter {
  const batcher = createBatcher<AcceptedQuote, QuoteCommitResult>(quotes => commit(sql, quotes), {
    maxBatch,
    concurrency: maxInFlight,
    ...(observe ? { observe: (_wait: number, trip: number, n: number) => observe(trip, n) } : {}),
  })
  const stats = batcher.stats
  return {
    write: q =>
      batcher.submit(q).then(
        result => {
          if (result === 'duplicate') throw new DuplicateQuoteError('Duplicate quote from this maker for this RFQ')
          if (result === 'closed') throw new RfqClosedError('RFQ closed before the quote was stored')
        },
        // the actor only sees a code: UNAVAILABLE tells a maker to retry, anything else is an internal error
        (err: unknown) => {
          throw isUnavailable(err)
            ? Object.assign(new Error('database unavailable', { cause: err }), { code: 'UNAVAILABLE' })
            : err
        },
      ),
    flush: () => batcher.flush(),
    get stats() {
      return { commits: stats.batches, quotes: stats.items, maxBatch: stats.maxBatch }
    },
  }
}

/**
 * One statement, so one round trip and one commit: the inserts and the count bumps are atomic together.
 * The batch travels as one JSON parameter: binding hundreds of parameters cost the relay's main
 * thread more than the native JSON.stringify, and PostgreSQL parses it on its own core.
 *
 * The fence: a quote is stored only while its RFQ is open in the store. Its row is locked first (in id order,
 * so overlapping commits never deadlock); a cancel or fill that committed meanwhile is seen by the lock's
 * re-check, so no node can store a quote for an RFQ another node has closed, and a cancel waits for the
 * quotes already being stored.
 */
async function commit(sql: Sql, quotes: AcceptedQuote[]): Promise<QuoteCommitResult[]> {
  const rows = JSON.stringify(
    quotes.map(({ rfqId, quote: q, signature, receivedAt }) => [
      rfqId,
      q.maker,
      q.taker,
      q.tokenIn,
      q.tokenOut,
      q.amountIn,
      q.amountOut,
      q.expiry,
      q.nonce,
      q.deadline,
      signature,
      receivedAt,
    ]),
  )
  // on conflict: a replay of a stored quote, or another node's quote of the same maker: not stored, and its
  // writer is told so instead of being acknowledged
  const result = await sql<{ rfq_id: string; maker: string | null }[]>`
    with r as (select value as r from json_array_elements(${rows}::text::json)),
    open as (
      select id from rfqs where id in (select r->>0 from r) and ${openSql(sql)} order by id for update),
    ins as (
      insert into quotes (rfq_id, maker, taker, token_in, token_out, amount_in, amount_out, expiry, nonce, deadline, signature, received_at)
      select r->>0, r->>1, r->>2, r->>3, r->>4, (r->>5)::numeric, (r->>6)::numeric, (r->>7)::int8, (r->>8)::numeric, (r->>9)::int8,
             r->>10, (r->>11)::timestamptz
      from r join open on open.id = r->>0
      on conflict (rfq_id, maker) do nothing returning rfq_id, maker),
    c as (select rfq_id, count(*)::int as n from ins group by rfq_id),
    bump as (
      update rfqs set quote_count = quote_count + c.n, status = case when status = 'OPEN' then 'QUOTED' else status end
      from c where rfqs.id = c.rfq_id)
    select rfq_id, maker from ins
    union all select id, null from open`
  const inserted = new Set<string>(),
    open = new Set<string>()
  for (const row of result) {
    if (row.maker === null) open.add(row.rfq_id)
    else inserted.add(`${row.rfq_id} ${row.maker}`)
  }
  return quotes.map(q =>
    inserted.has(`${q.rfqId} ${q.quote.maker}`) ? 'stored' : open.has(q.rfqId) ? 'duplicate' : 'closed',
  )
}
