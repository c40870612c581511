// Health routes: the terminal's is exactly {status:"ok"} (spec); the API's also says whether
// Postgres answers, because an operator's probe wants to know that.
import type { EngineContext } from '../context.js'
import { ok, json } from '../front/request.js'
import { VERSION } from '../version.js'

export function healthRoutes({ surfaces, probeDatabase }: EngineContext): void {
  surfaces.terminal.get('/health', () => ok({ status: 'ok' }))
  // asked live, through the database monitor: what this probe sees, the rest of the engine sees too (dbMonitor.ts)
  const apiHealth = async () =>
    (await probeDatabase())
      ? ok({ status: 'ok', database: 'ok', version: VERSION })
      : json(503, { status: 'degraded', database: 'down', error: 'Database unavailable', version: VERSION })
  surfaces.api.get('/health', apiHealth)
  surfaces.api.get('/api/v1/health', apiHealth)
}
