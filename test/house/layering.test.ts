// The house's floors, held by a check over the import graph of the sources (not of dist/). The floors are
// written once, in docs/architecture.md's "Floors" table, and read from there: a file imports its own floor and
// the floors below, never above; no two files and no two folders import each other, directly or round a circle;
// every source file sits on a floor. And no production floor imports test/, bench/ or examples/. Each finding
// names the file and the import.
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { repoRoot } from '../../engine/paths.js'

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : []
  })
}

/** Every relative import of a file (type-only ones too: a type is a dependency), resolved to a repo-relative path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ]
    .map(m => m[1]!)
    .filter(s => s.startsWith('.'))
  return specs.map(s => relative(repoRoot, resolve(dirname(file), s)).replace(/\.js$/, '.ts'))
}

const topOf = (repoPath: string) => repoPath.split('/')[0]!

/** The floors, top first: each a name and the folders (ending in /) and files it holds, from docs/architecture.md. */
function readFloors(markdown: string): { name: string; paths: string[] }[] {
  const section = markdown.split(/^## /m).find(s => s.startsWith('Floors\n'))
  if (!section) throw new Error('docs/architecture.md has no "## Floors" section')
  return section
    .split('\n')
    .filter(l => /^\| [a-z]+ \|/.test(l))
    .map(l => {
      const cells = l.split('|').map(c => c.trim())
      return { name: cells[1]!, paths: [...cells[3]!.matchAll(/`([^`]+)`/g)].map(m => m[1]!) }
    })
    .filter(f => f.paths.length) // the header row names no path
}

type Floors = ReturnType<typeof readFloors>

/** The floor index of a file (0 is the top), by the longest path that holds it; undefined when none does. */
function floorIndex(floors: Floors, file: string): number | undefined {
  let best: { i: number; len: number } | undefined
  floors.forEach((f, i) => {
    for (const p of f.paths) {
      const holds = p.endsWith('/') ? file.startsWith(p) : file === p
      if (holds && (!best || p.length > best.len)) best = { i, len: p.length }
    }
  })
  return best?.i
}

/** A file's folder for the folder-circle check: `engine/relay/` for engine/relay/contract/rules.ts; a file at a root stands alone. */
const folderOf = (file: string) => {
  const parts = file.split('/')
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : file
}

/** Strongly connected parts of more than one node (or a node that imports itself): every circle lies in one. */
function circles(edges: Map<string, Set<string>>): string[][] {
  let next = 0
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    on = new Set<string>(),
    found: string[][] = []
  const visit = (v: string) => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    on.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const part: string[] = []
    let w: string
    do {
      w = stack.pop()!
      on.delete(w)
      part.push(w)
    } while (w !== v)
    if (part.length > 1 || edges.get(v)?.has(v)) found.push(part.sort())
  }
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v)
  return found
}

/** The import graph between files and between folders, and the imports that point up the floors. */
function check(
  floors: Floors,
  graph: Map<string, string[]>,
): { unplaced: string[]; upward: string[]; fileCircles: string[][]; folderCircles: string[][] } {
  const unplaced: string[] = [],
    upward: string[] = []
  const files = new Map<string, Set<string>>(),
    folders = new Map<string, Set<string>>()
  for (const [file, targets] of graph) {
    const from = floorIndex(floors, file)
    if (from === undefined) unplaced.push(file)
    files.set(file, new Set())
    for (const target of targets) {
      if (!graph.has(target)) continue // outside the floors (sdk/, node built-ins): other rules
      files.get(file)!.add(target)
      const to = floorIndex(floors, target)
      if (from !== undefined && to !== undefined && to < from) {
        upward.push(`${file} (${floors[from]!.name}) -> ${target} (${floors[to]!.name})`)
      }
      const [a, b] = [folderOf(file), folderOf(target)]
      if (a !== b) (folders.get(a) ?? folders.set(a, new Set()).get(a)!).add(b)
    }
  }
  return { unplaced, upward, fileCircles: circles(files), folderCircles: circles(folders) }
}

const floors = readFloors(readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8'))
const graph = new Map(
  ['engine', 'actors', 'workers']
    .flatMap(top => sources(join(repoRoot, top)))
    .map(file => [relative(repoRoot, file), importsOf(file)] as const),
)
const found = check(floors, graph)

/** floor -> the trees outside the floors it must never import */
const forbidden: Record<string, string[]> = {
  workers: ['sdk', 'test', 'bench', 'examples'],
  actors: ['sdk', 'test', 'bench', 'examples'],
  engine: ['test', 'bench', 'examples'],
}

describe('the house', () => {
  test('docs/architecture.md names the floors, top to bottom, and every path it names exists', () => {
    assert.deepEqual(
      floors.map(f => f.name),
      ['start', 'surfaces', 'replies', 'front', 'services', 'store', 'ground', 'actors', 'workers'],
    )
    assert.deepEqual(
      floors.flatMap(f => f.paths).filter(p => !existsSync(join(repoRoot, p))),
      [],
    )
  })

  test('every source file of engine/, actors/ and workers/ sits on a floor', () => {
    assert.deepEqual(found.unplaced, [])
  })

  test('every import points down the floors (or stays on its floor)', () => {
    assert.deepEqual(found.upward, [])
  })

  test('no circle between files', () => {
    assert.deepEqual(found.fileCircles, [])
  })

  test('no circle between folders', () => {
    assert.deepEqual(found.folderCircles, [])
  })

  for (const [top, banned] of Object.entries(forbidden)) {
    test(`${top}/ imports nothing of ${banned.join(', ')}`, () => {
      const bad: string[] = []
      for (const file of sources(join(repoRoot, top))) {
        for (const target of importsOf(file))
          if (banned.includes(topOf(target))) bad.push(`${relative(repoRoot, file)} -> ${target}`)
      }
      assert.deepEqual(bad, [])
    })
  }

  test('production code never imports dev and test tooling (engine/devchain: anvil, solc, deployers)', () => {
    const bad: string[] = []
    for (const file of sources(join(repoRoot, 'engine'))) {
      const rel = relative(repoRoot, file)
      if (
        rel.startsWith('engine/devchain/') ||
        rel.startsWith('engine/sandbox/') ||
        rel.startsWith('engine/devcluster/')
      )
        continue
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

  test('the check sees imports, type-only and dynamic ones included', () => {
    assert.ok(
      graph.get('engine/app.ts')!.some(t => topOf(t) === 'actors'),
      'engine/app.ts imports actors/',
    )
    assert.ok(
      graph.get('engine/relay/module.ts')!.includes('engine/cluster/module.ts'),
      'the relay loads the cluster by a dynamic import',
    )
    assert.ok(
      graph.get('engine/context.ts')!.includes('engine/store/db.ts'),
      'engine/context.ts imports a type from the store',
    )
  })

  test('the check would catch an upward import, a circle between files and one between folders', () => {
    const small: Floors = [
      { name: 'top', paths: ['engine/a/'] },
      { name: 'bottom', paths: ['engine/b/', 'engine/c.ts'] },
    ]
    const g = new Map<string, string[]>([
      ['engine/a/x.ts', ['engine/b/y.ts']],
      ['engine/b/y.ts', ['engine/a/x.ts', 'engine/b/z.ts']], // up, and round a circle of folders and of files
      ['engine/b/z.ts', ['engine/c.ts']],
      ['engine/c.ts', ['engine/b/y.ts']], // a circle of files on one floor
      ['engine/d.ts', []], // on no floor
    ])
    const r = check(small, g)
    assert.deepEqual(r.upward, ['engine/b/y.ts (bottom) -> engine/a/x.ts (top)'])
    assert.deepEqual(r.fileCircles, [['engine/a/x.ts', 'engine/b/y.ts', 'engine/b/z.ts', 'engine/c.ts']])
    assert.deepEqual(r.folderCircles, [['engine/a/', 'engine/b/', 'engine/c.ts']])
    assert.deepEqual(r.unplaced, ['engine/d.ts'])
  })
})
