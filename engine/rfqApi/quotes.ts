// POST /api/v1/quotes {rfqId, quote, signature, shareToken?}: the relay's QUOTE_SUBMIT path through
// the book (same actor, same checks, same broadcast), answered with the spec's REST texts.
import type { RfqService } from '../rfq/service.js'
import type { Handler } from '../front/request.js'
import { ok } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { QuoteErrors, quoteReply } from '../replies/api.js'
import { isPlainObject } from '../../workers/values/index.js'

export function submitQuoteHandler(rfqs: Pick<RfqService, 'submitQuote'>): Handler {
  return async req => {
    const b = req.body
    if (!isPlainObject(b)) throw Errors.invalidJson()
    const { rfqId, quote, signature, shareToken } = b
    if (typeof rfqId !== 'string' || !rfqId || !isPlainObject(quote)) throw Errors.badRequest(QuoteErrors.missing)
    if (typeof signature !== 'string' || !signature) throw Errors.badRequest(QuoteErrors.signature)
    const verdict = await rfqs.submitQuote(
      rfqId,
      quote,
      signature,
      typeof shareToken === 'string' ? { shareToken } : undefined,
    )
    if (!verdict.ok) throw quoteReply(verdict)
    const q = verdict.quote
    return ok({
      success: true,
      rfqId,
      quote: { maker: q.quote.maker, amountIn: q.quote.amountIn, amountOut: q.quote.amountOut, signature: q.signature },
      receivedAt: new Date(q.receivedAtMs).toISOString(),
    })
  }
}
