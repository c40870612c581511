// A node's key and the venue's list of nodes. One Ed25519 key per node serves both doors: nats-server knows the
// node by its public nkey (authentication and subject permissions), and each message the node sends is signed
// with it, checked by every peer against the key CLUSTER_PEERS lists for that node. nkeys parses and checks the
// text forms (prefix, checksum); the signing itself goes through node:crypto (OpenSSL), which signs a batch in
// ~35 us and verifies it in ~100 us where nkeys' pure-JS Ed25519 takes ~10 ms.
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { fromPublic, fromSeed } from '@nats-io/nkeys'

export interface NodeKey {
  /** the seed as nkeys writes it (`SU...`), for nats-server's nkey challenge */
  seed: Uint8Array
  /** `U...`: how nats-server and CLUSTER_PEERS name the node */
  publicKey: string
  /** for signing the node's messages */
  privateKey: KeyObject
}

export interface Peer {
  id: string
  publicKey: string
  /** for checking its messages' signatures */
  verifyKey: KeyObject
}

/** A node's key from its seed's text (`SU...`); throws a sentence saying what is wrong with it. */
export function nodeKeyFromSeed(text: string): NodeKey {
  const seed = new TextEncoder().encode(text.trim())
  let publicKey: string
  try {
    publicKey = fromSeed(seed).getPublicKey()
  } catch {
    throw new Error('not an nkey seed (SU... as `nk -gen user` or nodeKey.js writes it)')
  }
  if (!publicKey.startsWith('U')) {
    throw new Error(`an nkey seed of another kind (${publicKey[0]}): a node's is a user seed, SU...`)
  }
  // a seed's 36 bytes: 2 of prefix, the 32-byte Ed25519 seed, a 2-byte checksum (checked by fromSeed above)
  const d = base32(text.trim()).subarray(2, 34)
  const x = rawPublic(publicKey)
  const privateKey = createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: b64url(d), x: b64url(x) },
    format: 'jwk',
  })
  return { seed, publicKey, privateKey }
}

/** CLUSTER_PEERS (`id:U...,id:U...`), by public key; throws a sentence naming the entry that is wrong. */
export function parsePeers(list: string): Map<string, Peer> {
  const peers = new Map<string, Peer>()
  const ids = new Set<string>()
  for (const entry of list
    .split(',')
    .map(s => s.trim())
    .filter(Boolean)) {
    const at = entry.lastIndexOf(':')
    const id = entry.slice(0, at),
      publicKey = entry.slice(at + 1)
    try {
      if (at < 1 || !fromPublic(publicKey).getPublicKey().startsWith('U')) throw new Error()
    } catch {
      throw new Error(`${entry}: not NODE_ID:public-nkey (a user key, U..., with a valid checksum)`)
    }
    if (ids.has(id) || peers.has(publicKey)) {
      throw new Error(`${entry}: listed twice (every node has a name and a key of its own)`)
    }
    ids.add(id)
    peers.set(publicKey, { id, publicKey, verifyKey: verifyKeyOf(publicKey) })
  }
  return peers
}

function verifyKeyOf(publicKey: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(rawPublic(publicKey)) }, format: 'jwk' })
}

/** a public key's 35 bytes: 1 of prefix, the 32-byte Ed25519 key, a 2-byte checksum */
const rawPublic = (publicKey: string) => base32(publicKey).subarray(1, 33)

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 without padding, as nkeys writes its keys (already checked, so every letter is in the alphabet) */
function base32(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 5) / 8))
  let bits = 0,
    value = 0,
    i = 0
  for (const ch of text) {
    value = (value << 5) | ALPHABET.indexOf(ch)
    bits += 5
    if (bits >= 8) {
      out[i++] = (value >>> (bits - 8)) & 0xff
      bits -= 8
    }
  }
  return out
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
