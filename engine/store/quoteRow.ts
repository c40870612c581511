// The `quotes` table as the readers select it (amounts and nonce as their decimal text, as the maker signed them),
// and its one mapper to the accepted quote the actors, the relay and the REST API share.
import type { AcceptedQuote, Address, Hex } from '../../actors/rfqTypes.js'

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

/** The select list `acceptedQuoteOf` reads. */
export const QUOTE_COLUMNS =
  'rfq_id, maker, taker, token_in, token_out, amount_in::text, amount_out::text, expiry, ' +
  'nonce::text, deadline, signature, received_at'

export function acceptedQuoteOf(c: QuoteColumns): AcceptedQuote {
  return {
    rfqId: c.rfq_id,
    signature: c.signature,
    receivedAt: c.received_at,
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
