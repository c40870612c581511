// The throw-away credentials `make cluster`, the cluster tests and the bench run on: a CA, a certificate for
// nats-server on this machine signed by it (and no CA itself), a key per node for its owner only, and a nats-server
// configuration the real server accepts. Made on first use and kept: a second start, or one with more nodes,
// keeps every key and certificate it finds. openssl is found like nats-server is.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devCredentials, findOpenssl, OPENSSL_MISSING } from '../../engine/devcluster/devCredentials.js'
import { findNatsServer, NATS_MISSING } from '../../engine/devcluster/natsServer.js'
import { nodeKeyFromSeed, parsePeers } from '../../engine/cluster/nodeKeys.js'

test("a CA, nats-server's certificate for this machine, a key per node, and a configuration nats-server accepts; kept on the next start", () => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-creds-'))
  const first = devCredentials(dir, ['node-1', 'node-2'])
  const ca = new X509Certificate(readFileSync(first.caFile))
  const server = new X509Certificate(readFileSync(join(dir, 'tls', 'nats-server.pem')))
  assert.equal(ca.ca, true)
  assert.equal(server.ca, false, "the server's certificate signs nothing")
  assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey), 'signed by the CA')
  assert.equal(server.checkIP('127.0.0.1'), '127.0.0.1')
  assert.equal(server.checkHost('localhost'), 'localhost')
  for (const id of ['node-1', 'node-2']) {
    assert.equal(statSync(first.keyFile(id)).mode & 0o777, 0o600)
    assert.equal(nodeKeyFromSeed(readFileSync(first.keyFile(id), 'utf8')).publicKey, first.publicKey(id))
    assert.deepEqual(first.env(id), {
      NODE_ID: id,
      CLUSTER_NODE_KEY_FILE: first.keyFile(id),
      CLUSTER_PEERS: first.peers,
      NATS_TLS_CA_FILE: first.caFile,
    })
  }
  assert.deepEqual(
    [...parsePeers(first.peers).values()].map(p => p.id),
    ['node-1', 'node-2'],
  )
  const bin = findNatsServer()
  assert.ok(bin, NATS_MISSING)
  const check = spawnSync(bin, ['-t', '-c', first.natsConfig], { encoding: 'utf8' })
  assert.equal(check.status, 0, check.stdout + check.stderr)
  assert.match(readFileSync(first.natsConfig, 'utf8'), /^tls \{$/m)

  // the next start, with one node more: the same CA, certificate and keys, and a key for the new node
  const caBefore = readFileSync(first.caFile, 'utf8'),
    serverBefore = server.fingerprint256
  const next = devCredentials(dir, ['node-1', 'node-2', 'node-3'])
  assert.equal(readFileSync(next.caFile, 'utf8'), caBefore)
  assert.equal(new X509Certificate(readFileSync(join(dir, 'tls', 'nats-server.pem'))).fingerprint256, serverBefore)
  assert.deepEqual(
    ['node-1', 'node-2'].map(id => next.publicKey(id)),
    ['node-1', 'node-2'].map(id => first.publicKey(id)),
  )
  assert.match(readFileSync(next.natsConfig, 'utf8'), new RegExp(`nkey: ${next.publicKey('node-3')}`))
})

test('client certificates when asked: one per node, signed by the CA, and a server that asks for them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-creds-'))
  const creds = devCredentials(dir, ['m1'], { clientCertificates: true })
  const env = creds.env('m1')
  const cert = new X509Certificate(readFileSync(env.NATS_TLS_CERT_FILE!))
  assert.ok(cert.checkIssued(new X509Certificate(readFileSync(creds.caFile))))
  assert.ok(existsSync(env.NATS_TLS_KEY_FILE!))
  assert.match(readFileSync(creds.natsConfig, 'utf8'), /^ {2}verify: true$/m)
})

test('findOpenssl: OPENSSL_BIN, then PATH, then /usr/bin; and the one line saying what to install', () => {
  const dir = mkdtempSync(join(tmpdir(), 'openssl-bin-'))
  const debian = existsSync('/usr/bin/openssl') ? '/usr/bin/openssl' : null
  assert.equal(findOpenssl({ OPENSSL_BIN: '/nonexistent', PATH: '' }), debian)
  const real = findOpenssl()
  assert.ok(real, OPENSSL_MISSING)
  const onPath = join(dir, 'openssl')
  symlinkSync(real, onPath)
  assert.equal(findOpenssl({ PATH: `/nonexistent:${dir}` }), onPath)
  const chosen = join(dir, 'my-openssl')
  symlinkSync(real, chosen)
  assert.equal(findOpenssl({ OPENSSL_BIN: chosen, PATH: dir }), chosen)
  const plain = join(dir, 'plain')
  writeFileSync(plain, '')
  chmodSync(plain, 0o644)
  assert.equal(findOpenssl({ OPENSSL_BIN: plain, PATH: dir }), onPath, 'not executable: passed over')
  assert.equal(OPENSSL_MISSING, 'openssl is missing: apt-get install openssl (or set OPENSSL_BIN)')
})
