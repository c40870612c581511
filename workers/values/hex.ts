// Hex strings: transaction hashes, 65-byte signatures, arbitrary 0x data.
export type Hex = `0x${string}`

const TX_HASH = /^0x[0-9a-fA-F]{64}$/
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/

/** The signature's shape as a pattern string, for JSON Schema documents. */
export const SIGNATURE_PATTERN = SIGNATURE.source

export function isTxHash(x: unknown): x is string {
  return typeof x === 'string' && TX_HASH.test(x)
}

/** The lowercase hash, or null. */
export function parseTxHash(x: unknown): Hex | null {
  return isTxHash(x) ? (x.toLowerCase() as Hex) : null
}

const UPPER = /[A-Z]/

/**
 * Hex text (an address, a signature) in lowercase: `x` itself when it has no capital letter. V8's toLowerCase makes
 * a new string even when nothing changes: ~140 ns and 152 B for a signature sliced from a frame, against ~70 ns and
 * nothing for the test (one process). ASCII only, as hex is.
 */
export function lowerHex<T extends string>(x: T): T {
  return UPPER.test(x) ? (x.toLowerCase() as T) : x
}

/** 0x + 130 hex digits (r, s, v): the shape only; low-S and v are the signature parser's job. */
export function isSignatureHex(x: unknown): x is string {
  return typeof x === 'string' && SIGNATURE.test(x)
}

/** Whole bytes of hex after 0x. */
export function isHexBytes(x: unknown): x is string {
  return typeof x === 'string' && HEX.test(x)
}
