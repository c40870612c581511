// EIP-191 personal_sign recovery (agent registration, cancel auth) on the same native path.
import { keccak256 } from './keccak.js'
import { parseSignature } from './parseQuote.js'
import { recoverAddress } from './recover.js'
import type { Address } from './types.js'

const encoder = new TextEncoder()

/** keccak256("\x19Ethereum Signed Message:\n" + byteLength + message), the length counted in UTF-8 bytes. */
export function personalMessageDigest(message: string): Uint8Array {
  const body = encoder.encode(message)
  return keccak256(encoder.encode(`\x19Ethereum Signed Message:\n${body.length}`), body)
}

/** The lowercase address that personal_sign'ed `message`, or null (malformed, high-S or unrecoverable). Never throws. */
export function recoverPersonalSigner(message: string, signature: unknown): Address | null {
  if (typeof message !== 'string') return null
  const sig = parseSignature(signature)
  if (!sig.ok) return null
  return recoverAddress(personalMessageDigest(message), sig.signature)
}
