// Who may join the wire, at start: a node joins a nats-server run as a venue runs it (TLS, an nkey per node, no
// anonymous client) without a warning; a server that lets anyone in, or a link in clear, is a warning naming the
// risk; and every wrong credential, key, peer list or TLS file stops the start with one line naming the variable
// to fix (exit 2 for what the node's own files say, exit 1 for what the server refused).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser } from '@nats-io/nkeys'
import { startNatsServer, type NatsServer } from '../../engine/devcluster/natsServer.js'
import { devCredentials } from '../../engine/devcluster/devCredentials.js'
import { spawnEngine, refusedStart } from '../faults/process.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { waitFor } from '../relay/helpers.js'
import { startSecureNats, type SecureNats } from './secureNats.js'

let secure: SecureNats, mutual: SecureNats, open: NatsServer
let db: TestDatabase
const dir = mkdtempSync(join(tmpdir(), 'access-'))
before(async () => {
  secure = await startSecureNats(['a1', 'a2'])
  mutual = await startSecureNats(['m1', 'm2'], { clientCertificates: true })
  open = await startNatsServer()
  db = await testDatabase('n')
})
after(async () => {
  await secure.close()
  await mutual.close()
  await open.stop()
  await db.drop()
})

const base = () => ({
  DATABASE_URL: db.url,
  DATA_DIR: mkdtempSync(join(dir, 'node-')),
  LOG_LEVEL: 'warn',
  LOG_FORMAT: 'json',
})
/** the one line a refused start writes, checked to be one line */
async function refusal(env: Record<string, string>, code: number): Promise<string> {
  const r = await refusedStart({ ...base(), ...env })
  const lines = r.stderr.trim().split('\n')
  assert.equal(lines.length, 1, r.stderr)
  assert.equal(r.code, code, r.stderr)
  return lines[0]!
}

test('a node joins a nats-server with TLS and its nkey, and says nothing of anonymous clients or clear text', async () => {
  const node = await spawnEngine({ ...base(), ...secure.env('a1') })
  try {
    const health = (await (await fetch(`${node.relay}/health`)).json()) as { cluster: { nodeId: string; nats: string } }
    assert.deepEqual([health.cluster.nodeId, health.cluster.nats], ['a1', 'connected'])
    assert.doesNotMatch(node.stdout() + node.stderr(), /anonymous|not encrypted/)
  } finally {
    await node.term()
  }
})

test('a nats-server that lets anyone in, in clear: the node joins, and warns of both risks at start', async () => {
  const node = await spawnEngine({ ...base(), ...secure.env('a1'), NATS_URL: open.url, NATS_TLS_CA_FILE: '' })
  try {
    const warnings = (node.stdout() + node.stderr())
      .split('\n')
      .filter(l => /"level":40/.test(l))
      .map(l => JSON.parse(l).msg as string)
    assert.ok(
      warnings.some(w =>
        /^NATS accepts anonymous clients: anyone who reaches it can read every private RFQ and quote/.test(w),
      ),
      warnings.join('\n'),
    )
    assert.ok(
      warnings.some(w =>
        /^the NATS link is not encrypted: private RFQs, quotes and their signatures cross the network in clear/.test(w),
      ),
      warnings.join('\n'),
    )
  } finally {
    await node.term()
  }
})

