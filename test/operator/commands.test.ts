// Every command explains itself: --help on every entry point (a real process: exit 0, a usage text,
// nothing started), an unknown option is one line and exit 2, `make help` lists every target, the
// sandbox CLI says what to do when no sandbox runs, a second sandbox is refused with one line, and the
// lock file matches package.json (so `npm ci` installs a fresh clone without rewriting it).
import { test, describe } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { acquireInstanceLock } from '../../engine/ops/instanceLock.js'
import { byJson } from '../helpers/order.js'

/** Every entry point: a source under engine/, bench/ or examples/ that reads its arguments or runs as a main. */
function entryPoints(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap(d =>
      d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
    )
  return ['engine', 'bench', 'examples']
    .flatMap(walk)
    .filter(f => f !== join('engine', 'ops', 'cli.ts'))
    .filter(f => /\bparseCli\(|import\.meta\.url === |^main\(\)/m.test(readFileSync(join(repoRoot, f), 'utf8')))
    .map(f => f.replace(/\.ts$/, '.js'))
    .sort()
}
const ENTRY_POINTS = entryPoints()
/** what an entry point writes when it runs: --help must leave every one untouched */
const WRITTEN = [
  'docs/endpoints.md',
  'docs/console.md',
  'README.md',
  'dist/web/manifest.json',
  ...readdirSync(join(repoRoot, 'contracts/artifacts')).map(f => `contracts/artifacts/${f}`),
]
const mtimes = () => WRITTEN.map(f => (existsSync(join(repoRoot, f)) ? statSync(join(repoRoot, f)).mtimeMs : 0))

function run(file: string, args: string[], env: Record<string, string> = {}) {
  const { NODE_TEST_CONTEXT: _, ...base } = process.env
  return spawnSync(process.execPath, [join(repoRoot, 'dist', file), ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...base, ...env },
  })
}

function runAsync(file: string, args: string[]): Promise<{ status: number; stderr: string }> {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  return new Promise(resolve => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist', file), ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', d => {
      stderr += d
    })
    child.on('exit', code => resolve({ status: code ?? 1, stderr }))
  })
}

