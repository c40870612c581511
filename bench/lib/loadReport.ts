// The load test's report: report.json for machines, report.html for people. The page is one
// self-contained file (uPlot's script and stylesheet inlined from node_modules, no external asset),
// with latency over time (p50/p99 per second on a milliseconds axis, accepted quotes per second on its own
// axis) and the latency distribution from the HDR histogram. Every axis is labelled, and each legend shows
// values: the point under the cursor, else the last second (or the fullest bucket).
// uPlot: a small, well-kept canvas chart library, fast on thousands of points.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { RecordableHistogram } from 'node:perf_hooks'
import type { StepResult } from './relayLoad.js'
import { pct } from './relayLoad.js'

export interface LoadReport {
  target: { relay: string; api: string }
  startedAt: string
  mode: 'fixed' | 'ramp'
  sent: number
  accepted: number
  errors: Record<string, number>
  ratePerSec: number
  acceptedPerSec: number
  durationSec: number
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number }
  steps: {
    rate: number
    sent: number
    accepted: number
    errors: Record<string, number>
    p50Ms: number
    p99Ms: number
    holds?: boolean
  }[]
  perSecond: { t: number; rate: number; sent: number; accepted: number; errors: number; p50Ms: number; p99Ms: number }[]
  histogram: { ms: number; count: number }[]
  ramp?: { p99TargetMs: number; highestHoldingRate: number | null; summary: string }
  /** why most quotes were refused, when they were: the code and the setting to raise */
  diagnosis?: string
}

export function buildReport(args: {
  relay: string
  api: string
  startedAt: Date
  mode: 'fixed' | 'ramp'
  steps: StepResult[]
  total: RecordableHistogram
  holds?: boolean[]
  ramp?: LoadReport['ramp']
  diagnosis?: string
}): LoadReport {
  const { steps, total } = args
  const sum = (f: (s: StepResult) => number) => steps.reduce((a, s) => a + f(s), 0)
  const errors: Record<string, number> = {}
  for (const s of steps) for (const [k, v] of Object.entries(s.errors)) errors[k] = (errors[k] ?? 0) + v
  const durationSec = sum(s => s.durationSec)
  let t = 0
  const perSecond = steps.flatMap(s => s.perSecond.map(p => ({ ...p, t: ++t, rate: s.rate })))
  return {
    target: { relay: args.relay, api: args.api },
    startedAt: args.startedAt.toISOString(),
    mode: args.mode,
    sent: sum(s => s.sent),
    accepted: sum(s => s.accepted),
    errors,
    ratePerSec: round(sum(s => s.sent) / durationSec),
    acceptedPerSec: round(sum(s => s.accepted) / durationSec),
    durationSec: round(durationSec),
    latencyMs: {
      p50: round(pct(total, 50)),
      p90: round(pct(total, 90)),
      p99: round(pct(total, 99)),
      max: round(total.count ? total.max / 1000 : NaN),
      mean: round(total.count ? total.mean / 1000 : NaN),
    },
    steps: steps.map((s, i) => ({
      rate: s.rate,
      sent: s.sent,
      accepted: s.accepted,
      errors: s.errors,
      p50Ms: round(pct(s.latency, 50)),
      p99Ms: round(pct(s.latency, 99)),
      ...(args.holds ? { holds: args.holds[i] } : {}),
    })),
    perSecond,
    histogram: histogramBuckets(total),
    ...(args.ramp ? { ramp: args.ramp } : {}),
    ...(args.diagnosis ? { diagnosis: args.diagnosis } : {}),
  }
}

/** The HDR histogram as (upper bound in ms, count) at percentile steps: dense where the data is. */
function histogramBuckets(h: RecordableHistogram): { ms: number; count: number }[] {
  if (!h.count) return []
  const out: { ms: number; count: number }[] = []
  let prevCount = 0
  for (const [p, us] of h.percentiles) {
    const count = Math.round((h.count * p) / 100)
    if (count > prevCount) {
      out.push({ ms: us / 1000, count: count - prevCount })
      prevCount = count
    }
  }
  return out
}

const round = (x: number) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : (null as unknown as number))

export function writeReport(dir: string, report: LoadReport): { json: string; html: string } {
  mkdirSync(dir, { recursive: true })
  const json = join(dir, 'report.json'),
    html = join(dir, 'report.html')
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n')
  writeFileSync(html, renderHtml(report))
  return { json, html }
}

