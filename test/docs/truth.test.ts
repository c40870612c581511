// The documentation stays true: the README's configuration table names exactly the variables the
// config schema reads (with "unset" exactly where there is no default), and docs/endpoints.md is
// exactly what the OpenAPI operations render to (those are held equal to the mounted routes by
// test/api/openapi.test.ts). Every docs/ page the README links to exists.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { configSchema, loadConfig } from '../../engine/config.js'
import { endpointsMarkdown } from '../../engine/openapi/endpointsMarkdown.js'
import { handlerFiles } from '../../engine/openapi/handlerFiles.js'
import { repoRoot } from '../../engine/paths.js'

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8')

/** Rows of the README's "## Configuration" section: `| `NAME` | default | meaning |`. */
function configRows(): Map<string, string> {
  const section = readme.split(/^## /m).find(s => s.startsWith('Configuration'))
  assert.ok(section, 'README has a "## Configuration" section')
  const rows = new Map<string, string>()
  for (const line of section.split('\n')) {
    const m = /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/.exec(line)
    if (m) rows.set(m[1]!, m[2]!.trim())
  }
  return rows
}

describe('documentation', () => {
  test('the README configuration table names every config variable, and nothing else', () => {
    const documented = [...configRows().keys()].sort()
    const schema = Object.keys(configSchema.shape).sort()
    assert.deepEqual(documented, schema)
  })

  test('a variable documented as unset has no default, and one with a default is not documented as unset', () => {
    const defaults = loadConfig({}) as Record<string, unknown>
    const wrong: string[] = []
    for (const [name, def] of configRows()) {
      const unset = /^unset\b/.test(def)
      if (unset !== (defaults[name] === undefined))
        wrong.push(`${name}: README "${def}", schema ${JSON.stringify(defaults[name])}`)
    }
    assert.deepEqual(wrong, [])
  })

  test('docs/endpoints.md is the rendering of the route tables (run `make docs` after adding a route)', () => {
    assert.equal(readFileSync(join(repoRoot, 'docs/endpoints.md'), 'utf8'), endpointsMarkdown())
  })

  test('docs/endpoints.md names the file that handles each route: the mount, or the handler it imports', () => {
    const files = [...endpointsMarkdown().matchAll(/^\| (?:GET|POST) \| `[^`]+` \| `([^`]+)` \|/gm)].map(m => m[1]!)
    assert.ok(files.length >= 40, `every route has its handler file (${files.length})`)
    assert.deepEqual(
      files.filter(f => !existsSync(join(repoRoot, f))),
      [],
    )
    const handlers = handlerFiles()
    assert.equal(
      handlers.get('api POST /api/v1/agent/rfqs'),
      'engine/rfqApi/create.ts',
      'a handler made in another file is followed there',
    )
    assert.equal(handlers.get('api GET /api/v1/tokens'), 'engine/rfqApi/module.ts', "an inline handler is its table's")
    assert.equal(handlers.get('terminal GET /health'), 'engine/routes/health.ts')
    assert.equal(
      handlers.get('relay GET /health'),
      'engine/relay/routes.ts',
      "one path on three ports: each port's own",
    )
  })

  test('every docs/ page the README links to exists', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#]+)/g)].map(m => m[1]!)
    assert.ok(links.length >= 5, 'the README links into docs/')
    assert.deepEqual(
      links.filter(l => !existsSync(join(repoRoot, l))),
      [],
    )
  })
})

test('one version: package.json, the lock, the newest CHANGELOG entry, OpenAPI info.version', async () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8'))
  const changelog = readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8')
  const newest = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(changelog)?.[1]
  const { openapiDocument } = await import('../../engine/openapi/document.js')
  assert.deepEqual(
    [lock.version, newest, (openapiDocument() as { info: { version: string } }).info.version],
    [pkg.version, pkg.version, pkg.version],
  )
})
