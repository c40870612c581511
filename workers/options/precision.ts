// The terminal's number formatting: every price, IV, greek, size and index figure leaves the service
// rounded to VENUE_A's (Deribit's) published precision, with no float noise (0.1 + 0.2 goes out as 0.3).
// One rule, written twice on purpose: here for the views shaped in Node, and as option_round() in
// migration 092 for the tape's documents, which PostgreSQL writes; test/options/tapeJson.test.ts holds
// the two equal on arbitrary doubles.

/** Decimals per kind of figure (Deribit: BTC/ETH option tick 0.0001, contract size 0.1). */
export const PRECISION = {
  /** option prices in the underlying: bid, ask, mark, trade price */
  price: 4,
  /** index / underlying / spot prices */
  index: 2,
  /** implied volatility, in percent */
  iv: 2,
  /** delta and any other greek */
  greek: 5,
  /** amounts, sizes, open interest, volumes, in contracts */
  size: 1,
  /** USD notional (premium) */
  usd: 2,
} as const

export type Figure = keyof typeof PRECISION

/**
 * x rounded half away from zero to `decimals` places, taken from its shortest decimal text (String(x),
 * the digits that were meant: 1.005 rounds to 1.01, where toFixed, which rounds the binary value
 * 1.00499999..., gives 1.00). PostgreSQL's round(x::text::numeric, d) reads the same digits and rounds
 * the same way, so SQL and Node agree. The result parses from decimal text, so it carries no noise.
 * null, undefined and non-finite values are null: NaN and Infinity are not JSON numbers.
 */
export function roundHalfAway(x: number | null | undefined, decimals: number): number | null {
  if (x == null || !Number.isFinite(x)) return null
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x))!
  const [, sign, int, frac = '', exp = '0'] = m
  const digits = BigInt(int! + frac) // x = digits × 10^scale, exactly as written
  const scale = Number(exp) - frac.length
  if (scale >= -decimals) return x === 0 ? 0 : x // already within the precision: nothing to round
  const drop = 10n ** BigInt(-decimals - scale)
  const kept = (digits * 2n + drop) / (drop * 2n) // half away from zero on the magnitude
  const r = Number(`${sign}${kept}e-${decimals}`)
  return r === 0 ? 0 : r // never -0
}

/** roundHalfAway with the decimals of one kind of figure. */
export function figure(kind: Figure, x: number | null | undefined): number | null {
  return roundHalfAway(x, PRECISION[kind])
}
