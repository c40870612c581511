// The few /metrics figures the Health view shows, from Prometheus's text format: each metric's samples
// summed over their labels (requests over every route and status, trades over every source), and their
// largest (an age or a lag: the stalest stream is the one to show). Histogram parts (_bucket, _sum,
// _count) are kept under their own names, so they never mix in.
export interface MetricTotals {
  sum: Map<string, number>
  max: Map<string, number>
}

export function parseMetrics(text: string): MetricTotals {
  const totals = new Map<string, number>(),
    max = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{.*\})?\s+(\S+)/.exec(line)
    if (!m) continue
    const v = Number(m[2])
    if (!Number.isFinite(v)) continue
    totals.set(m[1]!, (totals.get(m[1]!) ?? 0) + v)
    max.set(m[1]!, Math.max(max.get(m[1]!) ?? -Infinity, v))
  }
  return { sum: totals, max }
}
