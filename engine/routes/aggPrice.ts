// GET /api/v1/bench/agg/price: an informational proxy. Only bad input is a 400; anything the
// upstream does (fails, times out, answers garbage, is not configured) is a 200 with
// outputAmount null and the reason in `error`.
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { isAddress, parseU256 } from '../../workers/values/index.js'
import type { AggregatorAdapter, PriceResult } from '../baseline/aggregator/adapter.js'

export interface AggRouteOptions {
  adapter: AggregatorAdapter | null
  /** the neutral <aggregator_id> used when no adapter is configured */
  id: string
  timeoutMs: number
}

export function aggRoutes({ surfaces }: EngineContext, o: AggRouteOptions): void {
  surfaces.api.get('/api/v1/bench/agg/price', async req => {
    const q = req.query
    const missing = ['sellToken', 'buyToken', 'sellAmount'].filter(k => !q.get(k))
    if (missing.length) throw Errors.badRequest(`Missing required params: ${missing.join(', ')}`)
    const sellToken = q.get('sellToken')!,
      buyToken = q.get('buyToken')!
    if (!isAddress(sellToken) || !isAddress(buyToken)) throw Errors.badRequest('Invalid token address format')
    const sellAmount = parseU256(q.get('sellAmount'))
    if (sellAmount === null || sellAmount === 0n)
      throw Errors.badRequest('Invalid sellAmount: must be a positive integer (raw units)')
    const started = performance.now()
    const result = await priceWithin(o, {
      sellToken: sellToken.toLowerCase(),
      buyToken: buyToken.toLowerCase(),
      sellAmount,
    })
    const computeTimeMs = Math.round(performance.now() - started)
    return ok(
      result.ok
        ? {
            source: o.adapter!.id,
            outputAmount: result.outputAmount.toString(),
            route: result.route,
            computeTimeMs,
            error: null,
          }
        : { source: o.adapter?.id ?? o.id, outputAmount: null, route: [], computeTimeMs, error: result.error },
    )
  })
}

async function priceWithin(o: AggRouteOptions, req: Parameters<AggregatorAdapter['price']>[0]): Promise<PriceResult> {
  if (!o.adapter) return { ok: false, error: 'Aggregator not configured' }
  const signal = AbortSignal.timeout(o.timeoutMs)
  try {
    return await o.adapter.price(req, signal)
  } catch (e) {
    if (signal.aborted) return { ok: false, error: `Aggregator timed out after ${o.timeoutMs} ms` }
    return { ok: false, error: `Aggregator unreachable: ${(e as Error).message}` }
  }
}
