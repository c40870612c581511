// Which file handles each route, read from the sources (docs/endpoints.md names it beside the route): the file
// that mounts the route (a call `.get('/path', ...)` or `.post('/path', ...)` on a surface's router), or, where
// the mount hands the request to a handler made in another file (`fooHandler(...)`, imported), that file. Read at
// `make docs` time from the checkout; the docs test holds the page equal to it, and fails when a documented route
// has no handler file, so a route mounted some other way is noticed.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { repoRoot } from '../paths.js'

export type Surface = 'api' | 'terminal' | 'relay'

const MOUNT = /(?:\b([\w.]+)\.|\b)(get|post)\(\s*'(\/[^'*]*)'\s*,/g

/** `${surface} ${METHOD} ${path}` (path in OpenAPI form, `{id}`) -> the repo path of its handler's file. */
export function handlerFiles(root = repoRoot): Map<string, string> {
  const found = new Map<string, string>()
  for (const file of sources(join(root, 'engine'))) {
    const text = readFileSync(file, 'utf8')
    const rel = relative(root, file)
    for (const m of text.matchAll(MOUNT)) {
      const [, receiver = '', method, path] = m
      const surface: Surface =
        receiver.includes('terminal') || rel.startsWith('engine/options/')
          ? 'terminal'
          : receiver.includes('relay') || rel.startsWith('engine/relay/')
            ? 'relay'
            : 'api'
      const made = /\b(\w+Handler)\s*\(/.exec(argumentsAt(text, m.index + m[0].length))?.[1]
      const from = made && importOf(text, made)
      const handler = from ? relative(root, resolve(dirname(file), from)).replace(/\.js$/, '.ts') : rel
      found.set(`${surface} ${method!.toUpperCase()} ${path!.replace(/:(\w+)/g, '{$1}')}`, handler)
    }
  }
  return found
}

/** The text of a call's remaining arguments: up to the parenthesis that closes it. */
function argumentsAt(text: string, from: number): string {
  let depth = 1
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return text.slice(from, i)
  }
  return text.slice(from)
}

/** The relative module a name is imported from in this file's text, if any. */
function importOf(text: string, name: string): string | undefined {
  for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(\.[^']+)'/g)) {
    if (
      m[1]!
        .split(',')
        .map(s => s.trim().replace(/^type\s+/, ''))
        .includes(name)
    )
      return m[2]
  }
  return undefined
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : []
  })
}
