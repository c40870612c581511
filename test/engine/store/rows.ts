// The rows the store's partition, retention and archive suites write: an RFQ made on a chosen day and a quote of a
// chosen maker for it (addresses are small numbers, so a failing assertion names them readably).
import type { AcceptedQuote, Address, QuoteJson, Rfq } from '../../../actors/rfqTypes.js'
import type { Sql } from '../../../engine/store/db.js'
import { rfqIdAt } from '../../../workers/values/index.js'

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
  over: Partial<QuoteJson> & { signature?: AcceptedQuote['signature'] } = {},
): AcceptedQuote => {
  const { signature = `0x${'11'.repeat(65)}`, ...terms } = over
  return {
    rfqId,
    signature,
    receivedAt: new Date(),
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
