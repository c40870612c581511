// uint256 decimal strings: the one place the bound and the two grammars are written.
//  - lenient: 1 to 78 digits, leading zeros allowed (REST bodies: fills, RFQ creation, route finder)
//  - canonical: no leading zeros, the form a signed struct is compared in (relay quotes)
export const MAX_UINT256 = (1n << 256n) - 1n

const DIGITS = /^\d{1,78}$/
const CANONICAL = /^(?:0|[1-9][0-9]{0,77})$/

/** The grammars as pattern strings, for JSON Schema documents (the relay's AsyncAPI contract). The bound
 *  (at most 2^256 - 1, or 2^53 - 1 for unix seconds) is a rule beside the pattern: a regex cannot say it. */
export const CANONICAL_UINT_PATTERN = CANONICAL.source
export const POSITIVE_UINT_PATTERN = '^[1-9][0-9]{0,77}$'
export const UNIX_SECONDS_STRING_PATTERN = '^(?:0|[1-9][0-9]{0,15})$'

/** A uint256 from a decimal string of digits (leading zeros allowed): null when it is not one. */
export function parseU256(x: unknown): bigint | null {
  if (typeof x !== 'string' || !DIGITS.test(x)) return null
  const v = BigInt(x)
  return v <= MAX_UINT256 ? v : null
}

/** A uint256 from its canonical decimal string, or the reason it is not one (for the relay's texts). */
export function parseCanonicalU256(x: unknown): bigint | string {
  if (typeof x !== 'string') return 'must be a decimal BigInt string'
  if (!CANONICAL.test(x)) return 'must be a non-negative decimal integer string'
  const v = BigInt(x)
  return v > MAX_UINT256 ? 'exceeds uint256' : v
}

/** True for a canonical decimal string (no sign, exponent or leading zero), whatever its size. */
export function isCanonicalDecimal(x: unknown): x is string {
  return typeof x === 'string' && CANONICAL.test(x)
}

/** Unix seconds as a safe non-negative integer (a number or a canonical decimal string), or the reason. */
export function parseUnixSeconds(x: unknown): number | string {
  const n = typeof x === 'number' ? x : typeof x === 'string' && CANONICAL.test(x) ? Number(x) : NaN
  return Number.isSafeInteger(n) && n >= 0 ? n : 'must be unix seconds (a non-negative integer)'
}
