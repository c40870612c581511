// The surface modules, mounted in dependency order. Each returns what later ones need.
import type { EngineContext } from './context.js'
import { healthRoutes } from './routes/health.js'
import { metricsRoutes } from './routes/metrics.js'

export async function mountModules(ctx: EngineContext): Promise<void> {
  healthRoutes(ctx)
  metricsRoutes(ctx)
}
