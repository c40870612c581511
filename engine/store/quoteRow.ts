// The `quotes` table as the readers select it, joined to its RFQ's row `r` (migration 103: a quote keeps only what is
// its own; its taker and pair are its RFQ's): bytes back as 0x-hex, amounts and nonce as their decimal text, as the
// maker signed them. And its one mapper to the accepted quote the actors, the relay and the REST API share.
import type { AcceptedQuote, Address, Hex } from '../../actors/rfqTypes.js'
import { ZERO_ADDRESS } from '../../workers/values/index.js'

export interface QuoteColumns {
  rfq_id: string
  maker: Address
  taker: Address
  token_in: Address
  token_out: Address
  amount_in: string
  amount_out: string
  expiry: number
  nonce: string
  deadline: number
  signature: Hex
  received_at: Date
}

/** The select list `acceptedQuoteOf` reads, from `quotes q` joined to `rfqs r` (the view quote_rows reads alike). */
export const QUOTE_COLUMNS =
  `r.id as rfq_id, '0x' || encode(q.maker, 'hex') as maker, case when q.taker_open then '${ZERO_ADDRESS}' else r.taker end ` +
  'as taker, r.token_in, r.token_out, q.amount_in::text, q.amount_out::text, q.expiry, q.nonce::text, q.deadline, ' +
  `'0x' || encode(q.signature, 'hex') as signature, q.received_at`

export function acceptedQuoteOf(c: QuoteColumns): AcceptedQuote {
  return {
    rfqId: c.rfq_id,
    signature: c.signature,
    receivedAtMs: c.received_at.getTime(),
    quote: {
      maker: c.maker,
      taker: c.taker,
      tokenIn: c.token_in,
      tokenOut: c.token_out,
      amountIn: c.amount_in,
      amountOut: c.amount_out,
      expiry: c.expiry,
      nonce: c.nonce,
      deadline: c.deadline,
    },
  }
}
