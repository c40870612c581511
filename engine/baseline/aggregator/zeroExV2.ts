// The 0x Swap API v2 indicative price format: GET {base}/swap/permit2/price?chainId&sellToken&
// buyToken&sellAmount with headers `0x-api-key` and `0x-version: v2`. A 200 carries
// `liquidityAvailable`, `buyAmount` (uint256 decimal string) and `route.fills[{from, to, source,
// proportionBps}]`; `liquidityAvailable: false` comes with no other fields; errors are 4xx/5xx
// `{name, message, data?}`. 0x names no pools or fees per fill, so those legs carry null.
import type { AggregatorAdapter, PriceRequest, PriceResult, RouteLeg } from './adapter.js'
import { isPlainObject } from '../../../workers/values/index.js'

export interface ZeroExV2Options {
  id: string
  baseUrl: string
  apiKey?: string
  chainId: number
  /** `/swap/permit2/price` (default) or `/swap/allowance-holder/price`: same response format */
  path?: string
}

const MAX_BODY = 1 << 20

export function zeroExV2Adapter(o: ZeroExV2Options): AggregatorAdapter {
  const path = o.path ?? '/swap/permit2/price'
  return {
    id: o.id,
    async price(req: PriceRequest, signal: AbortSignal): Promise<PriceResult> {
      const url = new URL(path, o.baseUrl.endsWith('/') ? o.baseUrl : o.baseUrl + '/')
      url.search = new URLSearchParams({
        chainId: String(o.chainId),
        sellToken: req.sellToken,
        buyToken: req.buyToken,
        sellAmount: req.sellAmount.toString(),
      }).toString()
      const headers: Record<string, string> = { '0x-version': 'v2', accept: 'application/json' }
      if (o.apiKey) headers['0x-api-key'] = o.apiKey
      const res = await fetch(url, { headers, signal })
      const text = await res.text()
      if (text.length > MAX_BODY) return { ok: false, error: 'Aggregator response too large' }
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      } // not JSON: judged by its status below
      if (!res.ok) {
        const msg =
          typeof (body as { message?: unknown })?.message === 'string'
            ? `: ${(body as { message: string }).message.slice(0, 200)}`
            : ''
        return { ok: false, error: `Aggregator HTTP ${res.status}${msg}` }
      }
      return parsePrice(body)
    },
  }
}

/** Reads a 0x v2 price body; anything off-format is an error, never a guess. */
export function parsePrice(body: unknown): PriceResult {
  if (!isPlainObject(body)) return { ok: false, error: 'Aggregator returned an invalid response' }
  const b = body
  if (b.liquidityAvailable === false) return { ok: false, error: 'No liquidity available' }
  if (b.liquidityAvailable !== true || typeof b.buyAmount !== 'string' || !/^\d{1,78}$/.test(b.buyAmount))
    return { ok: false, error: 'Aggregator returned an invalid response' }
  const fills = (b.route as { fills?: unknown } | null | undefined)?.fills
  const route: RouteLeg[] = []
  if (Array.isArray(fills)) {
    for (const f of fills as Record<string, unknown>[]) {
      const bps = Number(f?.proportionBps)
      if (typeof f?.source !== 'string' || !Number.isFinite(bps))
        return { ok: false, error: 'Aggregator returned an invalid response' }
      route.push({ dex: f.source, portion: bps / 10_000, poolAddress: null, fee: null })
    }
  }
  return { ok: true, outputAmount: BigInt(b.buyAmount), route }
}
