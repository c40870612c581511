// `make test`: one PostgreSQL for the whole run (DATABASE_URL's server, or an embedded one under
// .data/test), every compiled *.test.js under dist/test through node's test runner. Each suite
// makes its own database on that server (test/helpers/db.ts), so suites never see each other.
import { spawn } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { startEmbeddedPostgres } from '../engine/store/embedded.js'
import { repoRoot } from '../engine/paths.js'

const distTest = join(repoRoot, 'dist/test')
const filters = process.argv.slice(2)

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return findTests(p)
    return name.endsWith('.test.js') ? [p] : []
  }).sort()
}

async function main(): Promise<number> {
  const files = findTests(distTest).filter(f => !filters.length || filters.some(x => relative(repoRoot, f).includes(x)))
  if (!files.length) { console.error('no test files found under dist/test'); return 1 }
  let adminUrl = process.env.DATABASE_URL
  let stop: (() => Promise<void>) | undefined
  if (!adminUrl) {
    const pg = await startEmbeddedPostgres({ dataDir: join(repoRoot, '.data/test'), fast: true })
    adminUrl = pg.adminUrl
    stop = () => pg.stop()
  }
  const concurrency = process.env.TEST_CONCURRENCY ?? '2'
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...files], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_ADMIN_URL: adminUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  })
  const code = await new Promise<number>(resolve => child.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))))
  await stop?.()
  return code
}

main().then(code => process.exit(code), err => { console.error(err); process.exit(1) })
