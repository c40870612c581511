// `make test`: one PostgreSQL for the whole run (DATABASE_URL's server, or an embedded one of its own under
// .data/test-run-<pid>), every compiled *.test.js under dist/test through node's test runner. Each suite
// makes its own database on that server (test/helpers/db.ts), so suites never see each other.
import { spawn } from 'node:child_process'
import { readdirSync, statSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'
import { startEmbeddedPostgres, stopStale } from '../engine/store/embedded.js'
import { repoRoot } from '../engine/paths.js'

const distTest = join(repoRoot, 'dist/test')
const filters = process.argv.slice(2)

function findTests(dir: string): string[] {
  return readdirSync(dir)
    .flatMap(name => {
      const p = join(dir, name)
      if (statSync(p).isDirectory()) return findTests(p)
      return name.endsWith('.test.js') ? [p] : []
    })
    .sort()
}

/** Data folders of runs that were killed: stop their postmaster if it is still up (only if it really is theirs), then delete them. */
async function removeDeadRuns(): Promise<void> {
  const root = join(repoRoot, '.data')
  if (!existsSync(root)) return
  for (const name of readdirSync(root)) {
    const m = /^test-run-(\d+)$/.exec(name)
    if (!m || alive(Number(m[1]))) continue
    const dir = join(root, name)
    const located = join(dir, 'pg-location')
    const cluster = existsSync(located) ? readFileSync(located, 'utf8').trim() : join(dir, 'pg')
    await stopStale(cluster)
    if (cluster !== join(dir, 'pg')) rmSync(cluster, { recursive: true, force: true })
    rmSync(dir, { recursive: true, force: true })
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function main(): Promise<number> {
  const files = findTests(distTest).filter(f => !filters.length || filters.some(x => relative(repoRoot, f).includes(x)))
  if (!files.length) {
    console.error('no test files found under dist/test')
    return 1
  }
  let adminUrl = process.env.DATABASE_URL
  let stop: (() => Promise<void>) | undefined
  if (!adminUrl) {
    // One server per run, so runs started side by side (developers, helpers) never stop each other's.
    await removeDeadRuns()
    const dataDir = join(repoRoot, '.data', `test-run-${process.pid}`)
    const pg = await startEmbeddedPostgres({ dataDir, fast: true })
    adminUrl = pg.adminUrl
    stop = async () => {
      await pg.stop()
      rmSync(dataDir, { recursive: true, force: true })
      if (pg.clusterDir !== join(dataDir, 'pg')) rmSync(pg.clusterDir, { recursive: true, force: true }) // placed outside a private checkout
    }
  }
  const concurrency = process.env.TEST_CONCURRENCY ?? '2'
  // People read node:test's `spec` reporter (each failure in full, the counts at the end); a TAP copy goes
  // to a file, from which the last line is the plain "tests: N passed, N failed" any CI can read.
  const tap = join(repoRoot, '.data', `test-run-${process.pid}.tap`)
  const reporter = process.env.TEST_REPORTER ?? 'spec'
  const child = spawn(
    process.execPath,
    [
      '--test',
      `--test-concurrency=${concurrency}`,
      `--test-reporter=${reporter}`,
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, TEST_DATABASE_ADMIN_URL: adminUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    },
  )
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.on(sig, () => {
      child.kill(sig)
    })
  const code = await new Promise<number>(resolve => child.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))))
  await stop?.()
  if (existsSync(tap)) {
    const text = readFileSync(tap, 'utf8')
    const count = (k: string) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN)
    rmSync(tap, { force: true })
    console.log(`\ntests: ${count('pass')} passed, ${count('fail')} failed`)
  }
  return code
}

main().then(
  code => process.exit(code),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  },
)
