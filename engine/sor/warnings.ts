// The route finder's warnings, word for word in one place: a quote carries them in `warnings` (and the first
// as its explanation when there is no route). Not refusals: the answer is still 200.
import type { Address } from '../../workers/sor/types.js'
import type { Leg } from '../../workers/sor/legs.js'

export const REFRESH_ADVICE = 'refresh pool state first via POST /api/v1/sor/pool-state/refresh'
export const HIGH_IMPACT_BPS = 100

export const QuoteWarnings = {
  notInRegistry: (address: Address) =>
    `Token ${address} is in a tracked pool but not in the token registry: its symbol is unknown and 18 decimals are assumed for effectivePrice.`,
  unknownSlugs: (slugs: string[]) =>
    `Unknown protocol slug(s): ${slugs.join(', ')}. GET /api/v1/sor/protocols lists them.`,
  noPools: () =>
    `No pools are tracked yet: scan for pools first via POST /api/v1/sor/pools/scan, then ${REFRESH_ADVICE}.`,
  noState: () => `No pool state loaded yet: ${REFRESH_ADVICE}.`,
  noConnection: (tokenIn: Address, tokenOut: Address, maxHops: number, slugs: readonly string[] | null) =>
    `No pool connects ${tokenIn} and ${tokenOut} within ${maxHops} hop${maxHops === 1 ? '' : 's'}${slugs ? ` using protocols ${slugs.join(', ')}` : ''}.` +
    ` If pools were added on chain since the last scan, scan (POST /api/v1/sor/pools/scan) and ${REFRESH_ADVICE}.`,
  insufficient: (requested: bigint, tokenIn: Address, routable: bigint) =>
    `Insufficient liquidity: ${requested} ${tokenIn} requested, ${routable} routable through the tracked pools; this quote is for the routable amount.`,
  highImpact: (bps: number) => `High price impact: ${bps} bps against the zero-size rate of the chosen routes.`,
  stale: (ageSecs: number, block: bigint | null) =>
    `Pool state is ${ageSecs} s old (block ${block}): ${REFRESH_ADVICE} for a current quote.`,
  poolShort: (pool: Address, protocol: string, taken: bigint, offered: bigint, tokenIn: Address, v3: boolean) =>
    `Pool ${pool} (${protocol}) can take only ${taken} of the ${offered} ${tokenIn} offered: its liquidity${v3 ? ' (or the loaded tick range)' : ''} runs out, and the rest would stay unswapped. Reduce amountIn.`,
} as const

/** A warning for each hop that cannot take all it is offered. */
export function legWarnings(legs: readonly Leg[]): string[] {
  return legs
    .filter(h => h.taken < h.offered)
    .map(h =>
      QuoteWarnings.poolShort(h.pool.address, h.pool.protocol, h.taken, h.offered, h.tokenIn, h.state.kind === 'v3'),
    )
}