function renderHtml(r: LoadReport): string {
  const uplotDir = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'))
  const script = readFileSync(join(uplotDir, 'uPlot.iife.min.js'), 'utf8')
  const style = readFileSync(join(uplotDir, 'uPlot.min.css'), 'utf8')
  const esc = (s: string) => s.replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)
  const errors =
    Object.entries(r.errors)
      .map(([k, v]) => `${esc(k)} ${v}`)
      .join(', ') || 'none'
  const rows = r.steps
    .map(
      s =>
        `<tr><td>${s.rate}</td><td>${s.sent}</td><td>${s.accepted}</td><td>${esc(
          Object.entries(s.errors)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || '-',
        )}</td><td>${s.p50Ms ?? '-'}</td><td>${s.p99Ms ?? '-'}</td>${s.holds === undefined ? '' : `<td>${s.holds ? 'yes' : 'no'}</td>`}</tr>`,
    )
    .join('')
  // the data goes in as JSON inside a script tag: '<' is escaped so no value can end the tag
  const data = JSON.stringify({ perSecond: r.perSecond, histogram: r.histogram }).replace(/</g, '\\u003c')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Relay load test ${esc(r.startedAt)}</title>
<style>${style}
body{font:14px system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}
h1{font-size:20px}.kpi{display:flex;gap:24px;flex-wrap:wrap}.kpi div{background:#f4f4f6;padding:10px 14px;border-radius:6px}</style></head><body>
<h1>Relay load test</h1>
<p>Target relay <code>${esc(r.target.relay)}</code>, API <code>${esc(r.target.api)}</code>; started ${esc(r.startedAt)}; mode ${r.mode}${r.ramp ? `; p99 target ${r.ramp.p99TargetMs} ms, highest holding rate ${r.ramp.highestHoldingRate ?? 'none'}/s` : ''}.</p>
${r.ramp ? `<p class="ramp">Ramp: ${esc(r.ramp.summary)}</p>` : ''}
${r.diagnosis ? `<p class="diagnosis"><b>${esc(r.diagnosis)}</b></p>` : ''}
<div class="kpi"><div>sent <b>${r.sent}</b></div><div>accepted <b>${r.accepted}</b></div><div>offered <b>${r.ratePerSec}/s</b></div><div>accepted <b>${r.acceptedPerSec}/s</b></div>
<div>p50 <b>${r.latencyMs.p50} ms</b></div><div>p99 <b>${r.latencyMs.p99} ms</b></div><div>max <b>${r.latencyMs.max} ms</b></div><div>errors <b>${errors}</b></div></div>
<h2>Latency over time (submit to QUOTE_BROADCAST)</h2><div id="time"></div>
<h2>Latency distribution (HDR histogram)</h2><div id="hist"></div>
<h2>Steps</h2><table><tr><th>rate/s</th><th>sent</th><th>accepted</th><th>errors</th><th>p50 ms</th><th>p99 ms</th>${r.ramp ? '<th>holds</th>' : ''}</tr>${rows}</table>
<script>${script}</script>
<script>
const d = ${data};
const w = Math.min(1000, document.body.clientWidth - 20);
const fmt = (d) => (u, v) => v == null ? '-' : v.toFixed(d);
// the legend shows values: under the cursor, else the chart's point of rest
const rest = (at) => ({ ready: [u => u.setLegend({ idx: at(u) }, false)],
  setCursor: [u => { if (u.cursor.idx == null) u.setLegend({ idx: at(u) }, false) }] });
const last = u => Math.max(0, u.data[0].length - 1);
const fullest = u => u.data[1].reduce((b, c, i, a) => c > a[b] ? i : b, 0);
const time = new uPlot({ width: w, height: 280, scales: { x: { time: false }, ms: {}, n: {} },
  axes: [{ label: 'seconds since start' }, { scale: 'ms', label: 'latency (ms)' },
    { scale: 'n', side: 1, label: 'accepted quotes/s', grid: { show: false } }],
  series: [{ label: 'second', value: fmt(0) }, { label: 'p50 ms', stroke: '#2a7', scale: 'ms', value: fmt(3) },
    { label: 'p99 ms', stroke: '#d33', scale: 'ms', value: fmt(3) }, { label: 'accepted/s', stroke: '#88a', scale: 'n', value: fmt(0) }],
  hooks: rest(last) },
  [d.perSecond.map(p => p.t), d.perSecond.map(p => p.p50Ms), d.perSecond.map(p => p.p99Ms), d.perSecond.map(p => p.accepted)],
  document.getElementById('time'));
const hist = new uPlot({ width: w, height: 240, scales: { x: { time: false, distr: 3 }, y: {} },
  axes: [{ label: 'latency, ms (log scale)' }, { label: 'quotes' }],
  series: [{ label: 'up to ms', value: fmt(3) },
    { label: 'quotes', stroke: '#47c', fill: 'rgba(68,119,204,0.2)', paths: uPlot.paths.stepped({ align: 1 }), value: fmt(0) }],
  hooks: rest(fullest) },
  [d.histogram.map(b => b.ms), d.histogram.map(b => b.count)], document.getElementById('hist'));
window.charts = [time, hist];
</script></body></html>
`
}
