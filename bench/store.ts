// The store at size (issue 30's figures). Run: node dist/bench/store.js
//
// On its own embedded PostgreSQL (or DATABASE_URL's server), the engine in a child process (relayEngine.ts, as the
// relay bench runs it), fresh makers' quotes pre-signed (10 makers quote each RFQ). In one run:
//   1. BENCH_STORE_QUOTES quotes (10 per RFQ) over BENCH_STORE_DAYS past days, written by COPY FROM STDIN
//      (store/rows.ts: each day's partition loaded, then indexed, then attached); bytes per stored quote;
//   2. an empty store (a second database on the same server, holding only today's 2,000 ended RFQs and their 20,000
//      quotes, as the full one does too) and the full one in turn, twice each, each on a fresh engine: relay
//      throughput (a bounded window in flight, as fast as accepted) and the p99 of reading an RFQ with its quotes over
//      HTTP (on the full store, spread over old days and today); the rounds' means compared;
//   3. the relay paced at half its rate on the full store (the mean), then again while the oldest day's partition is
//      dropped by the engine's retention path (in its process, on its pool): p99 over the seconds around the drop vs
//      the same seconds paced without it;
//   4. archive export and restore of a BENCH_STORE_ARCHIVE_ROWS-quote partition (lib/archiveRun.ts).
// Each figure is a line of its own ("bytes per stored quote: ...", "relay throughput at 50M stored vs empty: ...",
// "RFQ detail p99 at 50M vs empty: ...", "p99 during a partition drop vs paced: ...", "archive export: ...").
// The database is dropped and its server's data dir removed at the end, on failure and on Ctrl-C too. 50M quotes take
// ~30 GB of disk and ~13 min here (docs/benchmarks.md).
// Env: BENCH_STORE_QUOTES (50000000), BENCH_STORE_DAYS (30), BENCH_STORE_RELAY_QUOTES (40000, each throughput run),
// BENCH_STORE_READS (4000), BENCH_STORE_PACED_SECS (6), BENCH_STORE_ARCHIVE_ROWS (1000000), BENCH_STORE_ROUNDS (2).
import { fileURLToPath, pathToFileURL } from 'node:url'
import { rmSync, statfsSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot } from '../engine/paths.js'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { partitionName, ensurePartitions } from '../engine/store/partitions.js'
import { connect } from '../engine/store/db.js'
import { benchDatabase, type BenchDatabase } from './lib/benchDb.js'
import { freshMakers, checkAgainstViem } from './lib/presign.js'
import { engineMain } from './lib/relayEngine.js'
import { runStep, pct } from './lib/relayLoad.js'
import { cpuSnapshot } from './lib/relayCpu.js'
import { postmasterPid, treeUsSince } from './lib/procCpu.js'
import { archiveLine, seedQuoteDay, timeArchive } from './lib/archiveRun.js'
import { loadPastDay, loadToday } from './store/rows.js'
import { quoteSizing, sizingLines } from './store/sizing.js'
import { startBenchEngine, DOMAIN, type BenchEngine } from './store/engine.js'
import { throughput, detailReads } from './store/drive.js'

const env = (k: string, d: number) => Number(process.env[k] ?? d)
const QUOTES = env('BENCH_STORE_QUOTES', 50_000_000)
const DAYS = env('BENCH_STORE_DAYS', 30)
const RELAY_QUOTES = env('BENCH_STORE_RELAY_QUOTES', 40_000)
const READS = env('BENCH_STORE_READS', 4000)
const PACED_SECS = env('BENCH_STORE_PACED_SECS', 6)
const ARCHIVE_ROWS = env('BENCH_STORE_ARCHIVE_ROWS', 1_000_000)
const PER_RFQ = 10
const DAY_MS = 86_400_000
const script = fileURLToPath(import.meta.url)
const size = QUOTES >= 1e6 ? `${+(QUOTES / 1e6).toFixed(1)}M` : String(QUOTES)
const ratio = (a: number, b: number) => (a / b).toFixed(2)
const ROUNDS = env('BENCH_STORE_ROUNDS', 2)
type Measured = Awaited<ReturnType<typeof measure>>
/** the rounds' mean of each figure, the read errors summed */
const mean = (ms: Measured[]) => ({
  rate: ms.reduce((a, m) => a + m.t.rate, 0) / ms.length,
  cpuUs: ms.reduce((a, m) => a + m.cpuUs, 0) / ms.length,
  p99: ms.reduce((a, m) => a + m.p99, 0) / ms.length,
  readErrors: ms.reduce((a, m) => a + m.readErrors, 0),
})

