// Small statistics the reports use, as references for the SQL that computes them in production.

/** Median with linear interpolation between the two middle values (PostgreSQL's percentile_cont(0.5)). */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null
  const s = [...values].sort((a, b) => a - b)
  const pos = (s.length - 1) / 2
  const lo = Math.floor(pos),
    hi = Math.ceil(pos)
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo)
}

export function mean(values: readonly number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null
}
