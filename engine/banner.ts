// What `make run` prints once every surface listens: where each one is, where the data lives, and the
// next thing to try. The first three lines are the ones scripts read (each names its surface and port).
import type { Config } from './config.js'
import { VERSION } from './version.js'
import { nodeIdOf } from './cluster/nodeId.js'
import { parseNatsUrl } from './cluster/natsUrl.js'

export function banner(
  config: Config,
  ports: { api: number; terminal: number; relay: number },
  database: 'embedded' | 'url',
): string {
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST
  const api = `http://${host}:${ports.api}`
  return [
    `terminal (options data)  http://${host}:${ports.terminal}`,
    `api (rfq/fills/sor/league) ${api}`,
    `relay (websocket + rest) ws://${host}:${ports.relay}  http://${host}:${ports.relay}`,
    '',
    `RFQ engine ${VERSION} is up.`,
    `  OpenAPI    ${api}/api/v1/openapi.json   (every endpoint: docs/endpoints.md)`,
    `  metrics    ${api}/metrics`,
    `  feed       ${api}/api/v1/feed            (server-sent events)`,
    `  data       ${database === 'embedded' ? `embedded PostgreSQL under ${config.DATA_DIR}` : 'PostgreSQL at DATABASE_URL'}`,
    ...(config.NATS_URL
      ? [`  cluster    node ${nodeIdOf(config)} on ${parseNatsUrl(config.NATS_URL).redacted}   (docs/cluster.md)`]
      : []),
    '',
    'Next: register an agent and ask for a price (docs/rfq-api.md), or try the whole venue with `make sandbox`.',
    `  curl -s ${api}/api/v1/tokens`,
    '',
  ].join('\n')
}