type Db = Omit<BenchDatabase, 'sibling'>
let db: BenchDatabase | undefined
/** the empty store: a database of its own on the same server, measured in turn with the full one */
let emptyDb: Db | undefined
let engine: BenchEngine | undefined
const makers = freshMakers(PER_RFQ)

/**
 * The store settled as it would be after a day of traffic, not mid bulk-load: `rfqs` vacuumed and analysed (its hint
 * bits set, autovacuum's counters reset), then a checkpoint, so neither lands in a measured phase.
 */
async function settle(on: Db): Promise<void> {
  await on.sql.unsafe(`vacuum analyze rfqs, ${partitionName('quotes', new Date().toISOString().slice(0, 10))}`)
  await on.sql.unsafe('checkpoint')
}

/** throughput (the best of two runs, after a warm-up) and reads on a freshly started engine */
async function measure(on: Db, ids: readonly string[], groupOf?: (id: string) => string) {
  await settle(on)
  engine = await startBenchEngine(script, on.url)
  const warm = await engine.quotes(Math.ceil(RELAY_QUOTES / 5), makers)
  await checkAgainstViem(DOMAIN, warm[0]!) // our digest and signature, checked against viem's
  await throughput(engine.relay, warm)
  const pg = await postmasterPid(on.sql)
  const runs = []
  for (let i = 0; i < 2; i++) {
    const quotes = await engine.quotes(RELAY_QUOTES, makers)
    const cpu0 = cpuSnapshot(engine.child.pid!, pg)
    const t = await throughput(engine.relay, quotes)
    const cpu1 = cpuSnapshot(engine.child.pid!, pg)
    const cpuUs = (cpu1.mainUs + cpu1.otherUs - cpu0.mainUs - cpu0.otherUs + treeUsSince(cpu0.pg, cpu1.pg)) / t.accepted
    console.log(
      `  relay: ${Math.round(t.rate)} quotes/s (accepted ${t.accepted}, BUSY ${t.busy}, other errors ` +
        `${t.errors - t.busy}); engine + PostgreSQL CPU ${cpuUs.toFixed(0)} µs a quote`,
    )
    runs.push({ t, cpuUs })
  }
  const best = runs[0]!.t.rate >= runs[1]!.t.rate ? runs[0]! : runs[1]!
  await detailReads(engine.api, engine.relay, ids, Math.ceil(READS / 5)) // warm-up
  const reads = await detailReads(engine.api, engine.relay, ids, READS, groupOf)
  const groups = groupOf
    ? '; ' +
      [...reads.groups]
        .map(([g, h]) => `${g}: p50 ${pct(h, 50).toFixed(2)} ms, p99 ${pct(h, 99).toFixed(2)} ms`)
        .join('; ')
    : ''
  console.log(
    `  RFQ with its quotes: p50 ${pct(reads.latency, 50).toFixed(2)} ms, p99 ${pct(reads.latency, 99).toFixed(2)} ms ` +
      `(${READS} reads over ${ids.length} RFQs, ${reads.errors} errors)${groups}`,
  )
  return {
    t: best.t,
    cpuUs: Math.min(...runs.map(r => r.cpuUs)),
    p99: pct(reads.latency, 99),
    readErrors: reads.errors,
  }
}

const freeBytes = () => statfsSync(script).bavail * statfsSync(script).bsize

async function generate(): Promise<{ partitions: string[]; sample: string[]; rows: number }> {
  const perDay = Math.ceil(QUOTES / DAYS)
  const partitions: string[] = [],
    sample: string[] = []
  let rows = 0
  const t0 = performance.now()
  for (let d = DAYS; d >= 1; d--) {
    if (freeBytes() < 3 * 2 ** 30) throw new Error(`less than 3 GiB of disk left after ${rows} quotes: stopped`)
    const t = performance.now()
    const day = await loadPastDay(db!.sql, d, perDay, PER_RFQ)
    partitions.push(partitionName('quotes', day.day))
    sample.push(...day.sample)
    rows += day.quotes
    const s = (performance.now() - t) / 1000,
      all = (performance.now() - t0) / 1000
    console.log(
      `  day ${DAYS - d + 1}/${DAYS} ${day.day}: ${day.quotes.toLocaleString()} quotes, ${day.rfqs.toLocaleString()} ` +
        `RFQs in ${s.toFixed(1)} s (${Math.round(day.quotes / s).toLocaleString()} quotes/s); ` +
        `${rows.toLocaleString()} so far, ~${Math.round((all / (DAYS - d + 1)) * (d - 1))} s to go`,
    )
  }
  return { partitions, sample, rows }
}

