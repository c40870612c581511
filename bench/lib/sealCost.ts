// What the seal costs the cluster: CPU µs of the Ed25519 signature on a batch of quote events (at the sending node)
// and of its check (at each receiving node), over the batch's msgpack as envelope.ts signs it, for the sizes a node
// sends. The packing itself was paid before batches were signed; this is what signing adds. The cluster bench
// prints it beside the CPU a quote costs a node.
import { randomBytes, sign, verify } from 'node:crypto'
import { Packr } from 'msgpackr'
import { createUser } from '@nats-io/nkeys'
import { nodeKeyFromSeed, parsePeers, type NodeKey, type Peer } from '../../engine/cluster/nodeKeys.js'
import { open, seal } from '../../engine/cluster/envelope.js'

/** A throw-away node key and the peer entry its receivers hold. */
export function benchPeer(id = 'bench-node'): { id: string; key: NodeKey; peer: Peer } {
  const key = nodeKeyFromSeed(new TextDecoder().decode(createUser().getSeed()))
  return { id, key, peer: parsePeers(`${id}:${key.publicKey}`).get(key.publicKey)! }
}

/** CPU µs to sign and to verify one batch of `events` quote events as they travel (tuples of ~250 bytes). */
export function sealCost(events: number, rounds = 2000): { bytes: number; signUs: number; verifyUs: number } {
  const { id, key, peer } = benchPeer()
  const hex = (n: number) => `0x${randomBytes(n).toString('hex')}`
  const batch = Array.from({ length: events }, (_, i) => [
    `rfq_${randomBytes(16).toString('hex')}`,
    hex(20),
    null,
    null,
    null,
    null,
    String(10n ** 18n + BigInt(i)),
    1_900_000_000,
    String(i),
    1_900_000_000,
    hex(65),
    Date.now(),
  ])
  const sealed = seal(key.privateKey, 'events', id, 1, 1, batch)
  if (typeof open(peer, 'events', sealed) === 'string') throw new Error('the bench batch did not open')
  const payload = new Packr({ useRecords: false }).pack([1, 'events', id, 1, 1, batch])
  const signature = sign(null, payload, key.privateKey)
  const cpu = (f: () => void) => {
    const t = process.cpuUsage()
    for (let i = 0; i < rounds; i++) f()
    const u = process.cpuUsage(t)
    return (u.user + u.system) / rounds
  }
  cpu(() => sign(null, payload, key.privateKey)) // warm-up
  const signUs = cpu(() => sign(null, payload, key.privateKey))
  const verifyUs = cpu(() => {
    if (!verify(null, payload, peer.verifyKey, signature)) throw new Error('did not verify')
  })
  return { bytes: sealed.length, signUs, verifyUs }
}
