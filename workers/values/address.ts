// Addresses: the one place the 0x + 40 hex pattern is written. Everything that reads an address from
// the outside world (REST bodies, relay frames, query strings, config, files) asks here.
export type Address = `0x${string}` // lowercase once parsed

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
/** A parsed (lowercase) address, as a JSON Schema pattern the relay's contract uses too. */
export const LOWER_ADDRESS_PATTERN = '^0x[0-9a-f]{40}$'
const LOWER_ADDRESS = new RegExp(LOWER_ADDRESS_PATTERN)

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000' as Address

/** True for 0x + 40 hex digits, any case. */
export function isAddress(x: unknown): x is string {
  return typeof x === 'string' && ADDRESS.test(x)
}

/** True only for the lowercase form (paths that the spec says must be lowercase). */
export function isLowerAddress(x: unknown): x is string {
  return typeof x === 'string' && LOWER_ADDRESS.test(x)
}

/** The lowercase address, or null when `x` is not one. */
export function parseAddress(x: unknown): Address | null {
  return isAddress(x) ? (x.toLowerCase() as Address) : null
}

/** The pattern as a string, for JSON Schema / OpenAPI documents. */
export const ADDRESS_PATTERN = ADDRESS.source
