// Who may cancel an RFQ over the relay. The spec's relay has no authentication (anyone may send
// CANCEL_REQUEST {rfqId}); that stays the rule on the local chain. Elsewhere the taker must sign,
// with EIP-191 personal_sign, the fixed text `Cancel RFQ <rfqId>` and send it as data.signature.
// RELAY_CANCEL_AUTH=open|signature overrides the default (open on CHAIN_ID 31337, else signature).
// A replayed signature can only cancel the RFQ it names, and an RFQ is cancelled at most once.
import { recoverPersonalSigner } from '../../workers/sig/eip191.js'
import type { CancelProof } from '../rfq/service.js'
import { refuse } from '../rfq/outcomes.js'

export type CancelAuthMode = 'open' | 'signature'

export function cancelAuthMode(config: { RELAY_CANCEL_AUTH?: CancelAuthMode; CHAIN_ID: number }): CancelAuthMode {
  return config.RELAY_CANCEL_AUTH ?? (config.CHAIN_ID === 31337 ? 'open' : 'signature')
}

/** The exact text the taker signs. */
export function relayCancelMessage(rfqId: string): string {
  return `Cancel RFQ ${rfqId}`
}

/** The proof a CANCEL_REQUEST carries under `mode`; the RFQ service decides whether it is the taker's. */
export function relayCancelProof(mode: CancelAuthMode, rfqId: string, signature: unknown): CancelProof {
  if (mode === 'open') return { kind: 'open' }
  if (signature === undefined || signature === null || signature === '')
    return { kind: 'refused', refusal: refuse('CANCEL_SIGNATURE_REQUIRED') }
  return { kind: 'signer', address: recoverPersonalSigner(relayCancelMessage(rfqId), signature) }
}
