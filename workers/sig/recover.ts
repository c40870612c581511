// Signer recovery on native libsecp256k1. The bindings are required directly: the package's
// main entry silently falls back to a pure-JS curve (about 20x slower) when the addon fails to load.
import { createRequire } from 'node:module'
import { keccak256 } from './keccak.js'
import type { Address, ParsedSignature } from './types.js'

interface Secp256k1 {
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed: boolean): Uint8Array
}

const secp256k1: Secp256k1 = createRequire(import.meta.url)('secp256k1/bindings')

/** The lowercase address whose key signed `digest`, or null when nothing can be recovered. Never throws. */
export function recoverAddress(digest: Uint8Array, signature: ParsedSignature): Address | null {
  try {
    const pubkey = secp256k1.ecdsaRecover(signature.compact, signature.recid, digest, false) // 0x04 || x || y
    const hash = keccak256(pubkey.subarray(1))
    return `0x${Buffer.from(hash.buffer, hash.byteOffset + 12, 20).toString('hex')}`
  } catch {
    return null // no key recovers from this signature (secp256k1 refuses it): no signer
  }
}
