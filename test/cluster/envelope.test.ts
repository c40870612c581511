// The seal on every cluster message: a node's nkey signs through node:crypto exactly as nkeys would; a message
// opens only when the key its subject names (a listed one) signed it, it says that node and that channel, and its
// body has the channel's shape; everything else is a reason, never a half-read message. The order kept per node
// tells the next message from a gap, a restart, and a replay.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sign, verify } from 'node:crypto'
import { createAccount, createUser, fromSeed } from '@nats-io/nkeys'
import { nodeKeyFromSeed, parsePeers } from '../../engine/cluster/nodeKeys.js'
import { seal, sealEvents, open, MAX_MESSAGE_BYTES, MAX_BATCH, type Opened } from '../../engine/cluster/envelope.js'
import { Sequences } from '../../engine/cluster/sequences.js'
import { nextEpoch } from '../../engine/cluster/epoch.js'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { subjectOf, channelSubjects, keyOfSubject } from '../../engine/cluster/subjects.js'

const seedText = () => new TextDecoder().decode(createUser().getSeed())

test('a node key from its nkey seed signs what nkeys signs, and is known by the same public key', () => {
  const text = seedText()
  const key = nodeKeyFromSeed(`${text}\n`)
  const kp = fromSeed(new TextEncoder().encode(text))
  assert.equal(key.publicKey, kp.getPublicKey())
  const data = new TextEncoder().encode('a batch of events')
  assert.deepEqual(
    Buffer.from(sign(null, data, key.privateKey)),
    Buffer.from(kp.sign(data)),
    'Ed25519 is deterministic: the same key gives the same signature',
  )
  const peer = parsePeers(`n1:${key.publicKey}`).get(key.publicKey)!
  assert.ok(verify(null, data, peer.verifyKey, Buffer.from(kp.sign(data))))
  assert.throws(() => nodeKeyFromSeed('SUnotaseed'), /not an nkey seed/)
  assert.throws(() => nodeKeyFromSeed(kp.getPublicKey()), /not an nkey seed/)
  assert.throws(
    () => nodeKeyFromSeed(new TextDecoder().decode(createAccount().getSeed())),
    /another kind \(A\): a node's is a user seed/,
  )
})

test('CLUSTER_PEERS: names and keys, each once, each key a user key with a good checksum', () => {
  const [a, b] = [nodeKeyFromSeed(seedText()), nodeKeyFromSeed(seedText())]
  const peers = parsePeers(`n1:${a.publicKey}, n2:${b.publicKey}`)
  assert.deepEqual(
    [...peers.values()].map(p => [p.id, p.publicKey]),
    [
      ['n1', a.publicKey],
      ['n2', b.publicKey],
    ],
  )
  assert.throws(() => parsePeers(`n1:${a.publicKey},n1:${b.publicKey}`), /n1:U.*: listed twice/)
  assert.throws(() => parsePeers(`n1:${a.publicKey},n2:${a.publicKey}`), /n2:U.*: listed twice/)
  const broken = a.publicKey.slice(0, -1) + (a.publicKey.endsWith('A') ? 'B' : 'A')
  assert.throws(() => parsePeers(`n1:${broken}`), /not NODE_ID:public-nkey/)
  assert.throws(() => parsePeers(`:${a.publicKey}`), /not NODE_ID:public-nkey/)
})

test('a sealed message opens only as its own node, channel and shape; every other message is a reason', () => {
  const key = nodeKeyFromSeed(seedText()),
    other = nodeKeyFromSeed(seedText())
  const peers = parsePeers(`n1:${key.publicKey},n2:${other.publicKey}`)
  const n1 = peers.get(key.publicKey)!,
    n2 = peers.get(other.publicKey)!
  const events = [{ t: 'cancelled', id: 'rfq_1', at: 1_700_000_000_000 }]
  const bytes = seal(key.privateKey, 'events', 'n1', 42, 7, events)
  assert.deepEqual(open(n1, 'events', bytes), { origin: 'n1', epoch: 42, seq: 7, body: events } satisfies Opened)
  for (let i = 0; i < bytes.length; i += 13) {
    // any byte altered, signature or payload
    const altered = Buffer.from(bytes)
    altered.writeUInt8(altered.readUInt8(i) ^ 0x01, i)
    assert.equal(open(n1, 'events', altered), 'bad_signature', `byte ${i}`)
  }
  assert.equal(open(n2, 'events', bytes), 'bad_signature', "under another node's subject")
  assert.equal(open(undefined, 'events', bytes), 'unknown_node')
  assert.equal(open(n1, 'events', bytes.subarray(0, 64)), 'bad_signature')
  assert.equal(open(n1, 'events', new Uint8Array(MAX_MESSAGE_BYTES + 1)), 'oversized')
  assert.equal(open(n1, 'nodes', bytes), 'wrong_origin', 'a batch replayed on the heartbeat channel')
  assert.equal(open(n1, 'events', seal(key.privateKey, 'events', 'n2', 42, 1, [])), 'wrong_origin', 'n1 signing as n2')
  const malformed: [Parameters<typeof seal>[1], number, number, unknown][] = [
    ['events', 1, 1, { e: [] }],
    ['events', 1, 1, new Array(501).fill(null)],
    ['nodes', 1, 1, -1],
    ['nodes', 1, 1, '5'],
    ['limits', 1, 1, 'x'],
    ['events', 1, 0, []],
    ['events', -1, 1, []],
    ['events', 1.5, 1, []],
  ]
  for (const [channel, epoch, seq, body] of malformed) {
    assert.equal(
      open(n1, channel, seal(key.privateKey, channel, 'n1', epoch, seq, body)),
      'malformed',
      JSON.stringify([channel, epoch, seq, body]),
    )
  }
})

