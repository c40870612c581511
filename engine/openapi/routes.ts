// GET /api/v1/openapi.json: the document is built once; it does not change while the engine runs.
import type { EngineContext } from '../context.js'
import { ok } from '../front/request.js'
import { openapiDocument, serversFrom } from './document.js'

export function openapiRoutes({ surfaces, config }: EngineContext): void {
  const doc = openapiDocument(serversFrom(config)) // the servers this engine was configured with
  surfaces.api.get('/api/v1/openapi.json', () => ok(doc))
}
