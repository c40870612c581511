// POST /api/v1/agent/rfqs (taker role): parse the body (tokens through the registry), ask the RFQ service to
// create it under the agent's cap on active RFQs (it stores it, makes it live and announces it), map the outcome.
import type { Handler } from '../front/request.js'
import type { TokenRegistry } from '../tokens/registry.js'
import type { RfqService } from '../rfq/service.js'
import { created } from '../front/request.js'
import { agentOf } from '../front/agentAuth.js'
import { apiReply } from '../replies/api.js'
import { parseCreate } from './parseCreate.js'

export function createRfqHandler(deps: { rfqs: Pick<RfqService, 'create'>; tokens: TokenRegistry }): Handler {
  return async req => {
    const agent = agentOf(req)
    const c = await parseCreate(req.body, deps.tokens)
    const outcome = await deps.rfqs.create(agent, { ...c, tokenIn: c.tokenIn.address, tokenOut: c.tokenOut.address })
    if (!outcome.ok) throw apiReply(outcome)
    const { rfq } = outcome
    return created({
      rfqId: rfq.id,
      shareToken: rfq.shareToken,
      expiry: rfq.expiry,
      ttlSeconds: c.ttlSeconds,
      activeCount: outcome.activeCount,
    })
  }
}
