import type { EngineContext } from '../context.js'

export function metricsRoutes({ surfaces, metrics }: EngineContext): void {
  surfaces.api.get('/metrics', async () => ({
    status: 200,
    text: await metrics.registry.metrics(),
    headers: { 'content-type': metrics.registry.contentType },
  }))
}
