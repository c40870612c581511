// Accepted quotes, durable by group commit: every quote accepted while the previous transaction
// was in flight goes into the next one, so at high rates one commit (one fsync) carries hundreds
// of quotes, and at low rates a quote waits for no timer. The same transaction bumps the RFQs'
// quote_count and moves OPEN to QUOTED. A quote's promise resolves only after its commit.
import type { AcceptedQuote } from '../../actors/rfqTypes.js'
import type { Sql } from './db.js'

export interface QuoteWriter {
  write(q: AcceptedQuote): Promise<void>
  /** resolves when everything written so far is committed */
  flush(): Promise<void>
  readonly stats: { commits: number; quotes: number; maxBatch: number }
}

interface Waiting { q: AcceptedQuote; resolve(): void; reject(e: unknown): void }

export function createQuoteWriter(sql: Sql, { maxBatch = 2000, maxInFlight = 2 }: { maxBatch?: number; maxInFlight?: number } = {}): QuoteWriter {
  let waiting: Waiting[] = []
  const writing = new Set<Promise<void>>()
  let scheduled = false
  const stats = { commits: 0, quotes: 0, maxBatch: 0 }

  // A few commits may overlap (each on its own connection): quote inserts and count increments
  // commute, and overlapping hides one commit's round trip and fsync behind another's.
  const next = (): void => {
    scheduled = false
    while (waiting.length && writing.size < maxInFlight) {
      const batch = waiting.slice(0, maxBatch)
      waiting = waiting.slice(batch.length)
      const w: Promise<void> = commit(sql, batch.map(x => x.q)).then(
        () => { stats.commits++; stats.quotes += batch.length; stats.maxBatch = Math.max(stats.maxBatch, batch.length); batch.forEach(x => x.resolve()) },
        e => batch.forEach(x => x.reject(e)),
      ).finally(() => { writing.delete(w); if (waiting.length) schedule() })
      writing.add(w)
    }
  }
  // the first quote of an idle writer goes out on the next turn, with whatever joined it in this one
  const schedule = () => { if (!scheduled) { scheduled = true; setImmediate(next) } }

  return {
    write(q) {
      return new Promise<void>((resolve, reject) => { waiting.push({ q, resolve, reject }); schedule() })
    },
    async flush() {
      while (writing.size || waiting.length) { next(); await Promise.all(writing) }
    },
    stats,
  }
}

/**
 * One statement, so one round trip and one commit: the inserts and the count bumps are atomic together.
 * The batch travels as one JSON parameter: binding hundreds of parameters cost the relay's main
 * thread more than the native JSON.stringify, and PostgreSQL parses it on its own core.
 */
async function commit(sql: Sql, quotes: AcceptedQuote[]): Promise<void> {
  const rows = JSON.stringify(quotes.map(({ rfqId, quote: q, signature, receivedAt }) => [
    rfqId, q.maker, q.taker, q.tokenIn, q.tokenOut, q.amountIn, q.amountOut, q.expiry, q.nonce, q.deadline, signature, receivedAt,
  ]))
  // on conflict: a replay of a stored quote (two quotes of one maker never get here: the actor guards that)
  await sql`
    with ins as (
      insert into quotes (rfq_id, maker, taker, token_in, token_out, amount_in, amount_out, expiry, nonce, deadline, signature, received_at)
      select r->>0, r->>1, r->>2, r->>3, r->>4, (r->>5)::numeric, (r->>6)::numeric, (r->>7)::int8, (r->>8)::numeric, (r->>9)::int8,
             r->>10, (r->>11)::timestamptz
      from json_array_elements(${rows}::text::json) r
      on conflict (rfq_id, maker) do nothing returning rfq_id),
    c as (select rfq_id, count(*)::int as n from ins group by rfq_id)
    update rfqs set quote_count = quote_count + c.n, status = case when status = 'OPEN' then 'QUOTED' else status end
    from c where rfqs.id = c.rfq_id`
}
