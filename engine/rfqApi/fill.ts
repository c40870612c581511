// POST /api/v1/agent/rfqs/:id/fill (taker role, only the agent whose wallet is the RFQ's taker).
// A live RFQ is filled inside its actor's turn: the fill (through the same recordFill as
// POST /api/v1/fills) and the FILLED mark commit in one transaction, or neither does. An RFQ no
// longer live is filled in one transaction guarded by a conditional update.
import type { FillInput, RfqDirectory, RfqStatus } from '../../actors/rfqTypes.js'
import type { Sql } from '../store/db.js'
import type { Handler } from '../front/request.js'
import type { TokenRegistry } from '../tokens/registry.js'
import { ok } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { agentOf } from '../agents/auth.js'
import { logActivity } from '../store/agents.js'
import { effectiveStatus, fillExists, markFilled, rfqById } from '../store/rfqQueries.js'
import { recordFill, fillRecordedEvent, DUPLICATE_FILL, type FillRecord } from '../fills/record.js'
import { findRfq } from './read.js'
import { canSee, ownsRfq } from '../../actors/visibility.js'
import type { FillVerifier } from '../chain/verifyFill.js'
import { isAddress, isTxHash, parseU256, parseUsd } from '../../workers/values/index.js'

export const FillErrors = {
  txHash: 'Missing or invalid txHash (expected 0x + 64 hex chars)',
  maker: 'Missing or invalid maker address',
  amounts: 'Missing amountIn or amountOut (BigInt strings)',
  usd: 'Missing or invalid amountInUsd (number)',
  notTaker: 'Forbidden: only the taker that created this RFQ can fill it',
  notFound: 'RFQ not found',
  notOpen: (status: RfqStatus) => `RFQ cannot be filled (status ${status})`,
} as const

interface Deps { sql: Sql; book: RfqDirectory; tokens: TokenRegistry; verifyFill?: FillVerifier }

export function fillHandler(deps: Deps): Handler {
  return async req => {
    const agent = agentOf(req)
    const body = parseFill(req.body)
    const id = req.params.id!
    const found = await findRfq(deps, id)
    if (!found) throw Errors.notFound(FillErrors.notFound)
    if (!ownsRfq(agent, { agentId: found.access.agentId, taker: found.taker })) {
      // bound to the agent that created it; a private RFQ this agent may not see is simply not found
      throw canSee(found.access, { shareTokenHashes: [], agentId: agent.id }) ? Errors.forbidden(FillErrors.notTaker) : Errors.notFound(FillErrors.notFound)
    }
    const rfq = found.live?.rfq ?? found.row!
    const input: FillInput = {
      txHash: body.txHash, taker: rfq.taker, maker: body.maker, tokenIn: rfq.tokenIn, tokenOut: rfq.tokenOut,
      amountIn: body.amountIn, amountOut: body.amountOut, amountInUsd: body.amountInUsd, visibility: rfq.visibility, rfqId: id,
    }
    const activity = { agentId: agent.id, action: 'rfq.fill', rfqId: id, detail: { txHash: body.txHash, maker: body.maker } }

    await deps.verifyFill?.(input)            // on-chain check when the chain is configured
    let fill: FillRecord | undefined
    if (found.live) {
      const outcome = await deps.book.fill(id, body.txHash, () => deps.sql.begin(async tx => {
        const record = await recordFill(tx, input)
        // inside the actor's turn: no describe() here (it would wait on this very turn)
        if (!await markFilled(tx, id, body.txHash)) {
          const status = (await rfqById(tx, id))?.status ?? 'CANCELLED'
          throw Errors.conflict(FillErrors.notOpen(status), { status })
        }
        await logActivity(tx, activity)
        return record
      }))
      if (outcome.ok) fill = outcome.result
      else if (outcome.reason === 'not_open') throw await notFillable(deps, id, body.txHash)
    }
    if (!fill) {
      fill = await deps.sql.begin(async tx => {
        if (!await markFilled(tx, id, body.txHash)) return undefined
        const record = await recordFill(tx, input)
        await logActivity(tx, activity)
        return record
      })
      if (!fill) throw await notFillable(deps, id, body.txHash)
      deps.book.events.publish({ type: 'rfq.filled', rfqId: id, txHash: body.txHash })
    }
    deps.book.events.publish(fillRecordedEvent(fill, id, rfq.visibility))
    return ok({ success: true, rfqId: id, txHash: fill.txHash,
      fill: { id: fill.id, improvementBps: fill.improvementBps, takerPoints: fill.takerPoints, makerPoints: fill.makerPoints } })
  }
}

function parseFill(body: unknown) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.invalidJson()
  const b = body as Record<string, unknown>
  if (!isTxHash(b.txHash)) throw Errors.badRequest(FillErrors.txHash)
  if (!isAddress(b.maker)) throw Errors.badRequest(FillErrors.maker)
  const amountIn = parseU256(b.amountIn), amountOut = parseU256(b.amountOut)
  if (amountIn === null || amountOut === null) throw Errors.badRequest(FillErrors.amounts)
  const amountInUsd = parseUsd(b.amountInUsd)     // capped: no fill can overflow an aggregate
  if (amountInUsd === null) throw Errors.badRequest(FillErrors.usd)
  return { txHash: b.txHash.toLowerCase() as `0x${string}`, maker: b.maker.toLowerCase() as `0x${string}`, amountIn, amountOut, amountInUsd }
}


/** 409: the spec's duplicate text when this txHash is already recorded, else the RFQ's state. */
async function notFillable(deps: Deps, id: string, txHash: string) {
  if (await fillExists(deps.sql, txHash)) return Errors.conflict(DUPLICATE_FILL)
  const view = await deps.book.describe(id)
  const status = view ? view.status : await rfqById(deps.sql, id).then(r => r ? effectiveStatus(r.status, r.expiry) : 'FILLED' as const)
  return Errors.conflict(FillErrors.notOpen(status), { status })
}
