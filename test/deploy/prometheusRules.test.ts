// deploy/prometheus/ held by Debian's promtool: the scrape config and its rules are valid, and every alert rule
// has unit tests (rules.test.yml) that pass: each fires on the series that should fire it, after its `for`.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { findBinary } from '../helpers/prometheus.js'

const dir = join(repoRoot, 'deploy/prometheus')
const promtool = (...args: string[]) =>
  execFileSync(findBinary('promtool', 'PROMTOOL_BIN'), args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' })
const alerts = [...readFileSync(join(dir, 'rules.yml'), 'utf8').matchAll(/- alert: (\w+)/g)].map(m => m[1]!)

test('the scrape config and its rules file are valid', () => {
  assert.match(promtool('check', 'config', 'prometheus.yml'), /SUCCESS: prometheus\.yml is valid/)
  assert.match(promtool('check', 'rules', 'rules.yml'), new RegExp(`SUCCESS: ${alerts.length} rules found`))
})

test("the issue's alerts are all there", () => {
  assert.deepEqual(alerts.sort(), [
    'ClusterPeerMissing',
    'DatabaseUnavailable',
    'DiskFilling',
    'EngineNodeDown',
    'OptionsIngestionStale',
    'RelayBusyShareHigh',
    'RelayQuoteLatencyHigh',
    'ServerErrors',
  ])
})

test('promtool test rules passes, and every alert has a test that expects it to fire', () => {
  assert.match(promtool('test', 'rules', 'rules.test.yml'), /SUCCESS/)
  const tests = readFileSync(join(dir, 'rules.test.yml'), 'utf8')
  for (const a of alerts) {
    assert.match(
      tests,
      new RegExp(`alertname: ${a}\\n\\s+exp_alerts:\\n\\s+- exp_labels`),
      `${a} has a test where it fires`,
    )
  }
})
