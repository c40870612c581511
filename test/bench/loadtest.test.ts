// The load-testing tool against an engine started here, as an operator would run it against theirs:
// a real child process, real WebSockets and HTTP. Every quote it reports accepted is stored, the
// report files are written and self-contained (their charts read in Chromium: labelled axes, legends with
// values), the ramp finds (or says why it cannot find) a holding rate, and a first run against a target with
// the relay's default message limit says in one line what to raise.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent } from '../api/agentKit.js'
import { repoRoot } from '../../engine/paths.js'
import { launchChromium } from '../browser/chromium.js'

declare const window: any

/**
 * report.html as a person reads it, in Chromium: nothing fetched, every series drawn against an axis of its
 * own scale with a label (accepted/s is not on the milliseconds axis), and every legend value a number.
 */
async function readReportInChromium(file: string): Promise<void> {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    const fetched: string[] = []
    page.on('request', q => {
      if (!q.url().startsWith('file:')) fetched.push(q.url())
    })
    const errors: string[] = []
    page.on('pageerror', e => errors.push(e.message))
    await page.goto(`file://${file}`)
    const charts = await page.evaluate(() =>
      window.charts.map((u: any) => ({
        series: u.series.slice(1).map((s: any) => ({ label: s.label, scale: s.scale })),
        axes: u.axes.map((a: any) => ({ scale: a.scale, label: a.label })),
        legend: [...u.root.querySelectorAll('.u-legend .u-value')].map((v: any) => v.textContent),
      })),
    )
    assert.deepEqual(errors, [])
    assert.deepEqual(fetched, [])
    assert.equal(charts.length, 2)
    for (const c of charts) {
      assert.ok(
        c.axes.every((a: { label?: string }) => a.label),
        JSON.stringify(c.axes),
      )
      for (const s of c.series) {
        assert.ok(
          c.axes.some((a: { scale: string }) => a.scale === s.scale),
          `${s.label} has an axis of its scale ${s.scale}`,
        )
      }
      assert.ok(c.legend.length > 1 && c.legend.every((v: string) => /^\d+(\.\d+)?$/.test(v)), c.legend.join(' | '))
    }
    const time = charts[0]!
    assert.deepEqual(
      time.series.map((s: { label: string; scale: string }) => [s.label, s.scale]),
      [
        ['p50 ms', 'ms'],
        ['p99 ms', 'ms'],
        ['accepted/s', 'n'],
      ],
    )
    assert.equal(time.axes.find((a: { scale: string }) => a.scale === 'n').label, 'accepted quotes/s')
  } finally {
    await browser.close()
  }
}