test("a node's own files and names: each mistake is one line naming its variable, exit 2", async () => {
  const env = secure.env('a1')
  const stranger = join(dir, 'stranger.nk')
  writeFileSync(stranger, new TextDecoder().decode(createUser().getSeed()))
  const notPem = join(dir, 'not.pem')
  writeFileSync(notPem, 'hello')
  const cases: [Record<string, string>, RegExp][] = [
    [{ CLUSTER_NODE_KEY_FILE: '' }, /^invalid configuration: CLUSTER_NODE_KEY_FILE="": required with NATS_URL/],
    [
      { CLUSTER_NODE_KEY_FILE: join(dir, 'missing.nk') },
      /^invalid configuration: CLUSTER_NODE_KEY_FILE=".*missing\.nk": cannot read it \(ENOENT\)$/,
    ],
    [{ CLUSTER_NODE_KEY_FILE: notPem }, /^invalid configuration: CLUSTER_NODE_KEY_FILE=".*": not an nkey seed/],
    [
      { CLUSTER_NODE_KEY_FILE: stranger },
      /^invalid configuration: CLUSTER_PEERS=".*": does not list this node's key \(U[A-Z2-7]{55}, from CLUSTER_NODE_KEY_FILE\): add a1:U/,
    ],
    [{ NODE_ID: 'a2' }, /^invalid configuration: NODE_ID="a2": CLUSTER_PEERS names this node's key a1$/],
    [
      { CLUSTER_PEERS: 'a1:nonsense' },
      /^invalid configuration: CLUSTER_PEERS="a1:nonsense": must be NODE_ID:public-nkey pairs/,
    ],
    [
      { CLUSTER_PEERS: `a1:U${'A'.repeat(55)}` },
      /^invalid configuration: CLUSTER_PEERS=".*": a1:U.*: not NODE_ID:public-nkey \(a user key, U\.\.\., with a valid checksum\)$/,
    ],
    [
      { NATS_TLS_CA_FILE: notPem },
      /^invalid configuration: NATS_TLS_CA_FILE=".*not\.pem": not a PEM file holding a certificate$/,
    ],
    [
      { NATS_TLS_CERT_FILE: env.NATS_TLS_CA_FILE! },
      /^invalid configuration: NATS_TLS_KEY_FILE="": a client certificate needs both/,
    ],
  ]
  for (const [over, line] of cases) assert.match(await refusal({ ...env, ...over }, 2), line, JSON.stringify(over))
})

test('what the server refuses: an nkey it does not know, a CA that did not sign its certificate, TLS it does not offer, a missing client certificate; one line each, naming the variable', async () => {
  // a venue whose nats-server was never told of this node: same names, other keys
  const elsewhere = devCredentials(mkdtempSync(join(dir, 'elsewhere-')), ['a1', 'a2'])
  assert.match(
    await refusal(
      { ...secure.env('a1'), CLUSTER_NODE_KEY_FILE: elsewhere.keyFile('a1'), CLUSTER_PEERS: elsewhere.peers },
      1,
    ),
    new RegExp(
      `^engine failed to start: NATS at ${secure.url.replace(/\./g, '\\.')} refused this node's nkey U[A-Z2-7]{55} \\(Authorization Violation\\): .*CLUSTER_NODE_KEY_FILE`,
    ),
  )
  assert.match(
    await refusal({ ...secure.env('a1'), NATS_TLS_CA_FILE: elsewhere.caFile }, 1),
    /^engine failed to start: NATS at tls:\/\/127\.0\.0\.1:\d+ failed TLS \(.+\): NATS_TLS_CA_FILE must hold the CA that signed nats-server's certificate/,
  )
  assert.match(
    await refusal({ ...secure.env('a1'), NATS_URL: open.url }, 1),
    /^engine failed to start: NATS at nats:\/\/127\.0\.0\.1:\d+ does not offer TLS, which NATS_TLS_CA_FILE asks for/,
  )
  assert.match(
    await refusal({ ...mutual.env('m1'), NATS_TLS_CERT_FILE: '', NATS_TLS_KEY_FILE: '' }, 1),
    /^engine failed to start: NATS at tls:\/\/127\.0\.0\.1:\d+ asks every client for a TLS certificate and this node has none: set NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE$/,
  )
  // a certificate its CA did not sign
  const other = devCredentials(mkdtempSync(join(dir, 'other-')), ['m1'], { clientCertificates: true })
  assert.match(
    await refusal(
      {
        ...mutual.env('m1'),
        NATS_TLS_CERT_FILE: other.env('m1').NATS_TLS_CERT_FILE!,
        NATS_TLS_KEY_FILE: other.env('m1').NATS_TLS_KEY_FILE!,
      },
      1,
    ),
    /^engine failed to start: NATS at tls:\/\/127\.0\.0\.1:\d+ dropped this node's TLS client certificate \(.+\): NATS_TLS_CERT_FILE must be signed by the CA nats-server trusts$/,
  )
})

test('a nats-server that verifies its clients: a node with its certificate joins', async () => {
  const node = await spawnEngine({ ...base(), ...mutual.env('m1') })
  try {
    const health = (await (await fetch(`${node.relay}/health`)).json()) as { cluster: { nodeId: string; nats: string } }
    assert.deepEqual([health.cluster.nodeId, health.cluster.nats], ['m1', 'connected'])
  } finally {
    await node.term()
  }
})

test("a node's key taken off nats-server's users cuts it off at the reload; let in again, it rejoins without a restart", async () => {
  const own = await startSecureNats(['r1', 'r2']) // a users list left empty would let anyone in
  const node = await spawnEngine({ ...base(), ...own.env('r1') })
  try {
    const link = async () =>
      ((await (await fetch(`${node.relay}/health`)).json()) as { cluster: { nats: string } }).cluster.nats
    assert.equal(await link(), 'connected')
    const conf = readFileSync(own.creds.natsConfig, 'utf8')
    writeFileSync(
      own.creds.natsConfig,
      conf
        .split('\n')
        .filter(l => !l.includes(own.creds.publicKey('r1')))
        .join('\n'),
    )
    process.kill(own.server.pid, 'SIGHUP') // systemctl reload nats-server
    await waitFor(link, s => s === 'reconnecting', 5000)
    // refused again and again while it keeps trying (a client gives up after two refusals unless told not to)
    await waitFor(
      () => own.server.log(),
      log => (log.match(/authentication error - Nkey "U[A-Z2-7]{55}"/g) ?? []).length >= 4,
      10_000,
    )
    writeFileSync(own.creds.natsConfig, conf)
    process.kill(own.server.pid, 'SIGHUP')
    await waitFor(link, s => s === 'connected', 10_000)
    assert.equal(node.child.exitCode, null)
  } finally {
    await node.term()
    await own.close()
  }
})
