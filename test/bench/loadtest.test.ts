// The load-testing tool against an engine started here, as an operator would run it against theirs:
// a real child process, real WebSockets and HTTP. Every quote it reports accepted is stored, the
// report files are written and self-contained, and the ramp finds (or fails to find) a holding rate.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent } from '../api/agentKit.js'
import { repoRoot } from '../../engine/paths.js'

const tool = join(repoRoot, 'dist/bench/loadtest.js')

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [tool, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = '', stderr = ''
    child.stdout.on('data', d => { stdout += d })
    child.stderr.on('data', d => { stderr += d })
    child.on('exit', code => resolve({ code: code ?? 1, stdout, stderr }))
  })
}

describe('bench/loadtest.js against a running engine', () => {
  let t: TestEngine
  let key: string
  before(async () => {
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000000', PUBLIC_RATE_LIMIT_PER_MIN: '100000', AGENT_RATE_PER_MIN: '100000', AGENT_RATE_PER_HOUR: '1000000' })
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

  test('a fixed-rate run: progress every second, every accepted quote stored, report.json and a self-contained report.html', async () => {
    const out = mkdtempSync(join(tmpdir(), 'loadtest-'))
    const r = await run(['--relay', t.relayWs, '--api', t.api, '--key', key, '--rate', '100', '--seconds', '2', '--out', out, '--connections', '4'])
    assert.equal(r.code, 0, r.stderr)
    assert.ok(r.stdout.split('\n').filter(l => /^\[\s*\d+s\] rate 100\/s +sent \d+ +accepted \d+ +errors \S+ +p50 [\d.]+ ms +p99 [\d.]+ ms$/.test(l)).length >= 1, r.stdout)
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))
    assert.equal(report.sent, 200)
    assert.equal(report.accepted, 200)
    assert.deepEqual(report.errors, {})
    assert.ok(report.latencyMs.p50 > 0 && report.latencyMs.p50 <= report.latencyMs.p99 && report.latencyMs.p99 <= report.latencyMs.max)
    assert.equal(report.histogram.reduce((a: number, b: { count: number }) => a + b.count, 0), 200)
    const [{ n }] = await t.db.sql`select count(*)::int as n from quotes` as unknown as [{ n: number }]
    assert.equal(n, report.accepted)                        // acknowledged means stored
    const html = readFileSync(join(out, 'report.html'), 'utf8')
    assert.deepEqual(html.match(/\s(?:src|href)=["'][^"']*["']/g) ?? [], [])    // nothing loaded from elsewhere
    assert.match(html, /uPlot/)
    assert.match(html, /Latency distribution \(HDR histogram\)/)
  })

  /** a ramp run's report, from `--start-rate`, `--max-rate` and `--p99-target` */
  async function ramp(start: number, max: number, p99: string) {
    const out = mkdtempSync(join(tmpdir(), 'loadtest-'))
    const r = await run(['--relay', t.relayWs, '--api', t.api, '--key', key, '--ramp', '--start-rate', String(start), '--max-rate', String(max),
      '--step-seconds', '1', '--p99-target', p99, '--out', out])
    assert.equal(r.code, 0, r.stderr)
    return JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))
  }

  test('ramp: steps up while the p99 target holds and reports the highest holding rate', async () => {
    const report = await ramp(50, 100, '5000')
    assert.equal(report.mode, 'ramp')
    assert.deepEqual(report.steps.map((s: { rate: number; holds: boolean }) => [s.rate, s.holds]), [[50, true], [100, true]])
    assert.equal(report.ramp.highestHoldingRate, 100)
  })

  test('ramp: an impossible target holds at no rate', async () => {
    const report = await ramp(50, 50, '0.01')
    assert.equal(report.ramp.highestHoldingRate, null)
    assert.equal(report.steps[0].holds, false)
  })
})
