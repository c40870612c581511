// GET /api/v1/sor/quote's query, validated in the spec's order: presence, address format, distinct
// tokens, amount; then the optional parameters with their defaults (maxHops 2, maxRoutes 5, maxSplit 4,
// explain true).
import { Errors as Http } from '../front/errors.js'
import { MAX_ROUTES_LIMIT, MAX_SPLIT_LIMIT, type QuoteParams } from '../sor/quoteParams.js'
import { isAddress, parseU256 } from '../../workers/values/index.js'

/** Replies of the route finder's parse step (the query is malformed: nothing reached the domain). */
export const SorErrors = {
  missingParams: () => Http.badRequest('Missing required params: tokenIn, tokenOut, amountIn'),
  invalidAddress: () => Http.badRequest('Invalid token address format'),
  sameToken: () => Http.badRequest('tokenIn and tokenOut must be different'),
  invalidAmount: () => Http.badRequest('amountIn must be a positive integer (raw units)'),
  // not in the spec's table: ranges of the optional parameters
  maxHops: () => Http.badRequest('maxHops must be 1 or 2'),
  maxRoutes: (max: number) => Http.badRequest(`maxRoutes must be an integer between 1 and ${max}`),
  maxSplit: (max: number) => Http.badRequest(`maxSplit must be an integer between 1 and ${max}`),
  slugs: () => Http.badRequest('slugs must be a comma-separated list of protocol slugs'),
  explain: () => Http.badRequest('explain must be true or false'),
  invalidAddressParam: () => Http.badRequest('address must be a 0x address (40 hex characters)'),
  poolNotTracked: (address: string) => Http.notFound(`Pool ${address} is not tracked`),
}

/**
 * tokenIn and tokenOut are addresses or registry symbols, as the RFQ API takes them: anything starting
 * with 0x must be a well-formed address (400 otherwise); a symbol is resolved by the caller through the
 * token registry (404 `Token X not found in registry` when it is not there).
 */
export function parseQuoteQuery(q: URLSearchParams): Required<Omit<QuoteParams, 'slugs' | 'tokenIn' | 'tokenOut'>> & {
  tokenIn: string
  tokenOut: string
  slugs: string[]
} {
  const tokenIn = q.get('tokenIn')?.trim() ?? '',
    tokenOut = q.get('tokenOut')?.trim() ?? '',
    amount = q.get('amountIn')?.trim() ?? ''
  if (!tokenIn || !tokenOut || !amount) throw SorErrors.missingParams()
  const wellFormed = (t: string) => (t.toLowerCase().startsWith('0x') ? isAddress(t) : t.length <= 32)
  if (!wellFormed(tokenIn) || !wellFormed(tokenOut)) throw SorErrors.invalidAddress()
  if (tokenIn.toLowerCase() === tokenOut.toLowerCase()) throw SorErrors.sameToken()
  const amountIn = parseU256(amount)
  if (amountIn === null || amountIn === 0n) throw SorErrors.invalidAmount()

  const maxHops = int(q, 'maxHops', 2, 1, 2)
  if (maxHops === null) throw SorErrors.maxHops()
  const maxRoutes = int(q, 'maxRoutes', 5, 1, MAX_ROUTES_LIMIT)
  if (maxRoutes === null) throw SorErrors.maxRoutes(MAX_ROUTES_LIMIT)
  const maxSplit = int(q, 'maxSplit', 4, 1, MAX_SPLIT_LIMIT)
  if (maxSplit === null) throw SorErrors.maxSplit(MAX_SPLIT_LIMIT)
  const slugs = parseSlugs(q.get('slugs'))
  const explain = parseBool(q.get('explain'), true)
  return {
    tokenIn,
    tokenOut,
    amountIn,
    maxHops: maxHops as 1 | 2,
    maxRoutes,
    maxSplit,
    slugs,
    explain,
    given: { tokenIn, tokenOut },
  }
}

function int(q: URLSearchParams, name: string, def: number, min: number, max: number): number | null {
  const raw = q.get(name)?.trim()
  if (raw === undefined || raw === '') return def
  if (!/^\d+$/.test(raw)) return null
  const n = Number(raw)
  return n < min || n > max ? null : n
}

function parseSlugs(raw: string | null): string[] {
  if (raw === null || raw.trim() === '') return []
  const slugs = raw
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)
  if (!slugs.every(s => /^[a-z0-9][a-z0-9._-]{0,63}$/i.test(s))) throw SorErrors.slugs()
  return [...new Set(slugs.map(s => s.toLowerCase()))]
}

function parseBool(raw: string | null, def: boolean): boolean {
  if (raw === null || raw.trim() === '') return def
  const v = raw.trim().toLowerCase()
  if (v === 'true' || v === '1') return true
  if (v === 'false' || v === '0') return false
  throw SorErrors.explain()
}
