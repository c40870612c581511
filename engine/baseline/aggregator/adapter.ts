// What the informational price proxy needs from an outside DEX aggregator: a best output for a
// sell amount and the route behind it. One adapter per aggregator's wire format.
export interface PriceRequest {
  sellToken: string
  buyToken: string
  sellAmount: bigint
}

export interface RouteLeg {
  dex: string
  /** share of the sell amount, 0-1 */
  portion: number
  poolAddress: string | null
  fee: number | null
}

export type PriceResult = { ok: true; outputAmount: bigint; route: RouteLeg[] } | { ok: false; error: string }

export interface AggregatorAdapter {
  /** the neutral <aggregator_id> reported as `source` */
  readonly id: string
  price(req: PriceRequest, signal: AbortSignal): Promise<PriceResult>
}
