// POST /api/v1/fills: parse, record (one transaction), publish after commit.
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { EventBus } from '../../actors/events.js'
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { parseFillBody } from './parse.js'
import { recordFill } from './record.js'
import type { FillVerifier } from '../chain/verifyFill.js'

export function fillRoutes({ surfaces, sql }: EngineContext, deps: { events?: EventBus<RfqEvent>; verifyFill?: FillVerifier }): void {
  surfaces.api.post('/api/v1/fills', async req => {
    const input = parseFillBody(req.body)
    await deps.verifyFill?.(input)            // on-chain check when the chain is configured
    const fill = await recordFill(sql, input, { events: deps.events })
    return ok({ success: true, fill })
  })
}
