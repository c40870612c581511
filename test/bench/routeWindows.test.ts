// The relay bench's three kinds of paced window read against each other: issue 34's R (with route searches vs
// without), the control's ratio (creations alone vs without) and the searches' own share (with searches vs creations
// alone), each pooled and by the median of the windows' own p99s, the control named for what it held.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { routeWindowLines, type Kind, type PacedWindow, type Pooled } from '../../bench/lib/routeWindows.js'
import type { Stalls } from '../../bench/lib/stalls.js'

const calm: Stalls = { loopP99: 1, loopMax: 2, gcMs: 3, gcMax: 1, minorMs: 3, majorMs: 0, majorMax: 0 }
/** a window whose 100 latencies are all `ms` (so its p99 is `ms`) */
const window = (ms: number): PacedWindow => ({ latencies: Array(100).fill(ms), stalls: calm, ownStalls: calm })
const threads = { mainCpu: 1, mainWait: 2, nicedCpu: 3, nicedWait: 4, otherCpu: 5, otherWait: 6, pgCpu: 7, loadCpu: 8 }
/** a kind of window: its windows' p99s, and a pooled p99 given apart (as a stall in one window moves it) */
const kind = (p99s: number[], pooledP99: number): Kind<PacedWindow> => ({
  windows: p99s.map(window),
  pooled: { p99: pooledP99, cpuMs: 100, ...calm, threads } satisfies Pooled,
})

const line = (lines: string[], start: string) => {
  const found = lines.find(l => l.startsWith(start))
  assert.ok(found, `no line starting "${start}" in:\n${lines.join('\n')}`)
  return found
}

test("R, the control's ratio and the searches' own share, pooled and by the windows' median p99", () => {
  const lines = routeWindowLines(kind([10, 20, 12], 20), kind([15, 30, 18], 36), kind([11, 40, 12], 24))
  // medians of the windows' p99s: without 12, with searches 18, creations alone 12
  assert.match(
    line(lines, "paced p99 with route searches vs without, median of the windows' p99s: "),
    /: 1\.50 \(18\.00 ms vs 12\.00 ms\)$/,
  )
  assert.match(line(lines, 'paced p99 with route searches vs without: '), /: 1\.80 \(36\.00 ms vs 20\.00 ms;/)
  assert.match(
    line(lines, "paced p99 with RFQ creations alone (no route search) vs without, median of the windows' p99s: "),
    /: 1\.00 \(12\.00 ms vs 12\.00 ms\)$/,
  )
  assert.match(line(lines, 'paced p99 with RFQ creations alone (no route search) vs without: '), /: 1\.20 /)
  assert.match(
    line(lines, "paced p99 with route searches vs with creations alone (the searches' own share): "),
    /: 1\.50 \(36\.00 ms vs 24\.00 ms;/,
  )
  // the line is the last, so a reader of the bench's tail finds it
  assert.match(lines.at(-1)!, /^paced p99 with route searches vs without: 1\.80 /)
  assert.match(line(lines, 'paced p99 by window (ms), without: '), /with creations alone: 11\.0 .*40\.0 .*12\.0 /)
})

test('a control that held more than the creations is named for it; without a control, only R', () => {
  const spun = routeWindowLines(kind([10], 10), kind([20], 20), kind([30], 30), 'creations alone and a spinner')
  line(spun, 'paced p99 with creations alone and a spinner vs without: 3.00 ')
  line(spun, 'paced p99 with route searches vs with creations alone and a spinner: 0.67 ')
  assert.ok(!spun.some(l => l.includes("searches' own share")), "a spinner's control is not the searches' own share")
  const two = routeWindowLines(kind([10], 10), kind([20], 20), null)
  assert.deepEqual(
    two.filter(l => l.startsWith('paced p99 with')).map(l => l.split(':')[0]),
    [
      "paced p99 with route searches vs without, median of the windows' p99s",
      'paced p99 with route searches vs without',
    ],
  )
})
