// The deployment kit (deploy/) held honest: every unit starts something this build has (a compiled entry point
// with its source, or the nats-server whose config in deploy/nats/ the real binary accepts), keeps its
// hardening, and reads only variables the engine's config schema knows, with examples that load into a valid
// configuration. A renamed entry point, a removed variable or a typo in a unit key fails here, not on a host.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { configSchema, loadConfig } from '../../engine/config.js'
import { DEBIAN_NATS_SERVER, NATS_MISSING, findNatsServer } from '../../engine/devcluster/natsServer.js'
import { devCredentials } from '../../engine/devcluster/devCredentials.js'
import { parsePeers } from '../../engine/cluster/nodeKeys.js'
import { environment, parseEnvFile, parseUnit, value, values, type Unit } from './systemdUnit.js'

const deploy = join(repoRoot, 'deploy')
const INSTALL = '/opt/rfq-engine/'
const unitFiles = readdirSync(join(deploy, 'systemd'))
  .filter(f => f.endsWith('.service'))
  .sort()
const units = new Map<string, Unit>(
  unitFiles.map(f => [f, parseUnit(readFileSync(join(deploy, 'systemd', f), 'utf8'))]),
)
const known = new Set(Object.keys(configSchema.shape))
/** the file an operator copies to each EnvironmentFile= path */
const EXAMPLES: Record<string, string> = {
  '/etc/rfq-engine/engine.env': 'engine.env.example',
  '/etc/rfq-engine/engine-%i.env': 'engine-instance.env.example',
}
const example = (name: string) => parseEnvFile(readFileSync(join(deploy, name), 'utf8'))
const engineUnits = unitFiles.filter(f => /^\/usr\/bin\/node /.test(value(units.get(f)!, 'Service', 'ExecStart') ?? ''))

test('the kit has the units the guide describes: an engine@ template, nats-server and the ingestion', () => {
  assert.deepEqual(unitFiles, ['engine@.service', 'ingest.service', 'nats-server.service'])
  assert.deepEqual(engineUnits, ['engine@.service', 'ingest.service'])
})

