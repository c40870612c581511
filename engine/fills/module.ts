// The fills surface: POST /api/v1/fills. The baseline reports live in engine/baseline, the league in
// engine/league; the composition root (engine/modules.ts) mounts each.
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { EventBus } from '../../actors/events.js'
import type { EngineContext } from '../context.js'
import { fillRoutes } from './routes.js'
import type { FillVerifier } from '../chain/verifyFill.js'

export interface FillsDeps {
  /** the RFQ event bus (book.events): `fill.recorded` is published on it after commit */
  events?: EventBus<RfqEvent>
  /** when set, a fill is accepted only if the chain shows it (engine/chain/verifyFill.ts) */
  verifyFill?: FillVerifier
}

export function fillsModule(ctx: EngineContext, deps: FillsDeps = {}): void {
  fillRoutes(ctx, deps)
}
