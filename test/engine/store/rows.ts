// The rows the store's partition, retention and archive suites write: an RFQ made on a chosen day and a quote of a
// chosen maker for it (addresses are small numbers, so a failing assertion names them readably).
import type { AcceptedQuote, Address, NumberedQuote, QuoteJson, Rfq } from '../../../actors/rfqTypes.js'
import type { Sql } from '../../../engine/store/db.js'
import { rfqIdAt } from '../../../workers/values/index.js'
import { DuplicateQuoteError, RfqClosedError } from '../../../engine/store/quotes.js'

export const A = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
export const DAY = 86_400_000
/** the UTC day of a time, as PostgreSQL's `date` prints it */
export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10)

export const rfq = (id: string, createdAt: Date): Rfq => ({
  id,
  taker: A(1),
  tokenIn: A(2),
  tokenOut: A(3),
  kind: 0,
  amountIn: 10n,
  amountOut: null,
  expiry: Math.floor(Date.now() / 1000) + 600,
  visibility: 'public',
  allowedMakers: [],
  shareToken: null,
  createdAt,
  agentId: null,
})

export const quote = (
  rfqId: string,
  maker: number,
  over: Partial<QuoteJson> & { signature?: AcceptedQuote['signature']; arrival?: number } = {},
): NumberedQuote => {
  const { signature = `0x${'11'.repeat(65)}`, arrival = 1, ...terms } = over
  return {
    rfqId,
    signature,
    receivedAtMs: Date.now(),
    arrival,
    quote: {
      maker: A(maker),
      taker: A(0),
      tokenIn: A(2),
      tokenOut: A(3),
      amountIn: '10',
      amountOut: String(maker),
      expiry: 1,
      nonce: '1',
      deadline: 2,
      ...terms,
    },
  }
}

/** A new-format id (workers/values/rfqId.ts) made at `at`: it names its RFQ's day partition. */
export const timedId = (at: number, n = 0) => rfqIdAt(at, n.toString(16).padStart(32, '0'))

/** An RFQ row as the layout before migration 101 takes it (no created_day): for the upgrade tests. */
export const insertOldRfq = async (sql: Sql, r: Rfq) => {
  await sql`insert into rfqs (id, taker, token_in, token_out, kind, amount_in, expiry, visibility, status, created_at)
    values (${r.id}, ${r.taker}, ${r.tokenIn}, ${r.tokenOut}, ${r.kind}, ${String(r.amountIn)}, ${r.expiry},
      ${r.visibility}, 'OPEN', ${r.createdAt})`
}

/**
 * A quote row written by hand in migration 103's layout, in its RFQ's day partition, for suites that stage a store
 * without the relay (its taker is the RFQ's; a signature of 65 bytes of 0x11).
 */
export const insertQuoteRow = (
  sql: Sql,
  rfqId: string,
  maker: string,
  { amountIn = 10n, amountOut = 10n, arrival = 1, expiry = 0, nonce = 1n, deadline = 0 } = {},
) =>
  sql`insert into quotes (rfq_day, arrival, taker_open, rfq_id, maker, amount_in, amount_out, expiry, nonce, deadline,
      signature, received_at)
    select created_day, ${arrival}, false, rfq_key(id), decode(substr(${maker}, 3), 'hex'), ${String(amountIn)},
      ${String(amountOut)}, ${expiry}, ${String(nonce)}, ${deadline}, decode(repeat('11', 65), 'hex'), now()
    from rfqs where id = ${rfqId}`

/** a settled write as what the store made of its quote: stored, duplicate, closed, or the failure's text */
export const kindOf = (r: PromiseSettledResult<void>) =>
  r.status === 'fulfilled'
    ? 'stored'
    : r.reason instanceof DuplicateQuoteError
      ? 'duplicate'
      : r.reason instanceof RfqClosedError
        ? 'closed'
        : String(r.reason)
