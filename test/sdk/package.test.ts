// The maker SDK as a maker gets it: `npm pack` in sdk/, the tarball installed in a scratch project outside the
// repository, its types compiled against by a TypeScript consumer, and the README's 20-line maker run from it
// against a real engine until its quote is broadcast. The install is offline: the scratch project's lock pins
// the SDK's dependencies to the versions of the repository's lock, whose tarballs (and, with npm 11, their
// metadata) are in the npm cache that `npm ci` filled, so no registry is needed (on CI neither).
import { test, describe, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { repoRoot } from '../../engine/paths.js'
import { startTestEngine } from '../helpers/engine.js'
import { Client, createRfq, waitFor } from '../relay/helpers.js'
import { scratchLock } from './scratch.js'

const sdkDir = join(repoRoot, 'sdk')
const { NODE_TEST_CONTEXT: _, ...env } = process.env

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 180_000 })
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message} (is npm on PATH?)`)
  assert.equal(
    r.status,
    0,
    `${cmd} ${args.join(' ')} in ${cwd} exited ${r.status}:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`,
  )
  return r.stdout
}

test("the SDK's version is the engine's: package.json and the newest CHANGELOG entry", () => {
  const sdk = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8'))
  const engine = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'))
  const newest = /^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/m.exec(
    readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8'),
  )?.[1]
  assert.deepEqual([sdk.version, newest], [engine.version, engine.version])
  assert.deepEqual(Object.keys(sdk.exports['.']), ['types', 'import'])
  // every dependency the SDK imports is declared, at the range the engine itself is tested with
  for (const [name, range] of Object.entries(sdk.dependencies)) assert.equal(range, engine.dependencies[name], name)
})

test('the SDK imports nothing of the repository but the files its package compiles in (sdk/tsconfig.json)', () => {
  const tsconfig = JSON.parse(readFileSync(join(sdkDir, 'tsconfig.json'), 'utf8')) as { include: string[] }
  const compiledIn = new Set(tsconfig.include.filter(p => p.startsWith('../')).map(p => join(sdkDir, p)))
  const outside: string[] = []
  for (const name of readdirSync(sdkDir).filter(n => n.endsWith('.ts') && !n.endsWith('.d.ts'))) {
    const text = readFileSync(join(sdkDir, name), 'utf8')
    for (const [, spec] of text.matchAll(/from\s+'(\.[^']+)'/g)) {
      const target = join(sdkDir, spec!.replace(/\.js$/, '.ts'))
      if (!target.startsWith(sdkDir + '/') && !compiledIn.has(target)) outside.push(`sdk/${name} -> ${spec}`)
    }
  }
  assert.deepEqual(outside, [])
  for (const file of compiledIn) {
    const text = readFileSync(file, 'utf8')
    assert.doesNotMatch(text, /^\s*import\s/m, `${file} is compiled into the SDK alone: it imports nothing`)
  }
})

describe('npm pack, installed offline in a scratch project, runs the README maker against a real engine', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'sdk-consumer-'))
  let maker: ChildProcess | undefined
  after(() => {
    maker?.kill('SIGKILL')
    rmSync(scratch, { recursive: true, force: true })
  })

  test('install, compile against its types, and quote until the quote is broadcast', { timeout: 300_000 }, async () => {
    assert.ok(!scratch.startsWith(repoRoot), 'the scratch project is outside the repository')
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', scratch], sdkDir)) as {
      filename: string
      integrity: string
      files: { path: string }[]
    }[]
    // the entry and its types as package.json names them, the house's backoff compiled in beside them
    const manifest = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8'))
    const packedPaths = new Set(packed!.files.map(f => f.path))
    for (const path of [manifest.main, manifest.types, 'dist/workers/retry/backoff.js', 'README.md']) {
      assert.ok(packedPaths.has(path.replace(/^\.\//, '')), `${path} is packed`)
    }
    assert.ok(
      !packed!.files.some(f => f.path.endsWith('.ts') && !f.path.endsWith('.d.ts')),
      'no TypeScript sources in the package',
    )
    const { pkg, lock } = scratchLock(packed!.filename, packed!.integrity)
    writeFileSync(join(scratch, 'package.json'), JSON.stringify(pkg, null, 2))
    writeFileSync(join(scratch, 'package-lock.json'), JSON.stringify(lock, null, 2))
    run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], scratch)

    // a TypeScript consumer type-checks against the package's `types`
    writeFileSync(
      join(scratch, 'consumer.ts'),
      [
        `import { MakerClient, type ClientFault, type SubmitResult } from 'rfq-maker-sdk'`,
        `const m = new MakerClient({ url: 'ws://127.0.0.1:8080' })`,
        `m.on('fault', (f: ClientFault) => { if (f.kind === 'connection') console.log(f.url) })`,
        `m.on('rfq', b => { const r: Promise<SubmitResult> = m.quote(b.rfqId, m.quoteFor(b, { amountIn: 1n, amountOut: 2n })); void r })`,
        `// @ts-expect-error: the package's types refuse a wrong event`,
        `m.on('nope', () => {})`,
      ].join('\n'),
    )
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    )
    run(join(repoRoot, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], scratch)

    // the README's maker, verbatim
    const readme = readFileSync(join(sdkDir, 'README.md'), 'utf8')
    const code = /## A maker in 20 lines[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1]
    assert.ok(code, 'the README has the maker')
    assert.ok(code.trimEnd().split('\n').length <= 20, 'and it is at most 20 lines')
    writeFileSync(join(scratch, 'maker.mjs'), code)

    const t = await startTestEngine({
      RATE_LIMIT_PER_MIN: '100000',
      SPOT_RFQ_ADDRESS: '0x00000000000000000000000000000000000000aa',
    })
    try {
      let out = ''
      maker = spawn(process.execPath, ['maker.mjs'], {
        cwd: scratch,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...env,
          RELAY_URL: t.relayWs,
          MAKER_PRIVATE_KEY: `0x${randomBytes(32).toString('hex')}`,
          PRICE_NUM: '2500',
          PRICE_DEN: '1000000000000',
        },
      })
      maker.stdout!.on('data', d => {
        out += d
      })
      maker.stderr!.on('data', d => {
        out += d
      })
      await waitFor(
        () => out,
        o => o.includes('quoting under SpotRFQ on chain 31337') || maker!.exitCode !== null,
        20_000,
      )
      assert.equal(maker.exitCode, null, out)
      const watcher = await Client.open(t.relayWs)
      const rfq = await createRfq(t)
      const b = await watcher.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id, 20_000)
      assert.equal(b.data.quote.amountOut, String((10n ** 18n * 2500n * 9995n) / (10n ** 12n * 10_000n)))
      await waitFor(
        () => out,
        o => o.includes(`${rfq.id} quoted ${b.data.quote.amountOut}`),
        10_000,
      )
      await watcher.close()
    } finally {
      maker?.kill('SIGTERM')
      await t.stop()
    }
  })
})
