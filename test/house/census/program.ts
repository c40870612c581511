// The sources the census reads, parsed by the house's own compiler (TypeScript 7's API, which runs the tsgo
// binary beside it): the root project and the web console's, minus anything under node_modules.
import { API } from 'typescript/unstable/sync'
import type { SourceFile } from 'typescript/unstable/ast'
import { relative } from 'node:path'

export interface Source {
  path: string
  file: SourceFile
}

/** production floors (what ships) against the rest (test/, bench/): counts are printed for both */
export const isProduction = (path: string) => /^(engine|actors|workers|sdk|web|examples)\//.test(path)

export function loadSources(root: string): Source[] {
  const api = new API({ cwd: root })
  try {
    const snapshot = api.updateSnapshot({ openProjects: [`${root}/tsconfig.json`, `${root}/web/tsconfig.json`] })
    const seen = new Map<string, Source>()
    for (const project of snapshot.getProjects()) {
      for (const name of project.program.getSourceFileNames()) {
        const path = relative(root, name)
        if (path.startsWith('..') || path.includes('node_modules/') || path.endsWith('.d.ts') || seen.has(path))
          continue
        const file = project.program.getSourceFile(name)
        if (file) seen.set(path, { path, file })
      }
    }
    return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path))
  } finally {
    api.close()
  }
}
