// The house's floors, held by a check over the import graph of the sources (not of dist/):
// workers/ imports nothing of actors/ or engine/; actors/ imports nothing of engine/; and no
// production floor imports test/, bench/ or examples/. Each finding names the file and the import.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : []
  })
}

/** Every relative import of a file, resolved to a repo-relative path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ]
    .map(m => m[1]!)
    .filter(s => s.startsWith('.'))
  return specs.map(s => relative(repoRoot, resolve(dirname(file), s)))
}

const floorOf = (repoPath: string) => repoPath.split('/')[0]!

/** floor -> the floors it must never import */
const forbidden: Record<string, string[]> = {
  workers: ['actors', 'engine', 'sdk', 'test', 'bench', 'examples'],
  actors: ['engine', 'sdk', 'test', 'bench', 'examples'],
  engine: ['test', 'bench', 'examples'],
}

describe('the house', () => {
  for (const [floor, banned] of Object.entries(forbidden)) {
    test(`${floor}/ imports nothing of ${banned.join(', ')}`, () => {
      const bad: string[] = []
      for (const file of sources(join(repoRoot, floor))) {
        for (const target of importsOf(file))
          if (banned.includes(floorOf(target))) bad.push(`${relative(repoRoot, file)} -> ${target}`)
      }
      assert.deepEqual(bad, [])
    })
  }

  test('production code never imports dev and test tooling (engine/devchain: anvil, solc, deployers)', () => {
    const bad: string[] = []
    for (const file of sources(join(repoRoot, 'engine'))) {
      const rel = relative(repoRoot, file)
      if (rel.startsWith('engine/devchain/') || rel.startsWith('engine/sandbox/')) continue
      for (const target of importsOf(file)) if (target.startsWith('engine/devchain/')) bad.push(`${rel} -> ${target}`)
    }
    assert.deepEqual(bad, [])
  })

  test('no source file is over 300 lines (one thing per file, readable in a sitting)', () => {
    const long: string[] = []
    for (const floor of ['engine', 'actors', 'workers', 'sdk', 'examples']) {
      for (const file of sources(join(repoRoot, floor))) {
        const n = readFileSync(file, 'utf8').split('\n').length - 1
        if (n > 300) long.push(`${relative(repoRoot, file)}: ${n} lines`)
      }
    }
    assert.deepEqual(long, [])
  })

  test('the check sees imports (it would catch an upward one)', () => {
    const engineFile = join(repoRoot, 'engine/app.ts')
    assert.ok(
      importsOf(engineFile).some(t => floorOf(t) === 'actors'),
      'engine/app.ts imports actors/',
    )
  })
})
