// POST /api/v1/fills: parse, verify on chain when configured, record (one transaction), publish after
// commit. The public recorder records a trade (its rfqId only picks the baseline); it never changes an
// RFQ's status: only the agent fill does (engine/rfq/service.ts).
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { EventBus } from '../../actors/events.js'
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { parseFillBody } from './fillBody.js'
import { recordFill } from '../fills/record.js'
import type { FillVerifier } from '../chain/verifyFill.js'
import { apiReply } from '../replies/api.js'

export function fillRoutes(
  { surfaces, sql }: EngineContext,
  deps: { events?: EventBus<RfqEvent>; verifyFill?: FillVerifier },
): void {
  surfaces.api.post('/api/v1/fills', async req => {
    const input = parseFillBody(req.body)
    const verified = await deps.verifyFill?.(input)
    if (verified && !verified.ok) throw apiReply(verified, 'record')
    const recorded = await recordFill(sql, input, { events: deps.events })
    if (!recorded.ok) throw apiReply(recorded, 'record')
    return ok({ success: true, fill: recorded.fill })
  })
}
