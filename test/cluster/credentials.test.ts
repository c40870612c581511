// NATS_URL as operators write it: several servers, a token or user:password in the URL. The credential
// reaches the server (in place of the node's nkey, which still signs its messages) and never a log line or the
// banner; a wrong one stops the start with one line. (nkeys and TLS: access.test.ts.)
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseNatsUrl } from '../../engine/cluster/natsUrl.js'
import { startNatsServer, type NatsServer } from '../../engine/devcluster/natsServer.js'
import { spawnEngine, refusedStart } from '../faults/process.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { devCredentials, type DevCredentials } from '../../engine/devcluster/devCredentials.js'

test('parseNatsUrl: servers without credentials, the token or user:password taken out, a redacted form to print', () => {
  assert.deepEqual(parseNatsUrl('nats://10.0.0.1:4222'), {
    servers: ['nats://10.0.0.1:4222'],
    redacted: 'nats://10.0.0.1:4222',
  })
  assert.deepEqual(parseNatsUrl('nats://s3cr%40t@10.0.0.1:4222,nats://10.0.0.2:4222'), {
    servers: ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222'],
    token: 's3cr@t',
    redacted: 'nats://***@10.0.0.1:4222,nats://10.0.0.2:4222',
  })
  assert.deepEqual(parseNatsUrl('tls://node:pw@nats.internal:4222'), {
    servers: ['tls://nats.internal:4222'],
    user: 'node',
    pass: 'pw',
    redacted: 'tls://***@nats.internal:4222',
  })
})

let nats: NatsServer
let db: TestDatabase
let creds: DevCredentials
const TOKEN = 'venue-token-7f3a9c'
before(async () => {
  nats = await startNatsServer({ args: ['--auth', TOKEN] })
  db = await testDatabase('n')
  creds = devCredentials(mkdtempSync(join(tmpdir(), 'cred-keys-')), ['cred-node'])
})
after(async () => {
  await nats.stop()
  await db.drop()
})

const env = (natsUrl: string) => ({
  DATABASE_URL: db.url,
  NATS_URL: natsUrl,
  NODE_ID: 'cred-node',
  CLUSTER_NODE_KEY_FILE: creds.keyFile('cred-node'),
  CLUSTER_PEERS: creds.peers,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'cred-')),
  LOG_LEVEL: 'info',
  LOG_FORMAT: 'json',
})

test('a node joins a NATS server that asks for a token; the token is in no log line and not in the banner', async () => {
  const node = await spawnEngine(env(`nats://${TOKEN}@127.0.0.1:${nats.port}`))
  try {
    const health = (await (await fetch(`${node.relay}/health`)).json()) as { cluster: { nodeId: string; nats: string } }
    assert.deepEqual([health.cluster.nodeId, health.cluster.nats], ['cred-node', 'connected'])
    assert.match(node.stdout(), new RegExp(`cluster +node cred-node on nats://\\*\\*\\*@127\\.0\\.0\\.1:${nats.port}`))
    assert.ok(!node.stdout().includes(TOKEN) && !node.stderr().includes(TOKEN), 'the token is never printed')
  } finally {
    await node.term()
  }
})

test('a wrong token stops the start with one line naming the (redacted) server; the token is not in it', async () => {
  const r = await refusedStart(env(`nats://wrong-token@127.0.0.1:${nats.port}`))
  assert.notEqual(r.code, 0)
  const lines = r.stderr.trim().split('\n')
  assert.equal(lines.length, 1, r.stderr)
  assert.match(
    lines[0]!,
    new RegExp(
      `NATS at nats://\\*\\*\\*@127\\.0\\.0\\.1:${nats.port} refused the credential in NATS_URL \\(.*\\): fix NATS_URL$`,
    ),
  )
  assert.ok(!r.stderr.includes('wrong-token'))
})
