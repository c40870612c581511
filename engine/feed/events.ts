// RFQ domain events as SSE messages: the event name is the domain's own (rfq.created, rfq.quoted,
// rfq.cancelled, rfq.filled, rfq.expired, fill.recorded); data is JSON. Share tokens and allowed
// makers never leave the server.
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { TokenRegistry } from '../tokens/registry.js'

export function eventData(e: RfqEvent, tokens: TokenRegistry): unknown {
  switch (e.type) {
    case 'rfq.created': {
      const r = e.rfq
      return {
        rfqId: r.id,
        rfq: {
          taker: r.taker,
          tokenIn: tokens.viewSync(r.tokenIn),
          tokenOut: tokens.viewSync(r.tokenOut),
          kind: r.kind,
          amountIn: r.amountIn,
          amountOut: r.amountOut,
          expiry: r.expiry,
          visibility: r.visibility,
          createdAt: r.createdAt.toISOString(),
        },
      }
    }
    case 'rfq.quoted':
      return {
        rfqId: e.rfqId,
        quote: e.quote.quote,
        signature: e.quote.signature,
        receivedAt: new Date(e.quote.receivedAtMs).toISOString(),
      }
    case 'rfq.cancelled':
      return { rfqId: e.rfqId, cancelledAt: e.cancelledAt.toISOString() }
    case 'rfq.filled':
      return { rfqId: e.rfqId, txHash: e.txHash }
    case 'rfq.expired': // the RFQ's own expiry, or the engine's end (endedBy says which)
      return { rfqId: e.rfqId, endedAt: e.endedAt.toISOString(), endedBy: e.endedBy }
    case 'fill.recorded':
      return e.fill
  }
}