test("subjects name the speaker's key; a node listens to every key of its venue", () => {
  const key = nodeKeyFromSeed(seedText()).publicKey
  const subject = subjectOf('31337.0xabc', key, 'events')
  assert.equal(subject, `rfq.v3.31337.0xabc.${key}.events`)
  assert.equal(keyOfSubject(subject), key)
  assert.equal(channelSubjects('31337.0xabc', 'limits'), 'rfq.v3.31337.0xabc.*.limits')
})

test('the order per node: the next, a gap, a replay, a restart, and a recording of an earlier run', () => {
  const s = new Sequences()
  assert.equal(s.admit('n1', 'events', 100, 5), 'first')
  assert.equal(s.admit('n1', 'events', 100, 6), 'next')
  assert.equal(s.admit('n1', 'events', 100, 6), 'replayed')
  assert.equal(s.admit('n1', 'events', 100, 9), 'gap')
  assert.equal(s.admit('n1', 'events', 100, 8), 'replayed', 'an old batch arriving late is not applied again')
  assert.equal(s.admit('n1', 'limits', 100, 1), 'first', 'each channel is numbered on its own')
  assert.equal(s.admit('n1', 'events', 99, 50), 'replayed', 'an earlier run')
  assert.equal(s.admit('n1', 'events', 101, 1), 'restart')
  assert.equal(s.admit('n1', 'limits', 101, 1), 'first', 'a restart starts every channel again')
  assert.equal(s.admit('n1', 'events', 100, 10), 'replayed', 'the run before the restart is over')
  assert.equal(s.admit('n2', 'events', 7, 1), 'first', 'nodes are apart')
  // heartbeats say the last batch sent
  assert.equal(s.admit('n3', 'nodes', 5, 1), 'first')
  assert.equal(s.sent('n3', 4), 'first')
  assert.equal(s.admit('n3', 'events', 5, 5), 'next', 'the batch after the one its heartbeat named')
  assert.equal(s.sent('n3', 5), 'heard')
  assert.equal(s.sent('n3', 7), 'behind', 'two batches never arrived')
  assert.equal(s.admit('n3', 'events', 5, 7), 'replayed', 'taken as heard once the heartbeat said so')
  assert.equal(s.admit('n3', 'events', 5, 8), 'next')
})

test('a batch too large to be read is sent as consecutive messages that each fit, every event once and in order', () => {
  const key = nodeKeyFromSeed(seedText())
  const peer = parsePeers(`n1:${key.publicKey}`).get(key.publicKey)!
  // 500 private RFQs, each with 100 allowed makers: ~2.5 MB as one message
  const makers = Array.from({ length: 100 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`)
  const events = Array.from({ length: MAX_BATCH }, (_, i) => ({
    t: 'created',
    h: 'x'.repeat(64),
    rfq: { id: `rfq_${i}`, allowedMakers: makers },
  }))
  assert.ok(seal(key.privateKey, 'events', 'n1', 1, 1, events).length > MAX_MESSAGE_BYTES)
  const messages = sealEvents(key.privateKey, 'n1', 1, 41, events)
  assert.ok(messages.length > 1)
  const opened = messages.map(m => open(peer, 'events', m) as Opened)
  assert.ok(messages.every(m => m.length <= MAX_MESSAGE_BYTES))
  assert.deepEqual(
    opened.map(m => m.seq),
    opened.map((_, i) => 41 + i),
  )
  assert.deepEqual(
    opened.flatMap(m => m.body as unknown[]),
    events,
  )
  // a small batch stays one message; one event past the size goes alone (its peers drop it, and see the gap)
  assert.equal(sealEvents(key.privateKey, 'n1', 1, 1, events.slice(0, 3)).length, 1)
  const huge = [{ t: 'created', rfq: { id: 'x', pad: 'y'.repeat(MAX_MESSAGE_BYTES) } }]
  assert.equal(open(peer, 'events', sealEvents(key.privateKey, 'n1', 1, 1, huge)[0]!), 'oversized')
})

test("a node's epoch rises at every start on its DATA_DIR, even when the clock stepped back between two", () => {
  const dir = mkdtempSync(join(tmpdir(), 'epoch-'))
  assert.equal(nextEpoch(dir, 1_700_000_000_000), 1_700_000_000_000)
  assert.equal(nextEpoch(dir, 1_600_000_000_000), 1_700_000_000_001, 'the clock went back: the epoch still rises')
  assert.equal(nextEpoch(dir, 1_800_000_000_000), 1_800_000_000_000)
  assert.equal(nextEpoch(dir, 1_800_000_000_000), 1_800_000_000_001, 'two starts in one millisecond')
})
