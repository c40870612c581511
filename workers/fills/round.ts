// Rounding rules shared by improvement, points and league scores. Every rounding in the fills
// domain is "half away from zero" to a fixed number of decimals, so a value and its negation
// round to mirror images (+0.005 bps -> +0.01, -0.005 bps -> -0.01).

/** n / d rounded half away from zero, exactly, for any sign of n and d (d != 0). */
export function divRoundHalfAway(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new RangeError('division by zero')
  if (d < 0n) {
    n = -n
    d = -d
  }
  const neg = n < 0n
  const a = neg ? -n : n
  const q = (2n * a + d) / (2n * d) // floor((a + d/2) / d) without losing the half
  return neg ? -q : q
}

/** x rounded half away from zero to `decimals` places (a number is what the JSON carries). */
export function roundTo(x: number, decimals = 2): number {
  if (!Number.isFinite(x)) return x
  const f = 10 ** decimals
  // toPrecision(15) first: 1.005 is stored as 1.00499999..., but the value the caller meant is 1.005
  const scaled = Number((Math.abs(x) * f).toPrecision(15))
  const r = Math.round(scaled) / f
  return x < 0 && r !== 0 ? -r : r // never -0 in JSON
}

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x))
