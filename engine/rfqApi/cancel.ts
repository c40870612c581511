// POST /api/v1/rfqs/:id/cancel. Only the original taker: proven by an agent key whose wallet is the
// taker, or by the taker's EIP-191 signature over cancelMessage(id, timestamp) with the timestamp
// in the body ({signature, timestamp}, within 300 s). A live RFQ is cancelled through its actor;
// one that is no longer live by a conditional update, so a racing fill and cancel have one winner.
import type { RfqDirectory, RfqStatus } from '../../actors/rfqTypes.js'
import type { Sql } from '../store/db.js'
import type { Handler, Req } from '../front/request.js'
import type { TokenRegistry } from '../tokens/registry.js'
import type { AgentAuth } from '../agents/auth.js'
import { ok } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { cancelPersisted, effectiveStatus, rfqById } from '../store/rfqQueries.js'
import { logActivity } from '../store/agents.js'
import { cancelMessage, SIGNATURE_WINDOW_SECS } from '../agents/message.js'
import { recoverPersonalSigner } from '../../workers/sig/eip191.js'
import { findRfq } from './read.js'
import { canSee, ownsRfq, ANONYMOUS } from '../../actors/visibility.js'
import { viewerOf } from '../rfq/viewer.js'

export const CancelErrors = {
  notTaker: 'Forbidden: only the taker that created this RFQ can cancel it',
  noProof: 'Forbidden: only the taker can cancel: send the taker agent\'s key, or {signature, timestamp} signed by the taker',
  expired: `Signature expired. Timestamp must be within ${SIGNATURE_WINDOW_SECS}s of current time.`,
  notOpen: (status: RfqStatus) => `RFQ is not open (status ${status})`,
} as const

interface Deps { sql: Sql; book: RfqDirectory; tokens: TokenRegistry; auth: AgentAuth }

export function cancelHandler(deps: Deps): Handler {
  return async req => {
    const id = req.params.id!
    const found = await findRfq(deps, id)                       // no viewer: the caller proves ownership below
    if (!found) throw Errors.notFound('Not found')
    const agentId = await authorize(req, id, found, deps.auth).catch(async e => {
      // a private RFQ the caller may not even see answers as an unknown one, not with a 403
      if (!canSee(found.access, await viewerOf(req, deps.auth).catch(() => ANONYMOUS))) throw Errors.notFound('Not found')
      throw e
    })

    let cancelledAt: Date | undefined
    if (found.live) {
      const outcome = await deps.book.cancel(id)
      if (outcome.ok) cancelledAt = outcome.cancelledAt
      else if (outcome.reason === 'not_open') throw await notOpen(deps, id)
    }
    if (!cancelledAt) {
      // not live (or it left the book between the look-up and the cancel): storage decides
      cancelledAt = await cancelPersisted(deps.sql, id)
      if (!cancelledAt) throw await notOpen(deps, id)
      deps.book.events.publish({ type: 'rfq.cancelled', rfqId: id, cancelledAt })
    }
    if (agentId) await logActivity(deps.sql, { agentId, action: 'rfq.cancel', rfqId: id }).catch(() => {})
    return ok({ id, status: 'CANCELLED', cancelledAt: cancelledAt.toISOString() })
  }
}

/** The agent id when an agent key proved it, null when a signature did; throws 401/403/400 otherwise. */
async function authorize(req: Req, id: string, rfq: { taker: string; access: { agentId: string | null } }, auth: AgentAuth): Promise<string | null> {
  const taker = rfq.taker
  const agent = await auth.optionalAgent(req)
  if (agent) {
    if (!ownsRfq(agent, { agentId: rfq.access.agentId, taker })) throw Errors.forbidden(CancelErrors.notTaker)
    return agent.id
  }
  const b = (req.body ?? {}) as Record<string, unknown>
  if (typeof b !== 'object' || Array.isArray(b) || b.signature === undefined) throw Errors.forbidden(CancelErrors.noProof)
  const ts = typeof b.timestamp === 'number' && Number.isSafeInteger(b.timestamp) ? b.timestamp
    : typeof b.timestamp === 'string' && /^\d{1,15}$/.test(b.timestamp) ? Number(b.timestamp) : null
  if (ts === null) throw Errors.badRequest('timestamp is required (unix seconds)')
  if (Math.abs(Math.floor(Date.now() / 1000) - ts) > SIGNATURE_WINDOW_SECS) throw Errors.badRequest(CancelErrors.expired)
  const signer = recoverPersonalSigner(cancelMessage(id, ts), b.signature)
  if (signer !== taker) throw Errors.forbidden(CancelErrors.notTaker)
  return null
}

async function notOpen(deps: Deps, id: string) {
  const view = await deps.book.describe(id)
  const status = view ? view.status : await rfqById(deps.sql, id).then(r => r ? effectiveStatus(r.status, r.expiry) : 'CANCELLED' as const)
  return Errors.conflict(CancelErrors.notOpen(status), { status })
}
