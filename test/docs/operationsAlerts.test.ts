// The kit's alert rules (deploy/prometheus/rules.yml, explained in docs/operations.md), held against a live engine
// scraped by a real Prometheus: the rules file is valid (promtool), the 5xx selector finds the engine's 503s (the
// old `status="5xx"` found nothing: the label holds the code), and the ingestion alert fires while ingestion never ran and stops once it has.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { findBinary, startPrometheus, type Prometheus } from '../helpers/prometheus.js'
import { SAMPLE } from '../options/fixture.js'

const doc = readFileSync(join(repoRoot, 'docs/operations.md'), 'utf8')
const rulesYaml = readFileSync(join(repoRoot, 'deploy/prometheus/rules.yml'), 'utf8')
const exprOf = (alert: string) => new RegExp(`- alert: ${alert}\\n\\s+expr: (.+)\\n`).exec(rulesYaml)?.[1]
const dir = mkdtempSync(join(tmpdir(), 'alerts-'))
const ruleFile = join(dir, 'rules.yml')

let t: TestEngine
let prom: Prometheus
let errors: NodeJS.Timeout | undefined
before(async () => {
  writeFileSync(ruleFile, rulesYaml)
  t = await startTestEngine({ PUBLIC_RATE_LIMIT_PER_MIN: '1000000' })
  prom = await startPrometheus([new URL(t.api).host], { ruleFile })
})
after(async () => {
  clearInterval(errors)
  await prom?.stop()
  await t?.stop()
  rmSync(dir, { recursive: true, force: true })
})

async function until<T>(what: string, f: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await f()
    if (ok(v)) return v
    if (Date.now() > end) assert.fail(`${what}: ${JSON.stringify(v)}`)
    await new Promise(r => setTimeout(r, 250))
  }
}

test("the kit's rules are a valid Prometheus rules file, and the doc explains each", () => {
  assert.ok(exprOf('ServerErrors') && exprOf('OptionsIngestionStale'), 'both rules are in deploy/prometheus/rules.yml')
  const out = execFileSync(findBinary('promtool', 'PROMTOOL_BIN'), ['check', 'rules', ruleFile], { encoding: 'utf8' })
  assert.match(out, /SUCCESS: \d+ rules found/)
  for (const [, alert] of rulesYaml.matchAll(/- alert: (\w+)/g))
    assert.match(doc, new RegExp(`^- \`${alert}\``, 'm'), `${alert} in docs/operations.md`)
})

test("the 5xx selector and ServerErrors find the engine's 503s", async () => {
  // a route that answers 503 on an engine without a chain (the route finder's scan: NO_CHAIN), all along
  const provoke = () =>
    fetch(`${t.api}/api/v1/sor/pools/scan`, { method: 'POST' }).then(r => assert.equal(r.status, 503))
  await provoke()
  errors = setInterval(() => {
    void provoke()
  }, 200)
  const selector = /`(http_requests_total\{status=~"5\.\."\})`/.exec(doc)?.[1]
  assert.ok(selector, 'the doc names the selector')
  const found = await until(
    'the selector',
    () => prom.query(selector),
    r => r.length > 0,
  )
  assert.deepEqual(
    found.map(s => [s.metric.route, s.metric.status]),
    [['/api/v1/sor/pools/scan', '503']],
  )
  assert.deepEqual(await prom.query('http_requests_total{status="5xx"}'), [], 'the old selector matches nothing')
  await until(
    'ServerErrors',
    () => prom.query(exprOf('ServerErrors')!),
    r => r.length === 1,
  )
  clearInterval(errors)
})

test('OptionsIngestionStale fires while ingestion never ran (no "0 s ago"), and stops once it has', async () => {
  const metrics = await (await fetch(`${t.api}/metrics`)).text()
  assert.match(metrics, /^options_ingest_last_success_timestamp_seconds 0$/m)
  assert.doesNotMatch(metrics, /^options_ingest_last_success_age_seconds /m, 'no age: never is not "0 s ago"')
  await until(
    'OptionsIngestionStale while never',
    () => prom.query(exprOf('OptionsIngestionStale')!),
    r => r.length === 1,
  )
  // a real ingestion run (a replay of the shipped recording) into the engine's database
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  const child = spawn(process.execPath, [join(repoRoot, 'dist/engine/ingest/main.js')], {
    env: { ...env, DATABASE_URL: t.db.url, INGEST_SOURCE: 'replay', INGEST_FILE: SAMPLE, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  })
  assert.equal(await new Promise(r => child.once('exit', r)), 0)
  const after = await (await fetch(`${t.api}/metrics`)).text()
  const ts = Number(/^options_ingest_last_success_timestamp_seconds (\S+)$/m.exec(after)?.[1])
  assert.ok(Math.abs(ts - Date.now() / 1000) < 120, `a recent last success: ${ts}`)
  assert.match(after, /^options_ingest_last_success_age_seconds \d/m)
  await until(
    'OptionsIngestionStale after a run',
    () => prom.query(exprOf('OptionsIngestionStale')!),
    r => r.length === 0,
  )
})
