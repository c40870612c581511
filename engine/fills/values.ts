// Value checks shared by the fills, benchmark and league inputs.
const MAX_U256 = (1n << 256n) - 1n

export function isAddress(x: unknown): x is string {
  return typeof x === 'string' && /^0x[0-9a-fA-F]{40}$/.test(x)
}

/** A uint256 from a decimal string (no sign, no exponent, no hex): null when it is not one. */
export function parseU256(x: unknown): bigint | null {
  if (typeof x !== 'string' || !/^\d{1,78}$/.test(x)) return null
  const v = BigInt(x)
  return v <= MAX_U256 ? v : null
}
