// Circles in the import graph, between files and between folders. Every relative import counts, `import type`
// included (a circle through types is still a circle in the design), and so do `export … from` and `import()`.
import {
  isCallExpression,
  isExportDeclaration,
  isImportDeclaration,
  isStringLiteral,
  SyntaxKind,
  type Node,
} from 'typescript/unstable/ast'
import { dirname, join, normalize } from 'node:path'
import type { Source } from './program.js'

export type Graph = Map<string, Set<string>>

function specifiers(node: Node, out: string[]): void {
  if (
    (isImportDeclaration(node) || isExportDeclaration(node)) &&
    node.moduleSpecifier &&
    isStringLiteral(node.moduleSpecifier)
  ) {
    out.push(node.moduleSpecifier.text)
  } else if (isCallExpression(node) && node.expression.kind === SyntaxKind.ImportKeyword) {
    const [arg] = node.arguments
    if (arg && isStringLiteral(arg)) out.push(arg.text)
  }
  node.forEachChild(child => specifiers(child, out))
}

/** file -> the repo files it imports (a `.js` specifier names the `.ts`/`.tsx` source) */
export function fileGraph(sources: Source[]): Graph {
  const known = new Set(sources.map(s => s.path))
  const resolve = (from: string, spec: string): string | undefined => {
    const base = normalize(join(dirname(from), spec)).replace(/\.js$/, '')
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(p => known.has(p))
  }
  const graph: Graph = new Map()
  for (const { path, file } of sources) {
    const specs: string[] = []
    specifiers(file, specs)
    const targets = specs
      .filter(s => s.startsWith('.'))
      .map(s => resolve(path, s))
      .filter(t => t !== undefined)
    graph.set(path, new Set(targets.filter(t => t !== path)))
  }
  return graph
}

/**
 * An area is a floor's folder with its sub-folders rolled in (engine/relay holds engine/relay/contract). A floor's
 * own root files (engine/app.ts, engine/config.ts, …) are its wiring, imported by and importing its areas by
 * design: `areaOf` gives them no area, so they are left out of the area graph.
 */
export const areaOf = (path: string): string | undefined => {
  const parts = path.split('/')
  return parts.length >= 3 ? parts.slice(0, 2).join('/') : undefined
}

/** the same graph between folders: `folderOf` names a file's folder, or leaves it out */
export function folderGraph(files: Graph, folderOf: (path: string) => string | undefined = dirname): Graph {
  const graph: Graph = new Map()
  for (const [from, targets] of files) {
    const a = folderOf(from)
    if (a === undefined) continue
    const edges = graph.get(a) ?? new Set<string>()
    for (const t of targets) {
      const b = folderOf(t)
      if (b !== undefined && b !== a) edges.add(b)
    }
    graph.set(a, edges)
  }
  return graph
}

/** Strongly connected components of more than one node (Tarjan): each is one circle or a knot of them. */
export function circles(graph: Graph): string[][] {
  let next = 0
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w)
      component.push(w)
      if (w === v) break
    }
    if (component.length > 1) found.push(component.sort())
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''))
}

/** pairs that import each other directly: the circles a reader meets first */
export function mutualPairs(graph: Graph): [string, string][] {
  const pairs: [string, string][] = []
  for (const [a, targets] of graph) for (const b of targets) if (a < b && graph.get(b)?.has(a)) pairs.push([a, b])
  return pairs.sort((x, y) => x[0].localeCompare(y[0]))
}
