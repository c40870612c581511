// The route finder's failures. Domain code (quote.ts, service.ts) raises a SorFailure with a code and no
// status; the service's entry points turn it into an outcome `{ok: false, code, ...}`; `describe` gives its
// words (the spec's, word for word, and ours for what the spec leaves open), and the API surface's one table
// (engine/replies/api.ts) its status. The parse step's 400s are the surface's own (SorErrors below).
import { Errors as Http } from '../front/errors.js'

export type SorRefusal =
  | { ok: false; code: 'TOKEN_NOT_FOUND'; given: string }
  | { ok: false; code: 'NO_CHAIN' }
  | { ok: false; code: 'CHAIN_UNAVAILABLE'; reason: string }
  | { ok: false; code: 'SEARCH_TIMEOUT'; ms: number }
  | { ok: false; code: 'SEARCH_BUSY'; waiting: number }
  | { ok: false; code: 'PROTOCOLS_INVALID'; detail: string }

export type SorOutcome<T> = { ok: true; value: T } | SorRefusal

/** Raised inside the domain, caught at the service's entry points (never crosses a surface). */
export class SorFailure extends Error {
  constructor(readonly refusal: SorRefusal) {
    super(describe(refusal))
  }
}

/** The words for a refusal (the spec's where it has them): health shows them, replies carry them. */
export function describe(r: SorRefusal): string {
  switch (r.code) {
    case 'TOKEN_NOT_FOUND':
      return `Token ${r.given} not found in registry`
    case 'NO_CHAIN':
      return 'Route finder has no chain: RPC_URL is not configured'
    case 'CHAIN_UNAVAILABLE':
      return r.reason
    case 'SEARCH_TIMEOUT':
      return `Route search timed out after ${r.ms} ms`
    case 'SEARCH_BUSY':
      return `Route finder is busy: ${r.waiting} searches are waiting; retry shortly`
    case 'PROTOCOLS_INVALID':
      return `Protocols file invalid: ${r.detail}`
  }
}

type Without<T> = T extends unknown ? Omit<T, 'ok'> : never
export const fail = (r: Without<SorRefusal>): SorFailure => new SorFailure({ ok: false, ...r })

/** Runs a domain step; a SorFailure becomes its outcome, anything else stays an error (a bug or an outage). */
export async function outcomeOf<T>(step: () => Promise<T>): Promise<SorOutcome<T>> {
  try {
    return { ok: true, value: await step() }
  } catch (e) {
    if (e instanceof SorFailure) return e.refusal
    throw e
  }
}

/** Replies of the surface's parse step (the query is malformed: nothing reached the domain). */
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
