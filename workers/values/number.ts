// Bounded numbers and dates from the outside world. Every float input has a documented cap, so no
// value a client sends can overflow an aggregate (float8 overflows near 1.8e308) or a column.
/** The largest USD amount one fill may carry: a trillion dollars. */
export const MAX_USD = 1e12
/** Prices (output per input, decimals adjusted) and basis points beyond these are not market data. */
export const MAX_PRICE = 1e30
export const MAX_ABS_BPS = 1e7

/** A finite number in [min, max], or null. */
export function boundedNumber(x: unknown, min: number, max: number): number | null {
  return typeof x === 'number' && Number.isFinite(x) && x >= min && x <= max ? x : null
}

export function parseUsd(x: unknown): number | null {
  return boundedNumber(x, 0, MAX_USD)
}

/** An ISO 8601 timestamp whose year is 1970 to 9999 (no year 0, nothing PostgreSQL or a chain cannot hold). */
export function parseIsoDate(x: unknown): Date | null {
  if (typeof x !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(x))
    return null
  const d = new Date(x)
  const year = d.getUTCFullYear()
  return Number.isNaN(d.getTime()) || year < 1970 || year > 9999 ? null : d
}
