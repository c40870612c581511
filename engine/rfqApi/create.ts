// POST /api/v1/agent/rfqs (taker role): validate, hand the RFQ to the book under the agent's cap on active
// RFQs (the store arbitrates the cap for the whole venue, then the book spawns its actor and publishes
// rfq.created for the relay and the SSE feed), log the agent's activity.
import { randomBytes } from 'node:crypto'
import type { Rfq, RfqDirectory } from '../../actors/rfqTypes.js'
import type { Sql } from '../store/db.js'
import type { Handler } from '../front/request.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { created } from '../front/request.js'
import { agentOf } from '../agents/auth.js'
import { logActivity } from '../store/agents.js'
import { apiReply } from '../replies/api.js'
import { parseCreate } from './parseCreate.js'

/** Unguessable: 128 random bits. */
export function newRfqId(): string {
  return 'rfq_' + randomBytes(16).toString('hex')
}

export function createRfqHandler(deps: {
  sql: Sql
  book: RfqDirectory
  tokens: TokenRegistry
  maxActive: number
  log: { warn(o: object, m: string): void }
}): Handler {
  return async req => {
    const agent = agentOf(req)
    const c = await parseCreate(req.body, deps.tokens)
    const now = Date.now()
    const rfq: Rfq = {
      id: newRfqId(),
      taker: agent.agentWallet,
      tokenIn: c.tokenIn.address,
      tokenOut: c.tokenOut.address,
      kind: c.kind,
      amountIn: c.amountIn,
      amountOut: c.amountOut,
      expiry: Math.floor(now / 1000) + c.ttlSeconds,
      visibility: c.visibility,
      allowedMakers: c.allowedMakers,
      shareToken: c.visibility === 'private' ? randomBytes(24).toString('base64url') : null,
      createdAt: new Date(now),
      agentId: agent.id, // the cap is the agent's, not the wallet's: a wallet can be claimed
    }
    const outcome = await deps.book.create(rfq, { maxActive: deps.maxActive })
    if (!outcome.ok) throw apiReply(outcome)
    await logActivity(deps.sql, {
      agentId: agent.id,
      action: 'rfq.create',
      rfqId: rfq.id,
      detail: { visibility: rfq.visibility, kind: rfq.kind },
    }).catch((err: unknown) => deps.log.warn({ err, rfqId: rfq.id }, 'agent activity not logged'))
    return created({
      rfqId: rfq.id,
      shareToken: rfq.shareToken,
      expiry: rfq.expiry,
      ttlSeconds: c.ttlSeconds,
      activeCount: outcome.activeCount,
    })
  }
}