async function main(): Promise<void> {
  const free = freeBytes()
  console.log(
    `bench/store: ${QUOTES.toLocaleString()} quotes over ${DAYS} days, ${PER_RFQ} per RFQ; ` +
      `disk free ${(free / 2 ** 30).toFixed(0)} GiB (about ${((QUOTES * 620) / 2 ** 30).toFixed(0)} GiB needed)`,
  )
  db = await benchDatabase('store', { max: 4 })
  emptyDb = await db.sibling('empty')
  for (const d of [db, emptyDb]) await ensurePartitions(d.sql)
  // today's 2,000 ended RFQs with 20,000 quotes in both: the RFQs the reads take from today
  const today = { full: await loadToday(db.sql, 2000, PER_RFQ), empty: await loadToday(emptyDb.sql, 2000, PER_RFQ) }
  console.log(`generating ${QUOTES.toLocaleString()} quotes by COPY:`)
  const g = await generate()
  // A bulk load leaves every partition to autovacuum (insert-triggered since PostgreSQL 13), which would then run
  // into the measured phases of either store (its CPU counts as PostgreSQL's): done here, as a store that has run for
  // days has been vacuumed as it grew.
  const tv = performance.now()
  await db.sql.unsafe('vacuum analyze quotes, rfqs')
  console.log(`  vacuum after the load: ${((performance.now() - tv) / 1000).toFixed(1)} s`)
  const sizing = await quoteSizing(db.sql, g.partitions, g.rows)
  for (const line of sizingLines(sizing)) console.log(line)

  // the empty store and the full one in turn, ROUNDS times each, each on a fresh engine: a drift of the shared
  // machine's load falls on both. Round 0 is not counted: the first minutes after the bulk load ran 15-40% slower
  // whichever store they fell on (4 runs of 5 at 10M and 50M, 2026-11-27), the machine still settling the load's IO.
  const mixed = g.sample.flatMap((id, i) => [id, today.full.sample[i % today.full.sample.length]!])
  const todays = new Set(today.full.sample)
  const empties = [],
    fulls = []
  for (let round = 0; round <= ROUNDS; round++) {
    const name = round ? `round ${round}/${ROUNDS}` : 'round 0 (after the load: not counted)'
    console.log(`${name}, empty store (today: 2,000 ended RFQs, 20,000 quotes):`)
    const empty = await measure(emptyDb, today.empty.sample)
    await engine!.stop()
    console.log(`${name}, full store (${g.rows.toLocaleString()} quotes; reads over old days and today):`)
    const full = await measure(db, mixed, id => (todays.has(id) ? 'today' : 'old days'))
    if (round < ROUNDS) await engine!.stop()
    if (round) (empties.push(empty), fulls.push(full))
  }
  const empty = mean(empties),
    full = mean(fulls)
  console.log(
    `relay throughput at ${size} stored vs empty: ${ratio(full.rate, empty.rate)} ` +
      `(${Math.round(full.rate)}/s vs ${Math.round(empty.rate)}/s; CPU a quote ${full.cpuUs.toFixed(0)} vs ` +
      `${empty.cpuUs.toFixed(0)} µs: ${ratio(empty.cpuUs, full.cpuUs)})`,
  )
  console.log(
    `RFQ detail p99 at ${size} vs empty: ${ratio(full.p99, empty.p99)} (${full.p99.toFixed(2)} ms vs ` +
      `${empty.p99.toFixed(2)} ms; errors ${full.readErrors + empty.readErrors})`,
  )

  const rate = Math.floor(full.rate / 2)
  const pacedQuotes = await engine!.quotes(rate * PACED_SECS, makers)
  await settle(db) // each paced run from the same state: the last run's rows vacuumed, nothing left to flush
  const paced = await runStep({ relayUrl: engine!.relay, quotes: pacedQuotes, rate, connections: 50 })
  const dropQuotes = await engine!.quotes(rate * PACED_SECS, makers)
  await settle(db)
  let drop = { at: 0, ms: 0, dropped: [] as string[] }
  const started = performance.now()
  const dropping = (async () => {
    await new Promise(r => setTimeout(r, (PACED_SECS * 1000) / 3)) // a third into the run
    const at = (performance.now() - started) / 1000
    const r = await engine!.request<{ ms: number; dropped: string[] }>({ cmd: 'retention', days: DAYS - 1 }, 'retained')
    drop = { at, ms: r.ms, dropped: r.dropped }
  })()
  const during = await runStep({ relayUrl: engine!.relay, quotes: dropQuotes, rate, connections: 50 })
  await dropping
  // the seconds the drop overlapped, and the one after it: the worst of their p99s
  const end = drop.at + drop.ms / 1000 + 1
  const window = during.perSecond.filter(s => s.t > drop.at && s.t - 1 < end)
  const dropP99 = window.length ? Math.max(...window.map(s => s.p99Ms)) : pct(during.latency, 99)
  // against the same seconds of the paced run without a drop (its first second, the sockets' start, is as noisy)
  const same = paced.perSecond.filter(s => window.some(w => w.t === s.t))
  const pacedP99 = same.length ? Math.max(...same.map(s => s.p99Ms)) : pct(paced.latency, 99)
  const errors = (r: typeof paced) => Object.values(r.errors).reduce((a, b) => a + b, 0)
  const codes = (r: typeof paced) => JSON.stringify(r.errors)
  const perSecondOf = (r: typeof paced) =>
    r.perSecond.map(s => `${s.p99Ms.toFixed(1)}${s.errors ? ` (${s.errors} errors)` : ''}`).join(' ')
  console.log(
    `  paced at ${rate}/s: p99 ${pct(paced.latency, 99).toFixed(2)} ms, per second ${perSecondOf(paced)} ` +
      `(errors ${codes(paced)}); with the drop of ` +
      `${drop.dropped.join(', ') || 'nothing'} at ${drop.at.toFixed(1)} s (${drop.ms.toFixed(0)} ms): ` +
      `p99 over the run ${pct(during.latency, 99).toFixed(2)} ms, per second ${perSecondOf(during)}; ` +
      `errors ${codes(during)}`,
  )
  console.log(
    `p99 during a partition drop vs paced: ${ratio(dropP99, pacedP99)} (errors ${errors(during)}) ` +
      `(${dropP99.toFixed(2)} ms vs ${pacedP99.toFixed(2)} ms, seconds ${window.map(w => w.t).join(', ')} of each run)`,
  )
  if (drop.dropped.length !== 1) throw new Error(`retention dropped ${drop.dropped.length} partitions, not 1`)
  await engine!.stop()

  // on a pool of its own: on the bulk load's pool, an export of 1M rows once stalled (COPY TO waiting on ClientWrite)
  const side = connect(db.url, { max: 2 })
  try {
    const at = Math.floor(Date.now() / DAY_MS) * DAY_MS - (DAYS + 5) * DAY_MS
    const a = await timeArchive(side, await seedQuoteDay(side, at, ARCHIVE_ROWS))
    console.log(`  ${a.rows.toLocaleString()} quotes: archive ${(a.bytes / 1e6).toFixed(1)} MB`)
    console.log(archiveLine(a))
  } finally {
    await side.end({ timeout: 5 })
  }
}

