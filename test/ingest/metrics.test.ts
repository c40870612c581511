// The trade counters count what was stored, for every source: after a replay of the shipped recording
// and after synthetic cycles (also a restarted synthetic market), the ingest process's ingest_trades_total
// (per stream), ingest_state and the engine's /metrics options_ingest_trades_total{source} each equal the
// trades read back from option_trades, the moment the ingestion returns.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { createLogger } from '../../engine/log.js'
import { createIngestMetrics, type IngestMetrics } from '../../engine/ingest/metrics.js'
import { runReplay } from '../../engine/ingest/sources/replay.js'
import { runSynthetic } from '../../engine/ingest/sources/synthetic.js'
import { SAMPLE } from '../options/fixture.js'

let t: TestEngine
const log = createLogger('silent')
before(async () => {
  t = await startTestEngine()
})
after(async () => {
  await t?.stop()
})

/** trades stored per underlying for one source, read back from the table */
async function stored(source: string): Promise<Map<string, number>> {
  const rows = await t.db
    .sql`select underlying, count(*)::int as n from option_trades where source = ${source} group by underlying`
  return new Map(rows.map(r => [r.underlying as string, r.n as number]))
}
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0)

/** the ingest process's own counter, per currency label */
async function counted(m: IngestMetrics): Promise<Map<string, number>> {
  const { values } = await m.registry.getSingleMetric('ingest_trades_total')!.get()
  const out = new Map<string, number>()
  for (const v of values) out.set(String(v.labels.currency), (out.get(String(v.labels.currency)) ?? 0) + v.value)
  return out
}

/** the engine's /metrics, scraped over HTTP */
async function scraped(source: string): Promise<number | null> {
  const text = await (await fetch(t.api + '/metrics')).text()
  const m = new RegExp(`^options_ingest_trades_total\\{source="${source}"\\} (\\d+)$`, 'm').exec(text)
  return m ? Number(m[1]) : null
}

async function stateTotal(source: string): Promise<number> {
  const [r] = await t.db
    .sql`select coalesce(sum(trades_total), 0)::int8 as n from ingest_state where source = ${source}`
  return Number(r!.n)
}

test('replay: every counter equals the trades stored, per stream, at once; a second replay adds nothing to either', async () => {
  assert.equal(await scraped('replay'), null) // nothing ingested yet: no series
  const m = createIngestMetrics('replay')
  const r = await runReplay({ sql: t.db.sql, log, file: SAMPLE, metrics: m })
  const db = await stored('replay')
  assert.ok(sum(db) > 0 && db.size >= 2, 'the recording stores trades of two underlyings')
  assert.equal(r.newTrades, sum(db))
  assert.deepEqual(await counted(m), db) // per stream: the recording's currencies are its underlyings
  assert.equal(await stateTotal('replay'), sum(db))
  assert.equal(await scraped('replay'), sum(db)) // no sampling delay

  const again = createIngestMetrics('replay')
  await runReplay({ sql: t.db.sql, log, file: SAMPLE, metrics: again })
  assert.equal(sum(await counted(again)), 0)
  assert.deepEqual(await stored('replay'), db)
  assert.equal(await stateTotal('replay'), sum(db))
  assert.equal(await scraped('replay'), sum(db))
})

/** runs the synthetic market until `done` says so (checked every 20 ms, 15 s at most), then stops it */
async function synthetic(m: IngestMetrics, done: () => Promise<boolean>): Promise<void> {
  const stop = new AbortController()
  const running = runSynthetic({
    sql: t.db.sql,
    log,
    currencies: ['BTC'],
    intervalMs: 25,
    tradesPerCycle: 5,
    snapshotIntervalMs: 60_000,
    tickersPerCycle: 1,
    backfillMinutes: 0,
    metrics: m,
    signal: stop.signal,
  })
  try {
    for (let i = 0; i < 750 && !(await done()); i++) await new Promise(r => setTimeout(r, 20))
  } finally {
    stop.abort()
    await running
  }
}
const tickers = async () =>
  Number(
    (
      await t.db
        .sql`select count(*)::int as n from option_snapshots s join option_instruments i on i.id = s.instrument_id
  where s.kind = 'ticker' and i.underlying = 'SIMBTC'`
    )[0]!.n,
  )

test('synthetic: cycles are counted as stored; a restarted market continues its ids, so its trades count too', async () => {
  const first = createIngestMetrics('synthetic')
  await synthetic(first, async () => sum(await stored('synthetic')) >= 40)
  const db1 = await stored('synthetic')
  assert.ok(sum(db1) >= 40, String(sum(db1)))
  assert.deepEqual(await counted(first), db1)
  assert.equal(await stateTotal('synthetic'), sum(db1))
  assert.equal(await scraped('synthetic'), sum(db1))

  // a restart: a few cycles (one ticker each), fewer trades than the first run made
  const second = createIngestMetrics('synthetic')
  const tickersBefore = await tickers()
  await synthetic(second, async () => (await tickers()) >= tickersBefore + 3)
  const added = sum(await stored('synthetic')) - sum(db1)
  assert.ok(added > 0, 'the restarted market stored new trades (ids from SIM-1 again were dropped as duplicates)')
  assert.equal(sum(await counted(second)), added)
  assert.equal(await stateTotal('synthetic'), sum(db1) + added)
  assert.equal(await scraped('synthetic'), sum(db1) + added)
  assert.equal(await scraped('replay'), sum(await stored('replay'))) // per source: the replay's count is its own
})
