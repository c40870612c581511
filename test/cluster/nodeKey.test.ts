// Adding a node to a venue by hand, as deploy/README.md says: nodeKey.js writes the node's key (owner only) and
// prints its CLUSTER_PEERS entry and its nats-server user; the user line is one the real nats-server accepts, and
// a node started with those lines joins the venue. A key file already there is kept, never overwritten.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { findNatsServer, NATS_MISSING, startNatsServer } from '../../engine/devcluster/natsServer.js'
import { nodeKeyFromSeed } from '../../engine/cluster/nodeKeys.js'
import { spawnEngine } from '../faults/process.js'
import { testDatabase } from '../helpers/db.js'

const CLI = join(repoRoot, 'dist/engine/cluster/nodeKey.js')
const run = (...args: string[]) => {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, timeout: 20_000 })
}
const lines = (out: string) => ({
  peer: /^ {2}(\S+:U[A-Z2-7]{55})$/m.exec(out)?.[1] ?? '',
  user: /^ {2}(\{ nkey: .*)$/m.exec(out)?.[1] ?? '',
})

test(
  'nodeKey.js: a key for the owner only, the two lines that admit it, a kept file; nats-server accepts the user line and the node joins',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'node-key-'))
    const file = join(dir, 'eng-b-1.nk')
    const made = run('--node', 'eng-b-1', '--out', file)
    assert.equal(made.status, 0, made.stderr)
    assert.equal(statSync(file).mode & 0o777, 0o600)
    const key = nodeKeyFromSeed(readFileSync(file, 'utf8'))
    const { peer, user } = lines(made.stdout)
    assert.equal(peer, `eng-b-1:${key.publicKey}`)
    assert.equal(
      user,
      `{ nkey: ${key.publicKey}, permissions: { publish: "rfq.v3.*.*.${key.publicKey}.>", subscribe: "rfq.v3.>" } }   # eng-b-1`,
    )

    const again = run('--node', 'eng-b-1', '--out', file)
    assert.equal(again.status, 0, again.stderr)
    assert.match(again.stdout, /was already there: eng-b-1's key, kept\./)
    assert.equal(nodeKeyFromSeed(readFileSync(file, 'utf8')).publicKey, key.publicKey, 'never overwritten')
    assert.deepEqual(lines(again.stdout), { peer, user })

    const bin = findNatsServer()
    assert.ok(bin, NATS_MISSING)
    const conf = join(dir, 'nats.conf')
    writeFileSync(conf, `authorization {\n  users: [\n    ${user}\n  ]\n}\n`)
    const check = spawnSync(bin, ['-t', '-c', conf], { encoding: 'utf8' })
    assert.equal(check.status, 0, check.stdout + check.stderr)
    const nats = await startNatsServer({ args: ['-c', conf] })
    const db = await testDatabase('n')
    try {
      const node = await spawnEngine({
        DATABASE_URL: db.url,
        DATA_DIR: mkdtempSync(join(dir, 'data-')),
        NATS_URL: nats.url,
        NODE_ID: 'eng-b-1',
        CLUSTER_NODE_KEY_FILE: file,
        CLUSTER_PEERS: peer,
      })
      const health = (await (await fetch(`${node.relay}/health`)).json()) as {
        cluster: { nodeId: string; nats: string }
      }
      assert.deepEqual([health.cluster.nodeId, health.cluster.nats], ['eng-b-1', 'connected'])
      assert.equal(await node.term(), 0)
    } finally {
      await nats.stop()
      await db.drop()
    }
  },
)

test('nodeKey.js: --help; a missing option, a bad name or a file that holds no key is one line', () => {
  const help = run('--help')
  assert.equal(help.status, 0)
  assert.match(help.stdout, /^Usage: node dist\/engine\/cluster\/nodeKey\.js --node NODE_ID --out FILE/)
  const dir = mkdtempSync(join(tmpdir(), 'node-key-'))
  const junk = join(dir, 'junk')
  writeFileSync(junk, 'not a key')
  for (const [args, code, line] of [
    [['--out', join(dir, 'x.nk')], 2, /^nodeKey: --node is required/],
    [['--node', 'a b', '--out', join(dir, 'y.nk')], 2, /^nodeKey: --node "a b": 1-64/],
    [['--node', 'n1', '--out', junk], 1, /^nodeKey: .*junk is there and holds no node key/],
  ] as const) {
    const r = run(...args)
    assert.equal(r.status, code, r.stderr)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, line)
  }
})