async function cleanUp(): Promise<void> {
  await engine?.stop().catch(() => {})
  await emptyDb?.drop()
  emptyDb = undefined
  await db?.drop()
  db = undefined
  // the bench's own server's cluster too (its database is gone; the files left are its WAL and catalog)
  if (!process.env.DATABASE_URL && !process.env.BENCH_KEEP_DB)
    rmSync(join(repoRoot, '.data/bench-store'), { recursive: true, force: true })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values: cli } = parseCli(
    'store.js',
    benchUsage(
      'store',
      'The store at size: bytes per quote, relay and reads at 50M stored vs empty, a drop, archive.',
      {
        BENCH_STORE_QUOTES: 'quotes stored over the past days (50000000)',
        BENCH_STORE_DAYS: 'days they spread over, one partition each (30)',
        BENCH_STORE_RELAY_QUOTES: 'quotes in each relay throughput run (40000)',
        BENCH_STORE_READS: 'RFQ detail reads in each run (4000)',
        BENCH_STORE_PACED_SECS: 'seconds of each paced run (6)',
        BENCH_STORE_ARCHIVE_ROWS: 'quotes in the archived partition (1000000)',
        BENCH_STORE_ROUNDS: 'rounds of the empty and the full store in turn (2)',
      },
    ),
    { engine: { type: 'boolean' } },
  )
  if (cli.engine) await engineMain()
  else {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => void cleanUp().finally(() => process.exit(130)))
    try {
      await main()
    } finally {
      await cleanUp()
    }
  }
}
