// The three pictures (improvement histogram, quote-latency sparkline, IV by strike) drawn by uPlot on a
// canvas. uPlot paints with colours, not CSS, so they are read from the page's CSS variables when a
// chart is made, and the chart is made again when the colour scheme or its data's shape changes. A
// legend always shows values: the point under the cursor, else the chart's point of rest (`legendAt`),
// never uPlot's empty "--".
import uPlot from 'uplot'
import { useEffect, useRef, useState } from 'preact/hooks'
import { num } from './format'

export interface ChartProps {
  /** what the picture shows, for its caption and for screen readers */
  label: string
  data: uPlot.AlignedData
  series: uPlot.Series[]
  height: number
  axes?: boolean
  bars?: boolean
  xLabel?: string
  yLabel?: string
  /** a sparkline: no axes, legend or cursor */
  spark?: boolean
  /** the index the legend shows while the cursor is elsewhere; default: the last with a value */
  legendAt?: (data: uPlot.AlignedData) => number | null
}

export function Chart(p: ChartProps) {
  const box = useRef<HTMLDivElement>(null)
  const plot = useRef<uPlot | null>(null)
  const scheme = useScheme()
  const shape = `${scheme}|${p.series.length}|${p.height}|${p.bars}|${p.spark}`
  const rest = useRef(p.legendAt ?? lastWithValue)
  rest.current = p.legendAt ?? lastWithValue
  const atRest = (u: uPlot) => {
    if (p.spark) return
    const i = rest.current(u.data)
    if (i !== null) u.setLegend({ idx: i }, false)
  }
  useEffect(() => {
    const el = box.current!
    const css = getComputedStyle(document.documentElement)
    const color = (v: string) => css.getPropertyValue(v).trim() || '#888'
    const axis = (label?: string): uPlot.Axis => ({
      stroke: color('--fg-muted'),
      grid: { stroke: color('--grid'), width: 1 },
      ticks: { stroke: color('--grid'), width: 1 },
      label,
      font: '11px system-ui, sans-serif',
      labelFont: '11px system-ui, sans-serif',
    })
    const palette = [color('--accent'), color('--accent-2')]
    const value = (_: uPlot, v: number | null) => (v === null || v === undefined ? '–' : num(v, 2))
    const series: uPlot.Series[] = [
      { label: p.xLabel ?? 'x', value },
      ...p.series.map((s, i) => ({
        stroke: palette[i % 2],
        width: 2,
        spanGaps: true,
        value,
        ...(p.bars
          ? { fill: palette[i % 2] + '99', paths: uPlot.paths.bars!({ size: [0.8, 60] }), points: { show: false } }
          : {}),
        ...s,
      })),
    ]
    plot.current = new uPlot(
      {
        width: el.clientWidth || 300,
        height: p.height,
        series,
        scales: { x: { time: false } },
        axes: p.spark ? [{ show: false }, { show: false }] : [axis(p.xLabel), axis(p.yLabel)],
        legend: { show: !p.spark },
        cursor: p.spark ? { show: false } : { drag: { x: false, y: false } },
        padding: p.spark ? [4, 2, 4, 2] : undefined,
        // the cursor left (or never came): the legend goes back to the point of rest
        hooks: {
          ready: [atRest],
          setCursor: [
            u => {
              if (u.cursor.idx == null) atRest(u)
            },
          ],
        },
      },
      p.data,
      el,
    )
    const resize = new ResizeObserver(() => plot.current?.setSize({ width: el.clientWidth || 300, height: p.height }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      plot.current?.destroy()
      plot.current = null
    }
  }, [shape])
  useEffect(() => {
    const u = plot.current
    if (!u) return
    u.setData(p.data)
    if (u.cursor.idx == null) atRest(u) // new data: the legend follows, unless a point is under the cursor
  }, [p.data])
  return (
    <figure class={p.spark ? 'chart spark' : 'chart'} role="img" aria-label={p.label}>
      <div ref={box} />
      <figcaption>{p.label}</figcaption>
    </figure>
  )
}

/** the last index where any series has a value */
function lastWithValue(data: uPlot.AlignedData): number | null {
  for (let i = data[0].length - 1; i >= 0; i--)
    if (data.slice(1).some(d => d[i] !== null && d[i] !== undefined)) return i
  return null
}

/** light or dark, following the system setting as it changes */
function useScheme(): string {
  const query = matchMedia('(prefers-color-scheme: dark)')
  const [dark, setDark] = useState(query.matches)
  useEffect(() => {
    const on = (e: MediaQueryListEvent) => setDark(e.matches)
    query.addEventListener('change', on)
    return () => query.removeEventListener('change', on)
  }, [])
  return dark ? 'dark' : 'light'
}

/** Counts of `values` in `bins` equal-width bins: bin centres and counts, for a bar chart. */
export function histogram(values: number[], bins = 12): uPlot.AlignedData {
  if (!values.length) return [[], []]
  let lo = Math.min(...values),
    hi = Math.max(...values)
  if (lo === hi) {
    lo -= 1
    hi += 1
  }
  const width = (hi - lo) / bins
  const counts = new Array<number>(bins).fill(0)
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - lo) / width))]! += 1
  return [counts.map((_, i) => lo + width * (i + 0.5)), counts]
}

/** the bin with the most in it: a histogram's legend rests there */
export function fullest(data: uPlot.AlignedData): number | null {
  const counts = (data[1] ?? []) as (number | null)[]
  let best: number | null = null
  counts.forEach((c, i) => {
    if (c !== null && (best === null || c > (counts[best] ?? 0))) best = i
  })
  return best
}