describe('commands explain themselves', () => {
  test('the entry points found include every kind (engine, ingestion, sandbox, tools, benches, the example bot)', () => {
    for (const f of [
      'engine/main.js',
      'engine/ingest/main.js',
      'engine/sandbox/cli.js',
      'engine/openapi/endpointsMarkdown.js',
      'engine/console/build.js',
      'engine/devchain/buildContracts.js',
      'engine/devcluster/devPostgres.js',
      'bench/all.js',
      'bench/loadtest.js',
      'examples/maker-bot.js',
    ])
      assert.ok(ENTRY_POINTS.includes(f), f)
  })
  for (const file of ENTRY_POINTS) {
    test(`${file} --help: exit 0 with its usage, starting and writing nothing; an unknown option: one line, exit 2`, () => {
      const t0 = Date.now()
      const before = mtimes()
      const h = run(file, ['--help'])
      assert.deepEqual(mtimes(), before, 'nothing written')
      assert.equal(h.status, 0, h.stderr)
      assert.match(h.stdout, /^Usage: /)
      assert.ok(h.stdout.split('\n').length >= 3, 'more than a bare usage line')
      assert.ok(Date.now() - t0 < 10_000, 'nothing was started')
      const bad = run(file, ['--no-such-option'])
      assert.equal(bad.status, 2, `${bad.stdout}${bad.stderr}`)
      assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr)
      assert.match(bad.stderr, /Unknown option '--no-such-option' \(see .+ --help\)/)
    })
  }

  test('a bad argument is named as such: the maker bot\'s key and relay (not "cannot reach the relay"), an unknown bench (exit 2, not 0)', () => {
    const cases: [string, string[], Record<string, string>, string][] = [
      [
        'examples/maker-bot.js',
        ['--key', '0x12'],
        {},
        'maker-bot: --key is not a private key: 0x and 64 hex digits (see --help)',
      ],
      [
        'examples/maker-bot.js',
        [],
        { MAKER_PRIVATE_KEY: `0x${'0'.repeat(64)}` },
        'maker-bot: MAKER_PRIVATE_KEY is not a valid secp256k1 private key (zero, or not below the curve order)',
      ],
      [
        'examples/maker-bot.js',
        ['--key', `0x${'ab'.repeat(32)}`, '--relay', 'http://127.0.0.1:8080'],
        {},
        'maker-bot: --relay must be ws:// or wss:// URLs, not "http://127.0.0.1:8080"',
      ],
      [
        'examples/maker-bot.js',
        ['--key', `0x${'ab'.repeat(32)}`, '--reconnect-initial-ms', 'soon'],
        {},
        'maker-bot: --reconnect-initial-ms must be a whole number, not "soon"',
      ],
      [
        'bench/all.js',
        ['http', 'nosuch'],
        {},
        'all.js: no bench named nosuch: the benches are http, sig, contract, route, follow, relay, commit, commitFloor, rest, polls, league, options, cluster, scrape, archive, store (see all.js --help)',
      ],
    ]
    for (const [file, args, env, line] of cases) {
      const r = run(file, args, env)
      assert.deepEqual([r.status, r.stderr.trim()], [2, line], `${file} ${args.join(' ')}`)
      assert.equal(r.stdout, '', 'nothing started')
    }
  })

  test('make help lists every target with one line each', () => {
    const r = spawnSync('make', ['-s', 'help'], { cwd: repoRoot, encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    const listed = r.stdout
      .trimEnd()
      .split('\n')
      .map(l => /^ {2}make (\S+)\s+\S/.exec(l)?.[1])
    const makefile = readFileSync(join(repoRoot, 'Makefile'), 'utf8')
    const targets = [...makefile.matchAll(/^([a-z-]+):/gm)].map(m => m[1]).filter(t => t !== 'all')
    assert.deepEqual(listed.sort(byJson), targets.sort(byJson))
  })

  for (const bench of ['cluster', 'commit', 'commitFloor'])
    test(`the ${bench} bench with an unreachable database: one line naming the cause and what to do, exit 1, no stack`, () => {
      const r = run(`bench/${bench}.js`, [], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' })
      assert.equal(r.status, 1, r.stdout + r.stderr)
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
      assert.match(
        r.stderr,
        new RegExp(
          `^${bench}\\.js: .*ECONNREFUSED 127\\.0\\.0\\.1:1 \\(the bench needs PostgreSQL: unset DATABASE_URL`,
        ),
      )
    })

  test('the sandbox CLI with no sandbox running: one line saying how to start one, exit 1, no stack', async () => {
    const r = run('engine/sandbox/cli.js', ['register'])
    assert.equal(r.status, 1)
    assert.equal(r.stderr.trim(), 'error NO_SANDBOX: no sandbox running; start one with `make sandbox`')
  })

  test('a second sandbox on the same directory exits non-zero within seconds with one line naming the first', async () => {
    // a directory of its own, not the checkout's .data/sandbox: a `make sandbox` of this checkout may be running
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-'))
    const held = await acquireInstanceLock('sandbox', dir) // stands for the running sandbox
    held.setPorts({ api: 3000, relay: 8080 })
    try {
      const t0 = Date.now()
      // spawned asynchronously: this process holds the lock and must be free to answer the newcomer's question
      const r = await runAsync('engine/sandbox/main.js', ['--dir', dir])
      assert.equal(r.status, 1)
      assert.ok(Date.now() - t0 < 10_000)
      assert.equal(
        r.stderr.trim(),
        `sandbox already running (pid ${process.pid}, ports api 3000, relay 8080, data dir ${realpathSync(dir)})`,
      )
    } finally {
      await held.release()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('each lock file is in sync with its package.json (npm ci installs it as is; a fresh build rewrites nothing)', () => {
    // the engine's, and the linter's own (lint/: typescript-eslint on the TypeScript API it loads)
    for (const dir of ['.', 'lint']) inSync(dir)
    const makefile = readFileSync(join(repoRoot, 'Makefile'), 'utf8')
    assert.match(makefile, /^\tnpm ci /m)
    assert.match(makefile, /^\tnpm ci --prefix lint /m)
  })
})

// npm ci refuses a lock file that disagrees with its package.json: caught here, not on a fresh clone
function inSync(dir: string): void {
  const pkg = JSON.parse(readFileSync(join(repoRoot, dir, 'package.json'), 'utf8'))
  const lock = JSON.parse(readFileSync(join(repoRoot, dir, 'package-lock.json'), 'utf8'))
  const root = lock.packages['']
  assert.equal(lock.name, pkg.name)
  assert.equal(root.version, pkg.version)
  assert.deepEqual(root.dependencies ?? {}, pkg.dependencies ?? {})
  assert.deepEqual(root.devDependencies ?? {}, pkg.devDependencies ?? {})
  for (const name of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]) {
    assert.ok(lock.packages[`node_modules/${name}`], `${dir}: ${name} is locked`)
  }
}

test('make run ends its start with a banner: every surface, OpenAPI, metrics, where the data lives, the next step', async () => {
  const { spawnEngine } = await import('../faults/process.js')
  const { testDatabase } = await import('../helpers/db.js')
  const { mkdtempSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const { VERSION } = await import('../../engine/version.js')
  const db = await testDatabase('n')
  const dir = mkdtempSync(join(tmpdir(), 'engine-'))
  const e = await spawnEngine({ DATA_DIR: dir, DATABASE_URL: db.url })
  try {
    await new Promise(r => setTimeout(r, 100))
    const out = e.stdout()
    for (const line of [
      `RFQ engine ${VERSION} is up.`,
      `${e.api}/api/v1/openapi.json`,
      `${e.api}/metrics`,
      `ws://127.0.0.1:${e.ports.relay}`,
      `http://127.0.0.1:${e.ports.terminal}`,
      'PostgreSQL at DATABASE_URL',
      'Next: ',
      'make sandbox',
    ])
      assert.ok(out.includes(line), `banner lacks ${line}:\n${out}`)
    assert.equal((await fetch(`${e.api}/api/v1/openapi.json`)).status, 200) // the banner's URLs answer
    assert.equal(await e.term(), 0)
  } finally {
    e.child.kill('SIGKILL')
    rmSync(dir, { recursive: true, force: true })
    await db.drop()
  }
})

test('cli.js register --api registers an agent on any engine (no sandbox): the key it prints authenticates there', async () => {
  const { startTestEngine } = await import('../helpers/engine.js')
  const { generatePrivateKey, privateKeyToAccount } = await import('viem/accounts')
  const t = await startTestEngine()
  try {
    const owner = generatePrivateKey(),
      wallet = privateKeyToAccount(generatePrivateKey()).address
    const child = spawn(
      process.execPath,
      [
        join(repoRoot, 'dist/engine/sandbox/cli.js'),
        'register',
        '--api',
        t.api,
        '--agent-wallet',
        wallet,
        '--roles',
        'maker,monitor',
      ],
      { env: { ...process.env, NODE_TEST_CONTEXT: '', OWNER_KEY: owner }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = '',
      err = ''
    child.stdout.on('data', d => {
      out += d
    })
    child.stderr.on('data', d => {
      err += d
    })
    assert.equal(await new Promise(r => child.on('exit', r)), 0, err)
    assert.match(out, /^rfq_live_[A-Za-z0-9_-]+\n$/, 'the key alone on its line (stdout), for KEY=$(cli.js register)')
    assert.match(err, /\n$/)
    const key = out.trim()
    const me = await fetch(`${t.api}/api/v1/agent/auth`, { headers: { authorization: `Bearer ${key}` } })
    assert.equal(me.status, 200)
    const body = (await me.json()) as { agentWallet: string; roles: string[] }
    assert.deepEqual([body.agentWallet, [...body.roles].sort()], [wallet.toLowerCase(), ['maker', 'monitor']])
    assert.match(err, /registered .*keep the key/)
    const missing = run('engine/sandbox/cli.js', ['register', '--api', t.api])
    assert.deepEqual(
      [missing.status, missing.stderr.trim()],
      [2, 'error USAGE: register --api needs --owner-key (or OWNER_KEY) and --agent-wallet; see cli.js --help'],
    )
  } finally {
    await t.stop()
  }
})

test('LOG_FORMAT: json writes one JSON object per line; pretty writes lines a person reads; a bad value is exit 2', async () => {
  const { spawnEngine, refusedStart } = await import('../faults/process.js')
  const { testDatabase } = await import('../helpers/db.js')
  const db = await testDatabase('logf')
  try {
    for (const format of ['json', 'pretty']) {
      const e = await spawnEngine({ DATABASE_URL: db.url, LOG_LEVEL: 'info', LOG_FORMAT: format })
      assert.equal(await e.term(), 0)
      const logLines = e
        .stdout()
        .split('\n')
        .filter(l => /listening|shutting down/i.test(l))
      assert.ok(logLines.length >= 2, e.stdout())
      for (const line of logLines) {
        if (format === 'json') assert.equal(typeof JSON.parse(line).msg, 'string')
        else {
          assert.doesNotMatch(line, /^\{/)
          assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(rfq-engine\): /)
        }
      }
    }
    const bad = await refusedStart({ DATABASE_URL: db.url, LOG_FORMAT: 'xml' })
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /LOG_FORMAT/)
  } finally {
    await db.drop()
  }
})
