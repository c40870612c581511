// The console's first-load size as the docs state it, from the build's own figures (dist/web/manifest.json,
// written by build.ts): the row of docs/console.md's size table and the README's line. `make docs` rewrites
// both; test/browser/serving.test.ts fails when either differs from what the build measured.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../paths.js'
import { parseCli } from '../ops/cli.js'
import type { ConsoleManifest } from './build.js'

const bytes = (n: number) => `${n.toLocaleString('en-US')} B (${kB(n)})`
/** as build.ts prints it */
export const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`

/** docs/console.md's row: `| first load | raw | gzip | brotli |` */
export function sizeRow(m: ConsoleManifest): string {
  return `| first load | ${bytes(m.firstLoad.raw)} | ${bytes(m.firstLoad.gzip)} | ${bytes(m.firstLoad.brotli)} |`
}

/** the README's line in its list of measured figures */
export function readmeLine(m: ConsoleManifest): string {
  return `- The console's first load: ${kB(m.firstLoad.gzip)} gzip, as \`make build\` prints it.`
}

const TARGETS = [
  { file: 'docs/console.md', starts: '| first load |', line: sizeRow },
  { file: 'README.md', starts: "- The console's first load:", line: readmeLine },
] as const

/** each file whose size line differs from the build's, with the line it should have */
export interface StaleLine {
  file: string
  has: string | undefined
  wants: string
}

export function staleSizeDocs(m: ConsoleManifest, root = repoRoot): StaleLine[] {
  return TARGETS.flatMap(t => {
    const has = readFileSync(join(root, t.file), 'utf8')
      .split('\n')
      .find(l => l.startsWith(t.starts))
    const wants = t.line(m)
    return has === wants ? [] : [{ file: t.file, has, wants }]
  })
}

export function writeSizeDocs(m: ConsoleManifest, root = repoRoot): string[] {
  return staleSizeDocs(m, root).map(s => {
    const path = join(root, s.file)
    const text = readFileSync(path, 'utf8')
    const starts = TARGETS.find(t => t.file === s.file)!.starts
    if (s.has === undefined) throw new Error(`${s.file} has no line starting ${JSON.stringify(starts)}`)
    writeFileSync(path, text.replace(s.has, s.wants))
    return s.file
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  parseCli(
    'sizeDocs.js',
    `Usage: node dist/engine/console/sizeDocs.js   (make docs runs it)

Writes the console's first-load size from dist/web/manifest.json (written by \`make build\`) into
docs/console.md's size table and the README's line of measured figures.`,
    {},
  )
  const m = JSON.parse(readFileSync(join(repoRoot, 'dist/web/manifest.json'), 'utf8')) as ConsoleManifest
  const changed = writeSizeDocs(m)
  console.log(changed.length ? `console size: rewrote ${changed.join(', ')}` : 'console size: the docs already say it')
}
