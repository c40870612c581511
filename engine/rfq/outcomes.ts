// What the RFQ service answers: a result, or a refusal with a code. No status codes and no texts here:
// each surface maps a refusal to its own reply in one table (engine/replies/api.ts for the API port,
// engine/replies/relay.ts for the relay), so the same refusal reads the same on every surface.
import type { RfqStatus } from '../../actors/rfqTypes.js'
import type { Outcome, Refused } from '../../workers/outcome.js'

export type Refusal =
  /** unknown, or a private RFQ the caller may not see (the two answer alike) */
  | Refused<'NOT_FOUND'>
  /** the caller sees the RFQ but did not create it */
  | Refused<'NOT_TAKER'>
  /** a cancel with neither an agent key nor a signature */
  | Refused<'NO_PROOF'>
  /** a signed cancel whose timestamp is missing, or outside the signature window */
  | Refused<'BAD_TIMESTAMP'>
  | Refused<'SIGNATURE_EXPIRED'>
  /** the relay's own cancel proof (its cancelAuth mode): no signature, or not the taker's */
  | Refused<'CANCEL_SIGNATURE_REQUIRED'>
  | Refused<'CANCEL_NOT_TAKER'>
  | (Refused<'NOT_OPEN'> & { status: RfqStatus })
  | (Refused<'NOT_FILLABLE'> & { status: RfqStatus })
  | Refused<'DUPLICATE_FILL'>
  /** chain verification refused the fill; `reason` says which check */
  | (Refused<'FILL_UNVERIFIED'> & { reason: string })
  /** the chain RPC did not answer: nothing was recorded */
  | (Refused<'CHAIN_UNAVAILABLE'> & { reason: string })
  /** the creator already has its cap of active RFQs, counted across the venue by the store */
  | (Refused<'TOO_MANY_ACTIVE'> & { activeCount: number })

export type RfqOutcome<T extends object> = Outcome<T, Refusal>

export const refuse = <C extends Refusal['code']>(code: C, more?: Omit<Extract<Refusal, { code: C }>, 'ok' | 'code'>) =>
  ({ ok: false, code, ...more }) as Extract<Refusal, { code: C }>

/**
 * Thrown inside a transaction to roll it back with a refusal (a duplicate txHash found after the RFQ was
 * marked); the service catches it and answers the refusal. Never leaves the service.
 */
export class Rollback extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.code)
  }
}
