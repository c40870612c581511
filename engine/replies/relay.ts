// The relay surface's one table from the RFQ service's refusals to ERROR frames (the API's: replies/api.ts). A CANCEL_REQUEST reaches only
// these; every other refusal of a cancel reads as the spec's one text for an RFQ that cannot be cancelled.
import type { Refusal } from '../rfq/outcomes.js'
import { RelayErrors, type RelayError } from '../../actors/errors.js'

export function relayRefusal(r: Refusal): RelayError {
  switch (r.code) {
    case 'CANCEL_SIGNATURE_REQUIRED':
      return RelayErrors.cancelSignatureRequired()
    case 'NOT_TAKER':
    case 'CANCEL_NOT_TAKER':
      return RelayErrors.cancelNotTaker()
    // unknown, unseen, ended or no longer open; the rest are the API's proofs and fills, which a relay cancel never meets
    case 'NOT_FOUND':
    case 'NOT_OPEN':
    case 'NO_PROOF':
    case 'BAD_TIMESTAMP':
    case 'SIGNATURE_EXPIRED':
    case 'NOT_FILLABLE':
    case 'DUPLICATE_FILL':
    case 'FILL_UNVERIFIED':
    case 'CHAIN_UNAVAILABLE':
    case 'TOO_MANY_ACTIVE':
      return RelayErrors.cancelNotFound()
  }
}
