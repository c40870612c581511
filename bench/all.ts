// `make bench`: every bench in turn, each in its own process so none inherits another's heap or threads.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { repoRoot } from '../engine/paths.js'

const benches = ['http', 'sig', 'route', 'relay', 'rest', 'league', 'options']
const only = process.argv.slice(2)
let failed = 0
for (const name of benches.filter(b => !only.length || only.includes(b))) {
  console.log(`\n=== bench/${name}.ts ===`)
  const r = spawnSync(process.execPath, [join(repoRoot, 'dist/bench', `${name}.js`)], { stdio: 'inherit' })
  if (r.status !== 0) { failed++; console.log(`bench/${name} exited ${r.status}`) }
}
process.exit(failed ? 1 : 0)
