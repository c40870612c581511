// POST /api/v1/quotes {rfqId, quote, signature, shareToken?}: the relay's QUOTE_SUBMIT path through
// the book (same actor, same checks, same broadcast), answered with the spec's REST texts.
import type { QuoteVerdict } from '../../actors/rfqTypes.js'
import type { RfqService } from '../rfq/service.js'
import type { Handler } from '../front/request.js'
import { ok } from '../front/request.js'
import { Errors, HttpError } from '../front/errors.js'

export const QuoteErrors = {
  missing: 'Missing rfqId or quote',
  notFound: 'RFQ not found or expired',
  duplicate: 'Duplicate quote from this maker',
  signature: 'Invalid signature',
} as const

export function submitQuoteHandler(rfqs: Pick<RfqService, 'submitQuote'>): Handler {
  return async req => {
    const b = req.body
    if (b === null || typeof b !== 'object' || Array.isArray(b)) throw Errors.invalidJson()
    const { rfqId, quote, signature, shareToken } = b as Record<string, unknown>
    if (typeof rfqId !== 'string' || !rfqId || quote === null || typeof quote !== 'object' || Array.isArray(quote)) throw Errors.badRequest(QuoteErrors.missing)
    if (typeof signature !== 'string' || !signature) throw Errors.badRequest(QuoteErrors.signature)
    const verdict = await rfqs.submitQuote(rfqId, quote, signature, typeof shareToken === 'string' ? { shareToken } : undefined)
    if (!verdict.ok) {
      if (verdict.code === 'INTERNAL') throw new HttpError(503, verdict.message, { code: verdict.code })
      if (verdict.code === 'BUSY') throw new HttpError(503, verdict.message, { code: verdict.code }, { 'retry-after': String(Math.max(1, Math.ceil((verdict.retryAfterMs ?? 1000) / 1000))) })
      throw Errors.badRequest(restText(verdict), { code: verdict.code })
    }
    const q = verdict.quote
    return ok({ success: true, rfqId, quote: { maker: q.quote.maker, amountIn: q.quote.amountIn, amountOut: q.quote.amountOut, signature: q.signature },
      receivedAt: q.receivedAt.toISOString() })
  }
}

/** The relay's codes mapped to the REST endpoint's own texts; the rest pass through unchanged. */
export function restText(v: Extract<QuoteVerdict, { ok: false }>): string {
  switch (v.code) {
    case 'RFQ_NOT_FOUND': return QuoteErrors.notFound
    case 'DUPLICATE_QUOTE': return QuoteErrors.duplicate
    case 'INVALID_SIGNATURE': case 'MISSING_FIELDS': return QuoteErrors.signature
    default: return v.message
  }
}
