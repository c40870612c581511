// POST /api/v1/agent/rfqs/:id/fill (taker role, only the agent that created the RFQ): parse the body,
// ask the RFQ service (the fill rule, the actor's turn or the guarded update, one transaction with
// the fill record), map its outcome.
import type { Handler } from '../front/request.js'
import type { FillBody, RfqService } from '../rfq/service.js'
import { ok } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { agentOf } from '../front/agentAuth.js'
import { isAddress, isPlainObject, isTxHash, parseU256, parseUsd } from '../../workers/values/index.js'
import { FillErrors, apiReply } from '../replies/api.js'

export function fillHandler(deps: { rfqs: RfqService }): Handler {
  return async req => {
    const agent = agentOf(req)
    const body = parseFill(req.body)
    const id = req.params.id!
    const outcome = await deps.rfqs.fill(id, agent, body)
    if (!outcome.ok) throw apiReply(outcome, 'fill')
    const { fill } = outcome
    return ok({
      success: true,
      rfqId: id,
      txHash: fill.txHash,
      fill: {
        id: fill.id,
        improvementBps: fill.improvementBps,
        takerPoints: fill.takerPoints,
        makerPoints: fill.makerPoints,
      },
    })
  }
}

function parseFill(body: unknown): FillBody {
  if (!isPlainObject(body)) throw Errors.invalidJson()
  const b = body
  if (!isTxHash(b.txHash)) throw Errors.badRequest(FillErrors.txHash)
  if (!isAddress(b.maker)) throw Errors.badRequest(FillErrors.maker)
  const amountIn = parseU256(b.amountIn),
    amountOut = parseU256(b.amountOut)
  if (amountIn === null || amountOut === null) throw Errors.badRequest(FillErrors.amounts)
  const amountInUsd = parseUsd(b.amountInUsd) // capped: no fill can overflow an aggregate
  if (amountInUsd === null) throw Errors.badRequest(FillErrors.usd)
  return {
    txHash: b.txHash.toLowerCase() as `0x${string}`,
    maker: b.maker.toLowerCase() as `0x${string}`,
    amountIn,
    amountOut,
    amountInUsd,
  }
}
