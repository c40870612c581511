// POST /api/v1/rfqs/:id/cancel. Only the original taker: proven by an agent key whose wallet is the
// taker, or by the taker's EIP-191 signature over cancelMessage(id, timestamp) with the timestamp
// in the body ({signature, timestamp}, within 300 s). Parse the proof, ask the RFQ service, map.
import type { Handler, Req } from '../front/request.js'
import type { AgentAuth } from '../front/agentAuth.js'
import type { CancelProof, RfqService } from '../rfq/service.js'
import { ok } from '../front/request.js'
import { cancelMessage, SIGNATURE_WINDOW_SECS } from '../agents/message.js'
import { recoverPersonalSigner } from '../../workers/sig/eip191.js'
import { refuse } from '../rfq/outcomes.js'
import { viewerOf } from '../front/viewer.js'
import { ANONYMOUS } from '../../actors/visibility.js'
import { apiReply } from '../replies/api.js'
import { isPlainObject, toUnixSeconds } from '../../workers/values/index.js'

export function cancelHandler(deps: { rfqs: RfqService; auth: AgentAuth }): Handler {
  return async req => {
    const id = req.params.id!
    const proof = await proofOf(req, id, deps.auth)
    // the key was judged just above (proofOf); should a second read of it fail, the caller sees as anyone does
    const viewer = await viewerOf(req, deps.auth).catch(() => ANONYMOUS)
    const outcome = await deps.rfqs.cancel(id, proof, { viewer })
    if (!outcome.ok) throw apiReply(outcome, 'cancel')
    return ok({ id, status: 'CANCELLED', cancelledAt: outcome.cancelledAt.toISOString() })
  }
}

/** An agent key when one is sent (a bad key is 401, as on every agent path), else the body's signature. */
async function proofOf(req: Req, id: string, auth: AgentAuth): Promise<CancelProof> {
  const agent = await auth.optionalAgent(req)
  if (agent) return { kind: 'agent', agent }
  const b = req.body ?? {}
  if (!isPlainObject(b) || b.signature === undefined) return { kind: 'refused', refusal: refuse('NO_PROOF') }
  const ts =
    typeof b.timestamp === 'number' && Number.isSafeInteger(b.timestamp)
      ? b.timestamp
      : typeof b.timestamp === 'string' && /^\d{1,15}$/.test(b.timestamp)
        ? Number(b.timestamp)
        : null
  if (ts === null) return { kind: 'refused', refusal: refuse('BAD_TIMESTAMP') }
  if (Math.abs(toUnixSeconds(Date.now()) - ts) > SIGNATURE_WINDOW_SECS)
    return { kind: 'refused', refusal: refuse('SIGNATURE_EXPIRED') }
  return { kind: 'signer', address: recoverPersonalSigner(cancelMessage(id, ts), b.signature) }
}