const tool = join(repoRoot, 'dist/bench/loadtest.js')

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [tool, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = '',
      stderr = ''
    child.stdout.on('data', d => {
      stdout += d
    })
    child.stderr.on('data', d => {
      stderr += d
    })
    child.on('exit', code => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

describe('bench/loadtest.js against a running engine', () => {
  let t: TestEngine
  let key: string
  before(async () => {
    t = await startTestEngine({
      RATE_LIMIT_PER_MIN: '100000000',
      PUBLIC_RATE_LIMIT_PER_MIN: '100000',
      AGENT_RATE_PER_MIN: '100000',
      AGENT_RATE_PER_HOUR: '1000000',
    })
    key = (await newAgent(t.api, ['taker'])).key
  })
  after(() => t.stop())

  test('--help explains itself and exits 0', async () => {
    const r = await run(['--help'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /^Usage: node dist\/bench\/loadtest\.js/)
    assert.match(r.stdout, /--relay URL/)
    assert.match(r.stdout, /--ramp/)
  })

  test('a bad option value is one line and exit 2', async () => {
    const r = await run(['--relay', t.relayWs, '--api', t.api, '--key', key, '--rate', 'fast'])
    assert.equal(r.code, 2)
    assert.equal(r.stderr.trim().split('\n').length, 1)
    assert.match(r.stderr, /--rate must be a number/)
  })

  test('a rate of zero or below is named as such, not taken for a missing value', async () => {
    for (const rate of ['-5', '0', '-0.5']) {
      const r = await run(['--relay', t.relayWs, '--api', t.api, '--key', key, '--rate', rate])
      assert.equal(r.code, 2, rate)
      assert.equal(r.stderr, `loadtest: --rate must be above 0 (got ${rate})\n`)
    }
  })

  test('a fixed-rate run: progress every second, every accepted quote stored, report.json and a self-contained report.html', async () => {
    const out = mkdtempSync(join(tmpdir(), 'loadtest-'))
    const r = await run([
      '--relay',
      t.relayWs,
      '--api',
      t.api,
      '--key',
      key,
      '--rate',
      '100',
      '--seconds',
      '2',
      '--out',
      out,
      '--connections',
      '4',
    ])
    assert.equal(r.code, 0, r.stderr)
    assert.ok(
      r.stdout
        .split('\n')
        .filter(l =>
          /^\[\s*\d+s\] rate 100\/s +sent \d+ +accepted \d+ +errors \S+ +p50 [\d.]+ ms +p99 [\d.]+ ms$/.test(l),
        ).length >= 1,
      r.stdout,
    )
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))
    assert.equal(report.sent, 200)
    assert.equal(report.accepted, 200)
    assert.deepEqual(report.errors, {})
    assert.ok(
      report.latencyMs.p50 > 0 &&
        report.latencyMs.p50 <= report.latencyMs.p99 &&
        report.latencyMs.p99 <= report.latencyMs.max,
    )
    assert.equal(
      report.histogram.reduce((a: number, b: { count: number }) => a + b.count, 0),
      200,
    )
    const [{ n }] = (await t.db.sql`select count(*)::int as n from quotes`) as unknown as [{ n: number }]
    assert.equal(n, report.accepted) // acknowledged means stored
    const html = readFileSync(join(out, 'report.html'), 'utf8')
    assert.deepEqual(html.match(/\s(?:src|href)=["'][^"']*["']/g) ?? [], []) // nothing loaded from elsewhere
    assert.match(html, /uPlot/)
    assert.match(html, /Latency distribution \(HDR histogram\)/)
    assert.equal(report.diagnosis, undefined) // every quote accepted: nothing to explain
    await readReportInChromium(join(out, 'report.html'))
  })

  /** a ramp run's report, from `--start-rate`, `--max-rate` and `--p99-target` */
  async function ramp(start: number, max: number, p99: string, more: string[] = []) {
    const out = mkdtempSync(join(tmpdir(), 'loadtest-'))
    const r = await run([
      '--relay',
      t.relayWs,
      '--api',
      t.api,
      '--key',
      key,
      '--ramp',
      '--start-rate',
      String(start),
      '--max-rate',
      String(max),
      '--step-seconds',
      '1',
      '--p99-target',
      p99,
      '--out',
      out,
      ...more,
    ])
    assert.equal(r.code, 0, r.stderr)
    return { report: JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')), stdout: r.stdout }
  }

  test('ramp: steps up while the p99 target holds and reports the highest holding rate', async () => {
    const { report } = await ramp(50, 100, '5000')
    assert.equal(report.mode, 'ramp')
    assert.deepEqual(
      report.steps.map((s: { rate: number; holds: boolean }) => [s.rate, s.holds]),
      [
        [50, true],
        [100, true],
      ],
    )
    assert.equal(report.ramp.highestHoldingRate, 100)
  })

  test('ramp: an impossible target holds at no rate: it searches down to --min-rate and says what failed there', async () => {
    const { report, stdout } = await ramp(50, 50, '0.01', ['--min-rate', '10'])
    assert.equal(report.ramp.highestHoldingRate, null)
    assert.deepEqual(
      report.steps.map((s: { rate: number; holds: boolean }) => [s.rate, s.holds]),
      [
        [50, false],
        [25, false],
        [12, false],
        [10, false],
      ],
    )
    assert.match(
      report.ramp.summary,
      new RegExp(
        '^no rate holds p99 <= 0\\.01 ms with errors under 1%: ' +
          'the lowest tried, 10/s \\(--min-rate\\), failed: p99 [\\d.]+ ms is above 0\\.01 ms$',
      ),
    )
    assert.ok(stdout.includes(`ramp: ${report.ramp.summary}\n`), stdout)
  })
})

describe("bench/loadtest.js against an engine with the relay's default message limit", () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine()
  })
  after(() => t.stop())

  test('most quotes refused: one line names RATE_LIMITED and the RATE_LIMIT_PER_MIN that fits the rate', async () => {
    const key = (await newAgent(t.api, ['taker'])).key
    const out = mkdtempSync(join(tmpdir(), 'loadtest-'))
    const r = await run([
      '--relay',
      t.relayWs,
      '--api',
      t.api,
      '--key',
      key,
      '--rate',
      '100',
      '--seconds',
      '1',
      '--out',
      out,
      '--connections',
      '4',
    ])
    assert.equal(r.code, 0, r.stderr)
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))
    assert.equal(report.accepted, 30) // RATE_LIMIT_PER_MIN's default, 30 a minute from this IP
    assert.ok(report.errors.RATE_LIMITED >= 1)
    const line =
      '70 of 100 quotes not accepted: the relay answered RATE_LIMITED (its per-IP message limit, ' +
      'RATE_LIMIT_PER_MIN) and dropped the rest; restart the target with RATE_LIMIT_PER_MIN=7500 ' +
      "(fits 100 quotes/s from this machine's one IP, with room to spare)"
    assert.equal(r.stdout.split('\n').filter(l => l === line).length, 1, r.stdout)
    assert.equal(report.diagnosis, line)
    assert.ok(readFileSync(join(out, 'report.html'), 'utf8').includes(line), 'report.html says it too')
  })
})
