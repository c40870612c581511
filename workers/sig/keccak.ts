// One keccak-256 hasher per thread, created at module load (hash-wasm instantiates its WASM
// asynchronously) and reused: init/update/digest are synchronous, so no two callers interleave.
import { createKeccak } from 'hash-wasm'

const hasher = await createKeccak(256)

/** keccak256 of the concatenation of the given parts; the result is a fresh 32-byte array. */
export function keccak256(...parts: Uint8Array[]): Uint8Array {
  hasher.init()
  for (const p of parts) hasher.update(p)
  return hasher.digest('binary')
}

export function keccak256Utf8(text: string): Uint8Array {
  return keccak256(new TextEncoder().encode(text))
}

export function toHex(bytes: Uint8Array): `0x${string}` {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
}
