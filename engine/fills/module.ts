// The fills, benchmark and league surface: POST /api/v1/fills, the baseline and performance
// reports, the aggregator price proxy, the league. Returns recordFill and storeBaseline for the
// RFQ API (agent fill) and the RFQ-creation path (server-side baselines).
import type { RfqEvent } from '../../actors/rfqTypes.js'
import type { EventBus } from '../../actors/events.js'
import type { EngineContext } from '../context.js'
import { fillRoutes } from './routes.js'
import { recordFill } from './record.js'
import { benchmarkRoutes } from '../benchmark/routes.js'
import { aggRoutes } from '../benchmark/aggRoutes.js'
import { storeBaseline } from '../benchmark/storeBaseline.js'
import { zeroExV2Adapter } from '../benchmark/aggregator/zeroExV2.js'
import { leagueRoutes } from '../league/routes.js'
import type { FillVerifier } from '../chain/verifyFill.js'

export interface FillsDeps {
  /** the RFQ event bus (book.events): `fill.recorded` is published on it after commit */
  events?: EventBus<RfqEvent>
  /** when set, a fill is accepted only if the chain shows it (engine/chain/verifyFill.ts) */
  verifyFill?: FillVerifier
}

export function fillsModule(ctx: EngineContext, deps: FillsDeps = {}) {
  const c = ctx.config
  const adapter = c.AGG_BASE_URL
    ? zeroExV2Adapter({ id: c.AGG_ID, baseUrl: c.AGG_BASE_URL, apiKey: c.AGG_API_KEY, chainId: c.AGG_CHAIN_ID ?? c.CHAIN_ID, path: c.AGG_PRICE_PATH })
    : null
  fillRoutes(ctx, deps)
  benchmarkRoutes(ctx, { clientSourceId: c.AGG_ID })
  aggRoutes(ctx, { adapter, id: c.AGG_ID, timeoutMs: c.AGG_TIMEOUT_MS })
  leagueRoutes(ctx)
  return { recordFill, storeBaseline }
}
