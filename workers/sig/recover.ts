// Signer recovery on native libsecp256k1, by one of two bindings with the same answers:
//  - the system's library (Debian's libsecp256k1, 0.2 or later) through our one-function module
//    (workers/sig/native/recover.c, compiled by `make build` into dist/native/recover.node): 38 us a recovery here;
//  - the `secp256k1` npm package, whose bundled library is of 2019 (its inverses by exponentiation, not safegcd):
//    53 us. Used when the module was not built (no compiler or no libsecp256k1 on the machine), or when
//    SIG_RECOVERY=package asks for it.
// The package's bindings are required directly: its main entry silently falls back to a pure-JS curve (about 20x
// slower) when the addon fails to load.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { keccak256 } from './keccak.js'
import type { Address, ParsedSignature } from './types.js'

interface SystemRecovery {
  recover(compact: Uint8Array, recid: number, digest: Uint8Array, out: Uint8Array): boolean
}
interface PackageRecovery {
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed: boolean): Uint8Array
}

const load = createRequire(import.meta.url)
const MODULE = fileURLToPath(new URL('../../native/recover.node', import.meta.url))

/** the system library's binding, or why it is not used */
function systemRecovery(): SystemRecovery | string {
  if (process.env.SIG_RECOVERY === 'package') return 'SIG_RECOVERY=package'
  try {
    return load(MODULE) as SystemRecovery
  } catch (err) {
    return `${MODULE} did not load (${(err as Error).message.split('\n')[0]}): make build compiles it`
  }
}

const system = systemRecovery()
const pkg: PackageRecovery | null = typeof system === 'string' ? load('secp256k1/bindings') : null

/** Which binding recovers on this thread, and why the system's is not used when it is not: for logs and benches. */
export const recoveryLibrary =
  typeof system === 'string' ? `secp256k1 npm package (bundled libsecp256k1; ${system})` : 'system libsecp256k1'

// a thread's one key buffer: recovery and its hash are synchronous, and the address is made from it at once
const key = new Uint8Array(65)

/** The uncompressed key (0x04 || x || y) whose signature `signature` is over `digest`, or null. */
function recoverKey(digest: Uint8Array, signature: ParsedSignature): Uint8Array | null {
  try {
    if (typeof system !== 'string') return system.recover(signature.compact, signature.recid, digest, key) ? key : null
    return pkg!.ecdsaRecover(signature.compact, signature.recid, digest, false)
  } catch {
    return null // no key recovers from this signature (the package refuses it), or a shape neither takes
  }
}

/** The lowercase address whose key signed `digest`, or null when nothing can be recovered. Never throws. */
export function recoverAddress(digest: Uint8Array, signature: ParsedSignature): Address | null {
  const pubkey = recoverKey(digest, signature)
  if (pubkey === null) return null
  const hash = keccak256(pubkey.subarray(1))
  return `0x${Buffer.from(hash.buffer, hash.byteOffset + 12, 20).toString('hex')}`
}
