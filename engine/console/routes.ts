// The web console on the API port: GET / (the page), /assets/:file (its hashed script and stylesheet)
// and /console/config.json (where the page finds the other two surfaces: their ports, their public
// URLs behind a proxy, and whether the terminal wants a key). Mounted once the ports are bound, since with port 0 only then are they known.
// The bundle is read from dist/web/ on first use and kept; until `make build` has written it, / answers
// 503 saying so instead of failing.
import { join } from 'node:path'
import type { EngineContext } from '../context.js'
import { ok, json } from '../front/request.js'
import { Errors } from '../front/errors.js'
import { repoRoot } from '../paths.js'
import { VERSION } from '../version.js'
import { fileReply, loadConsoleFiles, type ConsoleFiles } from './files.js'
import { publicUrls } from './publicUrls.js'

export interface ConsolePorts {
  api: number
  terminal: number
  relay: number
}

/** hashed names never change content: a browser keeps them a year and never asks again */
const IMMUTABLE = 'public, max-age=31536000, immutable'

export function consoleRoutes(
  { surfaces, config }: EngineContext,
  ports: ConsolePorts,
  dir = join(repoRoot, 'dist/web'),
): void {
  let files: ConsoleFiles | null = null
  const built = () => (files ??= loadConsoleFiles(dir))

  surfaces.api.get('/', req => {
    const f = built()
    if (!f)
      return json(503, {
        error: 'The console is not built: run `make build` (it bundles web/ into dist/web/)',
        code: 'CONSOLE_NOT_BUILT',
      })
    return fileReply(f.index, req.headers, 'no-cache') // always revalidated: it names the current assets
  })
  surfaces.api.get('/assets/:file', req => {
    const f = built()?.assets.get(req.params.file!)
    return f ? fileReply(f, req.headers, IMMUTABLE) : json(404, Errors.notFound().body)
  })
  const urls = publicUrls(config)
  surfaces.api.get('/console/config.json', () =>
    ok(
      {
        ports,
        urls,
        chainId: config.CHAIN_ID,
        version: VERSION,
        terminalKeyRequired: !!config.API_KEY,
      },
      { 'cache-control': 'no-cache' },
    ),
  )
}
