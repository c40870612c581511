// `make bench`: every bench in turn, each in its own process so none inherits another's heap or threads.
import { parseCli } from '../engine/ops/cli.js'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from '../engine/paths.js'

const benches = [
  'http',
  'sig',
  'contract',
  'route',
  'follow',
  'relay',
  'commit',
  'commitFloor',
  'rest',
  'polls',
  'league',
  'options',
  'cluster',
  'scrape',
  'archive',
  'store',
]
const { positionals: only } = parseCli(
  'all.js',
  `Usage: node dist/bench/all.js [bench ...]   (or: make bench)\n\nRuns every bench (${benches.join(', ')}) in turn, each in its own process, or only those named.`,
  {},
  { positionals: true },
)
const unknown = only.filter(b => !benches.includes(b))
if (unknown.length) {
  console.error(
    `all.js: no bench named ${unknown.join(', ')}: the benches are ${benches.join(', ')} (see all.js --help)`,
  )
  process.exit(2)
}
let failed = 0
for (const name of benches.filter(b => !only.length || only.includes(b))) {
  console.log(`\n=== bench/${name}.ts ===`)
  const r = spawnSync(process.execPath, [join(repoRoot, 'dist/bench', `${name}.js`)], { stdio: 'inherit' })
  if (r.status !== 0) {
    failed++
    console.log(`bench/${name} exited ${r.status}`)
  }
}
process.exit(failed ? 1 : 0)
