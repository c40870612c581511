// /metrics by Prometheus' conventions, as Debian's promtool judges them (`promtool check metrics` prints
// nothing: counters end in _total and only counters do, base units, help on every family), on a single node
// and on a cluster node (which adds the cluster's families); a malformed scrape request is a 4xx like any
// other route; and no label of the quote-flow families carries client data.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { findBinary } from '../helpers/prometheus.js'
import { startSecureNats, type SecureNats } from '../cluster/secureNats.js'

export function promtoolCheck(text: string): string {
  try {
    return execFileSync(findBinary('promtool', 'PROMTOOL_BIN'), ['check', 'metrics'], {
      input: text,
      encoding: 'utf8',
      stdio: 'pipe',
    })
  } catch (e) {
    const x = e as { stdout?: string; stderr?: string }
    return `${x.stdout ?? ''}${x.stderr ?? ''}` || String(e)
  }
}

const scrape = async (api: string) => {
  const r = await fetch(`${api}/metrics`)
  assert.equal(r.status, 200)
  return r.text()
}

describe('a single node', () => {
  let t: TestEngine
  before(async () => {
    t = await startTestEngine()
  })
  after(async () => {
    await t?.stop()
  })

  test('promtool check metrics prints nothing for /metrics', async () => {
    assert.equal(promtoolCheck(await scrape(t.api)), '')
  })

  test('no family exported as a gauge ends in _total, and every counter does', async () => {
    const types = [...(await scrape(t.api)).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(m => [m[1]!, m[2]!] as const)
    assert.ok(types.length > 50, 'a full scrape')
    assert.deepEqual(
      types.filter(([n, ty]) => ty !== 'counter' && n.endsWith('_total')),
      [],
    )
    assert.deepEqual(
      types.filter(([n, ty]) => ty === 'counter' && !n.endsWith('_total')),
      [],
    )
  })

  test('a malformed scrape request is a 4xx like any other route', async () => {
    const wrongMethod = await fetch(`${t.api}/metrics`, { method: 'POST', body: 'x' })
    assert.ok(wrongMethod.status >= 400 && wrongMethod.status < 500, `POST /metrics: ${wrongMethod.status}`)
    const deleted = await fetch(`${t.api}/metrics`, { method: 'DELETE' })
    assert.ok(deleted.status >= 400 && deleted.status < 500, `DELETE /metrics: ${deleted.status}`)
    const badPath = await fetch(`${t.api}/metrics/%ZZ`)
    assert.ok(badPath.status >= 400 && badPath.status < 500, `a malformed path: ${badPath.status}`)
    assert.equal((await fetch(`${t.api}/metrics`)).status, 200, 'and /metrics still answers')
  })
})

describe('a cluster node', () => {
  let nats: SecureNats
  let t: TestEngine
  before(async () => {
    nats = await startSecureNats(['n1', 'n2'])
    t = await startTestEngine({ ...nats.env('n1'), DATA_DIR: mkdtempSync(join(tmpdir(), 'metrics-n1-')) })
  })
  after(async () => {
    await t?.stop()
    await nats?.close()
  })

  test("promtool check metrics prints nothing for /metrics, the cluster's families included", async () => {
    const text = await scrape(t.api)
    assert.match(text, /^# TYPE cluster_peers gauge$/m)
    assert.match(text, /^# TYPE cluster_apply_lag_seconds histogram$/m)
    assert.match(text, /^# TYPE cluster_messages_dropped_total counter$/m)
    assert.equal(promtoolCheck(text), '')
  })
})
