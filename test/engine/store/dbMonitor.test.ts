// The database monitor (engine/store/dbMonitor.ts): a live probe's outcome is the monitor's, and of overlapping
// probes the one started last decides, whichever settles first: a ping that failed while the server restarted never
// overrules a probe that has seen it back, and an old success never hides an outage a later probe saw.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { monitorDatabase } from '../../../engine/store/dbMonitor.js'
import type { Sql } from '../../../engine/store/db.js'

/** A stand-in for postgres.js's tagged template: each query waits until the test settles it. */
function controlledSql() {
  const pending: { ok: () => void; fail: (e: Error) => void }[] = []
  const sql = (() =>
    new Promise<void>((ok, fail) => {
      pending.push({ ok, fail })
    })) as unknown as Sql
  return { sql, pending }
}
const turn = () => new Promise(r => setImmediate(r))

test('the probe started last decides, whichever settles first', async () => {
  const { sql, pending } = controlledSql()
  const logged: string[] = []
  const log = {
    warn: (_o: object, m: string) => void logged.push(m),
    info: (_o: object, m: string) => void logged.push(m),
  }
  const mon = monitorDatabase(sql, { intervalMs: 3_600_000, log })
  assert.equal(mon.up, true)
  const older = mon.probe(),
    newer = mon.probe()
  pending[1]!.ok() // the later probe sees the database...
  assert.equal(await newer, true)
  pending[0]!.fail(new Error('ECONNREFUSED')) // ...and the earlier one's failure, settling after, does not count
  assert.equal(await older, false, 'the probe itself answers what it saw')
  assert.equal(mon.up, true)
  const before = mon.probe(),
    after = mon.probe()
  pending[3]!.fail(new Error('connection reset')) // the later one sees the outage
  await after
  pending[2]!.ok() // an older success settling late does not hide it
  await before
  assert.equal(mon.up, false)
  assert.deepEqual(logged, ['database does not answer: health reads degraded until it does'])
  const back = mon.probe()
  pending[4]!.ok()
  assert.equal(await back, true)
  assert.equal(mon.up, true)
  assert.equal(logged.at(-1), 'database answers again')
  mon.stop()
})

test('a probe the database never answers reads as down after the timeout', async () => {
  const { sql } = controlledSql()
  const mon = monitorDatabase(sql, { intervalMs: 3_600_000, timeoutMs: 30 })
  assert.equal(await mon.probe(), false)
  assert.equal(mon.up, false)
  mon.stop()
})

test('the pings: one at a time against a hung server, and they follow it down and back', async () => {
  const { sql, pending } = controlledSql()
  const mon = monitorDatabase(sql, { intervalMs: 10, timeoutMs: 60_000 })
  await new Promise(r => setTimeout(r, 80))
  assert.equal(pending.length, 1, 'a ping still waiting: no second one')
  pending[0]!.fail(new Error('down'))
  await turn()
  assert.equal(mon.up, false)
  await new Promise(r => setTimeout(r, 30))
  for (const p of pending.slice(1)) p.ok()
  await turn()
  assert.equal(mon.up, true)
  mon.stop()
})
