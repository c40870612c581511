// docs/endpoints.md is generated from the OpenAPI operations (the list a test holds equal to every
// mounted route), so the endpoint reference cannot drift from the route tables, and names the file that
// handles each route (handlerFiles.ts reads them from the sources). `make docs` rewrites it;
// test/docs/truth.test.ts fails when the file and this rendering disagree.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { operations } from './document.js'
import { handlerFiles } from './handlerFiles.js'
import { repoRoot } from '../paths.js'
import { parseCli } from '../ops/cli.js'

const SURFACES = [
  { surface: 'api', title: 'API (`API_PORT`, default 3000)' },
  { surface: 'terminal', title: 'Terminal: options market data (`TERMINAL_PORT`, default 3001)' },
  {
    surface: 'relay',
    title: 'Relay REST (`RELAY_PORT`, default 8080; the WebSocket is on the same port: docs/relay.md)',
  },
] as const

export function endpointsMarkdown(): string {
  const out = [
    '# Endpoints',
    '',
    'Generated from `engine/openapi/document.ts` by `make docs`; a test keeps this page equal to the route tables.',
    'The full schemas are in the OpenAPI document at `GET /api/v1/openapi.json`. The handler is the file that parses',
    'the request, calls the domain and maps its outcome (its route table may be another file of the same surface).',
    '',
  ]
  const handlers = handlerFiles()
  const unknown: string[] = []
  for (const { surface, title } of SURFACES) {
    out.push(`## ${title}`, '', '| method | path | handler | auth | what |', '|---|---|---|---|---|')
    for (const op of operations.filter(o => o.surface === surface)) {
      const key = `${surface} ${op.method.toUpperCase()} ${op.path}`
      const handler = handlers.get(key)
      if (!handler) unknown.push(key)
      out.push(
        `| ${op.method.toUpperCase()} | \`${op.path}\` | \`${handler ?? '?'}\` | ${op.auth ?? ''} | ${cell(op.summary)} |`,
      )
    }
    out.push('')
  }
  // a route mounted in a way handlerFiles does not read: say so rather than print a page with a hole
  if (unknown.length) throw new Error(`no handler file found in engine/ for: ${unknown.join('; ')}`)
  return out.join('\n')
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  parseCli(
    'endpointsMarkdown.js',
    `Usage: node dist/engine/openapi/endpointsMarkdown.js   (or: make docs)

Rewrites docs/endpoints.md from the OpenAPI operations in engine/openapi/document.ts. Takes no options;
test/docs/truth.test.ts fails when the file and the route tables disagree.`,
    {},
  )
  writeFileSync(join(repoRoot, 'docs/endpoints.md'), endpointsMarkdown())
}