describe('every ExecStart names something this build has', () => {
  for (const file of engineUnits) {
    test(`${file}: a compiled entry point with its TypeScript source, which starts (--help)`, () => {
      const unit = units.get(file)!
      const exec = values(unit, 'Service', 'ExecStart')
      assert.equal(exec.length, 1)
      const [node, script, ...rest] = (exec[0] ?? '').split(/\s+/)
      assert.equal(node, '/usr/bin/node')
      assert.deepEqual(rest, [])
      assert.ok(script !== undefined, 'ExecStart names a script')
      assert.ok(script.startsWith(INSTALL), `${script} is under ${INSTALL}`)
      assert.equal(value(unit, 'Service', 'WorkingDirectory'), INSTALL.slice(0, -1))
      const built = script.slice(INSTALL.length)
      assert.match(built, /^dist\/.+\.js$/)
      assert.ok(existsSync(join(repoRoot, built)), `${built} is built`)
      assert.ok(
        existsSync(join(repoRoot, built.replace(/^dist\//, '').replace(/\.js$/, '.ts'))),
        `${built} has its source`,
      )
      const { NODE_TEST_CONTEXT: _, ...env } = process.env
      const help = spawnSync(process.execPath, [join(repoRoot, built), '--help'], {
        encoding: 'utf8',
        timeout: 20_000,
        env,
      })
      assert.equal(help.status, 0, help.stderr)
      assert.match(help.stdout, /^Usage: node dist\//)
    })
  }

  test('nats-server.service: the nats-server binary, with deploy/nats/nats-server.conf, which the real server accepts', () => {
    const unit = units.get('nats-server.service')!
    const bin = findNatsServer()
    assert.ok(bin, NATS_MISSING)
    for (const line of [...values(unit, 'Service', 'ExecStartPre'), ...values(unit, 'Service', 'ExecStart')]) {
      const m = /^(\S+) (?:-t )?-c (\S+)$/.exec(line)
      assert.ok(m?.[2], line)
      assert.equal(m[1], DEBIAN_NATS_SERVER)
      const conf = join(deploy, 'nats', basename(m[2]))
      assert.ok(existsSync(conf), `${m[2]} ships as deploy/nats/${basename(m[2])}`)
    }
    const shipped = readFileSync(join(deploy, 'nats/nats-server.conf'), 'utf8')
    const dir = mkdtempSync(join(tmpdir(), 'nats-conf-'))
    // nats-server -t reads the certificate files: throw-away ones where the guide installs yours
    devCredentials(dir, [])
    const conf = shipped.replace(/\/etc\/nats-server\/tls\/(server|server-key|ca)\.pem/g, (_, f: string) =>
      join(dir, 'tls', `${f.replace('server', 'nats-server')}.pem`),
    )
    try {
      // as shipped, and with each commented example block (authorization, a 3-server cluster) switched on
      const blocksOn = conf.replace(
        /^# ([a-z_]+ \{\n(?:#.*\n)*?)# \}$/gm,
        (_, body: string) => body.replace(/^# ?/gm, '') + '}',
      )
      assert.notEqual(blocksOn, conf, 'the example blocks are there')
      for (const [name, text] of [
        ['as-shipped.conf', conf],
        ['blocks-on.conf', blocksOn],
      ] as const) {
        writeFileSync(join(dir, name), text)
        const r: SpawnSyncReturns<string> = spawnSync(bin, ['-t', '-c', join(dir, name)], { encoding: 'utf8' })
        assert.equal(r.status, 0, `${name}: ${r.stdout}${r.stderr}`)
      }
      assert.match(blocksOn, /^authorization \{$/m)
      assert.match(blocksOn, /^cluster \{$/m)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    assert.match(conf, /^listen: (?!0\.0\.0\.0)[\d.]+:4222$/m, 'clients on a private interface, never every interface')
    assert.match(conf, /^http: 127\.0\.0\.1:8222$/m, 'monitoring for the exporter, on loopback')
    assert.doesNotMatch(conf, /^jetstream/m, 'core NATS only')
  })

  test("nats-server.conf: TLS only, and only the venue's nodes, each publishing under its own key: the keys engine.env lists", () => {
    const conf = readFileSync(join(deploy, 'nats/nats-server.conf'), 'utf8')
    assert.match(
      conf,
      /^tls \{\n {2}cert_file: "\/etc\/nats-server\/tls\/server\.pem"\n {2}key_file: "\/etc\/nats-server\/tls\/server-key\.pem"$/m,
    )
    assert.doesNotMatch(
      conf,
      /^\s*(token|password|allow_non_tls|no_auth_user)\b/m,
      'no shared secret, no way around TLS or the keys',
    )
    const users = [
      ...conf.matchAll(
        /^ {4}\{ nkey: (U[A-Z2-7]{55}), permissions: \{ publish: "rfq\.v3\.\*\.\*\.(U[A-Z2-7]{55})\.>", subscribe: "rfq\.v3\.>" \} \} {3}# (\S+)$/gm,
      ),
    ]
    assert.ok(users.length >= 2, 'a user line per node')
    for (const [, key, publishKey, id] of users) assert.equal(publishKey, key, `${id} publishes under its own key only`)
    assert.equal((conf.match(/\bnkey:/g) ?? []).length, users.length, 'every user is one of those lines')
    const peers = parsePeers(example('engine.env.example').set.CLUSTER_PEERS!)
    assert.deepEqual(
      users.map(([, key, , id]) => `${id}:${key}`),
      [...peers.values()].map(p => `${p.id}:${p.publicKey}`),
      'the same nodes as CLUSTER_PEERS',
    )
  })
})

describe('hardening', () => {
  for (const file of unitFiles) {
    test(`${file}: a dedicated user, no new privileges, a read-only system`, () => {
      const unit = units.get(file)!
      const user = value(unit, 'Service', 'User')
      assert.ok(user && !['root', '0'].includes(user), `User=${user}`)
      assert.equal(value(unit, 'Service', 'NoNewPrivileges'), 'yes')
      assert.equal(value(unit, 'Service', 'ProtectSystem'), 'strict')
      assert.equal(value(unit, 'Service', 'ProtectHome'), 'yes')
      assert.equal(value(unit, 'Service', 'PrivateTmp'), 'yes')
      assert.equal(value(unit, 'Service', 'CapabilityBoundingSet'), '')
      assert.equal(value(unit, 'Service', 'Restart'), 'on-failure')
      assert.equal(value(unit, 'Install', 'WantedBy'), 'multi-user.target')
    })
  }

  for (const file of engineUnits) {
    test(`${file}: it can write its DATA_DIR, and only there; V8 may still compile (no MemoryDenyWriteExecute)`, () => {
      const unit = units.get(file)!
      const dataDir = Object.fromEntries(environment(unit)).DATA_DIR
      assert.ok(dataDir, 'DATA_DIR is set by the unit')
      assert.deepEqual(values(unit, 'Service', 'ReadWritePaths'), [dataDir])
      assert.equal(
        `/var/lib/${value(unit, 'Service', 'StateDirectory')}`,
        dataDir,
        'systemd creates it, owned by the user',
      )
      assert.equal(value(unit, 'Service', 'MemoryDenyWriteExecute'), undefined)
    })
  }

  test('engine@.service: a data directory per instance, room for many sockets, and a stop that outlasts the drain', () => {
    const unit = units.get('engine@.service')!
    assert.match(
      Object.fromEntries(environment(unit)).DATA_DIR ?? '',
      /%i$/,
      'each node takes the engine lock of its own directory',
    )
    assert.ok(Number(value(unit, 'Service', 'LimitNOFILE')) >= 65536)
    assert.equal(value(unit, 'Service', 'KillSignal'), 'SIGTERM')
    assert.equal(value(unit, 'Service', 'RestartPreventExitStatus'), '2', 'a bad variable is not retried')
    const { SHUTDOWN_TIMEOUT_MS } = loadConfig(example('engine.env.example').set)
    // main.ts exits 1 by itself SHUTDOWN_TIMEOUT_MS + 5 s after SIGTERM; systemd must not SIGKILL before that
    assert.ok(Number(value(unit, 'Service', 'TimeoutStopSec')) * 1000 > SHUTDOWN_TIMEOUT_MS + 5000)
  })

  test('systemd itself finds nothing to complain about in any unit (systemd-analyze verify)', t => {
    const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find(existsSync)
    if (!analyze) return t.diagnostic('systemd-analyze is not on this machine: only the checks above ran')
    for (const file of unitFiles) {
      const path = join(deploy, 'systemd', file)
      const r: SpawnSyncReturns<string> = spawnSync(analyze, ['verify', path], { encoding: 'utf8', cwd: tmpdir() })
      const complaints: string[] = `${r.stdout}${r.stderr}`.split('\n').filter(l => l.includes(path))
      assert.deepEqual(complaints, [], file)
    }
  })
})

describe('every variable exists in the config schema, and the examples load', () => {
  for (const file of unitFiles) {
    test(`${file}: Environment= names only configuration variables; each required EnvironmentFile= has its example`, () => {
      const unit = units.get(file)!
      for (const [key] of environment(unit)) assert.ok(known.has(key), `${key} is not in engine/config.ts`)
      for (const path of values(unit, 'Service', 'EnvironmentFile')) {
        if (path.startsWith('-')) continue // optional
        assert.ok(EXAMPLES[path], `${path} has an example in deploy/`)
      }
    })
  }

  for (const name of Object.values(EXAMPLES)) {
    test(`deploy/${name}: every variable, set or commented, is in the schema; it loads into a valid configuration`, () => {
      const env = example(name)
      const keys = [...Object.keys(env.set), ...Object.keys(env.commented)]
      assert.ok(keys.length > 0)
      for (const key of keys) assert.ok(known.has(key), `${key} is not in engine/config.ts`)
      assert.doesNotThrow(() => loadConfig(env.set))
      assert.doesNotThrow(() => loadConfig({ ...env.set, ...env.commented }), 'the commented values are valid too')
    })
  }

  test('engine.env.example: what a cluster node needs, and nothing that must differ per node', () => {
    const env = example('engine.env.example').set
    for (const key of [
      'DATABASE_URL',
      'NATS_URL',
      'CLUSTER_PEERS',
      'NATS_TLS_CA_FILE',
      'API_KEY',
      'SPOT_RFQ_ADDRESS',
      'RPC_URL',
      'CHAIN_ID',
    ])
      assert.ok(env[key], `${key} is set`)
    assert.match(env.NATS_URL!, /^tls:\/\//, 'TLS to nats-server')
    assert.equal(env.LOG_FORMAT, 'json')
    assert.equal(env.TRUST_PROXY, 'true', 'it sits behind the TLS proxy')
    assert.equal(env.RELAY_CANCEL_AUTH, 'signature')
    // EnvironmentFile= overrides Environment=: set here, these would be one value for every node (or start an ingestion in each)
    for (const key of ['DATA_DIR', 'NODE_ID', 'INGEST_SOURCE', 'CLUSTER_NODE_KEY_FILE'])
      assert.ok(!(key in env), `${key} must not be in engine.env`)
  })

  test("engine@2 beside engine@1 on one host: systemd's merge gives each its own id, directory and ports", () => {
    const unit = units.get('engine@.service')!
    const shared = example('engine.env.example').set
    const node = (instance: string, files: Record<string, string>[]) => {
      const defaults = Object.fromEntries(
        environment(unit).map(([k, v]) => [k, v.replace(/%i/g, instance).replace(/%H/g, 'eng-a')]),
      )
      return loadConfig({ ...defaults, ...Object.assign({}, ...files) }) // files win over Environment=, the later file last
    }
    const one = node('1', [shared])
    const two = node('2', [shared, example('engine-instance.env.example').set])
    assert.equal(one.NODE_ID, 'eng-a-1')
    assert.equal(two.NODE_ID, 'eng-a-2')
    // each instance's own key, handed over by systemd (LoadCredential=) from a file only root reads
    assert.deepEqual(values(unit, 'Service', 'LoadCredential'), ['node.nk:/etc/rfq-engine/node-%i.nk'])
    assert.equal(one.CLUSTER_NODE_KEY_FILE, '%d/node.nk')
    const listed = [...parsePeers(shared.CLUSTER_PEERS!).values()].map(p => p.id)
    assert.ok(
      listed.includes(one.NODE_ID) && listed.includes(two.NODE_ID),
      `CLUSTER_PEERS names both: ${listed.join(' ')}`,
    )
    assert.notEqual(one.DATA_DIR, two.DATA_DIR)
    const ports = [one.API_PORT, one.TERMINAL_PORT, one.RELAY_PORT, two.API_PORT, two.TERMINAL_PORT, two.RELAY_PORT]
    assert.equal(new Set(ports).size, 6, ports.join(' '))
    assert.equal(one.DATABASE_URL, two.DATABASE_URL)
    assert.equal(one.NATS_URL, two.NATS_URL)
  })

  test('ingest.service runs the ingestion though engine.env leaves it off for the nodes', () => {
    const unit = units.get('ingest.service')!
    const defaults = Object.fromEntries(environment(unit))
    const config = loadConfig({ ...defaults, ...example('engine.env.example').set })
    assert.notEqual(config.INGEST_SOURCE, 'off')
    assert.equal(loadConfig(example('engine.env.example').set).INGEST_SOURCE, 'off')
  })
})

test('the guide names every file of the kit, and the README and docs/operations.md link to it', () => {
  const guide = readFileSync(join(deploy, 'README.md'), 'utf8')
  const files = [
    ...unitFiles.map(f => `systemd/${f}`),
    'nats/nats-server.conf',
    'nginx/rfq-engine.conf',
    ...Object.values(EXAMPLES),
  ]
  for (const f of files) assert.ok(guide.includes(f), `deploy/README.md mentions ${f}`)
  assert.match(readFileSync(join(repoRoot, 'README.md'), 'utf8'), /\]\(deploy\/README\.md\)/)
  assert.match(readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8'), /\]\(\.\.\/deploy\/README\.md\)/)
})
