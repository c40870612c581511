// The surface modules, mounted in dependency order. Each returns what later ones need.
import type { EngineContext } from './context.js'
import { healthRoutes } from './routes/health.js'
import { metricsRoutes } from './routes/metrics.js'
import { fillsModule } from './fills/module.js'
import { rfqApiModule } from './rfqApi/module.js'
import { relayModule } from './relay/module.js'
import { sorModule } from './sor/module.js'
import { optionsModule } from './options/module.js'

export async function mountModules(ctx: EngineContext): Promise<void> {
  const { book } = await relayModule(ctx)
  healthRoutes(ctx)
  metricsRoutes(ctx)
  optionsModule(ctx)
  fillsModule(ctx, { events: book.events })
  await rfqApiModule(ctx, { book })
  await sorModule(ctx)   // returns { routeFinder }: the RFQ-creation baseline (issue 5 point 4) is the lead's to wire
}
