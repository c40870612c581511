// Every metric the kit and the docs name exists on a live engine's /metrics: the alert rules' and the dashboard's
// queries (deploy/prometheus/rules.yml, deploy/grafana/rfq-venue.json), and every metric the docs name (the
// docs-truth test). The engine is a cluster node, which exports everything a single node does and the cluster's
// families. `up` is Prometheus' own.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { startSecureNats, type SecureNats } from '../cluster/secureNats.js'
import { exported, metricNames } from './metricNames.js'

const read = (p: string) => readFileSync(join(repoRoot, p), 'utf8')
const PROMETHEUS_OWN = new Set(['up'])

let nats: SecureNats
let t: TestEngine
let names: Set<string>
before(async () => {
  nats = await startSecureNats(['n1', 'n2'])
  t = await startTestEngine({ ...nats.env('n1'), DATA_DIR: mkdtempSync(join(tmpdir(), 'names-n1-')) })
  names = exported(await (await fetch(`${t.api}/metrics`)).text())
})
after(async () => {
  await t?.stop()
  await nats?.close()
})

const missing = (exprs: string[]) =>
  [...new Set(exprs.flatMap(metricNames))].filter(n => !PROMETHEUS_OWN.has(n) && !names.has(n))

test('metricNames reads names out of PromQL, and nothing else', () => {
  assert.deepEqual(
    metricNames('histogram_quantile(0.99, sum by (instance, le) (rate(a_seconds_bucket{x=~"b_c"}[5m]))) > 0.25'),
    ['a_seconds_bucket'],
  )
  assert.deepEqual(metricNames('x_total / y_total or z == 0 and scalar(count(up{job="j"})) - 1'), [
    'x_total',
    'y_total',
    'z',
    'up',
  ])
})

test('every metric the alert rules name is on /metrics', () => {
  const exprs = [...read('deploy/prometheus/rules.yml').matchAll(/expr: (?:>-\n)?([\s\S]+?)\n\s+for:/g)].map(m => m[1]!)
  assert.equal(exprs.length, 8)
  assert.deepEqual(missing(exprs), [])
})

test("every metric the dashboard's queries name is on /metrics", () => {
  const dash = JSON.parse(read('deploy/grafana/rfq-venue.json')) as { panels: { targets?: { expr: string }[] }[] }
  const exprs = dash.panels.flatMap(p => p.targets ?? []).map(x => x.expr)
  assert.ok(exprs.length > 25)
  assert.deepEqual(missing(exprs), [])
})

// backticked names with a metric's prefix, in every doc; what shares a prefix but is no metric is named here
const PREFIX =
  /^(relay|rfq|cluster|sor|options_ingest|http|database|actor|process|nodejs|worker_pool|route_pool|engine)_/
const NOT_METRICS = new Set([
  'sor_protocols',
  'sor_pools',
  'sor_pool_state', // tables (docs/route-finder.md)
  'rfq_',
  'rfq_live_', // id and key prefixes (docs/rfq-api.md)
  'rfq_id',
  'rfq_day', // quote columns (docs/operations.md, sizing)
  'rfq_key', // the SQL function that makes a quote's RFQ key (docs/benchmarks.md)
])

test('every metric the docs name is on /metrics (the docs-truth test)', () => {
  const docs = [
    ...readdirSync(join(repoRoot, 'docs'))
      .filter(f => f.endsWith('.md'))
      .map(f => `docs/${f}`),
    'README.md',
    'deploy/README.md',
  ]
  const named = new Map<string, string>()
  for (const doc of docs) {
    for (const [, name] of read(doc).matchAll(/`([a-z][a-z0-9_]*)(?:\{[^`]*\})?`/g)) {
      if (PREFIX.test(name!) && !NOT_METRICS.has(name!)) named.set(name!, doc)
    }
  }
  assert.ok(named.size > 40, `the docs name metrics: ${named.size}`)
  assert.deepEqual(
    [...named].filter(([n]) => !names.has(n)).map(([n, doc]) => `${n} (${doc})`),
    [],
  )
})
