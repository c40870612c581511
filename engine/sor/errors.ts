// The route finder's failures. Domain code (quote.ts, service.ts) raises a SorFailure with a code and no
// status; the service's entry points turn it into an outcome `{ok: false, code, ...}`; `describe` gives its
// words (the spec's, word for word, and ours for what the spec leaves open), and the API surface's one table
// (engine/replies/api.ts) its status. The parse step's 400s are the surface's own (engine/routes/sorQuery.ts).
import type { Outcome, Refused } from '../../workers/outcome.js'

export type SorRefusal =
  | (Refused<'TOKEN_NOT_FOUND'> & { given: string })
  | Refused<'NO_CHAIN'>
  | (Refused<'CHAIN_UNAVAILABLE'> & { reason: string })
  | (Refused<'SEARCH_TIMEOUT'> & { ms: number })
  | (Refused<'SEARCH_BUSY'> & { waiting: number })
  | (Refused<'SEARCH_UNAVAILABLE'> & { reason: string })
  | (Refused<'PROTOCOLS_INVALID'> & { detail: string })

export type SorOutcome<T> = Outcome<{ value: T }, SorRefusal>

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
    case 'SEARCH_UNAVAILABLE':
      return `Route finder is restarting its search process (${r.reason}); retry shortly`
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
