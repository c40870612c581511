// The surface modules, mounted in dependency order. Each returns what later ones need.
import type { EngineContext } from './context.js'
import { healthRoutes } from './routes/health.js'
import { metricsRoutes } from './routes/metrics.js'
import { fillsModule } from './fills/module.js'

export async function mountModules(ctx: EngineContext): Promise<void> {
  healthRoutes(ctx)
  metricsRoutes(ctx)
  fillsModule(ctx)   // once the relay is mounted: fillsModule(ctx, { events: book.events })
}
