// The options market data module: the terminal's routes, the ingestion gauges on /metrics, and
// (INGEST_SOURCE not off) the ingestion child process.
import type { EngineContext } from '../context.js'
import { optionsRoutes } from './routes.js'
import { ingestGauges } from './ingestGauges.js'
import { startIngestChild, type IngestChild } from '../ingest/child.js'

export function optionsModule(ctx: EngineContext): { ingest: IngestChild | null } {
  optionsRoutes(ctx)
  ingestGauges(ctx)
  const ingest = ctx.config.INGEST_SOURCE === 'off' ? null : startIngestChild(ctx)
  return { ingest }
}
