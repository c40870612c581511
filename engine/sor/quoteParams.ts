// What a route-finder quote is asked with: the domain's terms. GET /api/v1/sor/quote's query is read into
// these by the surface's parse step (engine/routes/sorQuery.ts), with the spec's texts for a bad one.
import type { Address } from '../../workers/sor/types.js'

export const MAX_ROUTES_LIMIT = 20
export const MAX_SPLIT_LIMIT = 10

export interface QuoteParams {
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  maxHops?: 1 | 2
  maxRoutes?: number
  maxSplit?: number
  /** protocol slugs to use; absent or empty: all */
  slugs?: string[]
  explain?: boolean
  /** the addresses as the caller wrote them, for the 404 text; defaults to tokenIn / tokenOut */
  given?: { tokenIn: string; tokenOut: string }
}
