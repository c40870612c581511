// POST /api/v1/fills: parse, record (one transaction), publish after commit.
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { EventBus } from '../../actors/events.js'
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { parseFillBody } from './parse.js'
import { recordFill } from './record.js'

export function fillRoutes({ surfaces, sql }: EngineContext, deps: { events?: EventBus<RfqEvent> }): void {
  surfaces.api.post('/api/v1/fills', async req => {
    const input = parseFillBody(req.body)
    const fill = await recordFill(sql, input, { events: deps.events })
    return ok({ success: true, fill })
  })
}
