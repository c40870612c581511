// The relay's group commit, its client side: what one commit costs the engine's main thread, and what it leaves
// in the heap for the GC. Run: node dist/bench/commit.js
//
// On the bench's embedded PostgreSQL (or DATABASE_URL's server), the engine's quote writer (engine/store/quotes.ts)
// on a pool of 2 connections, as the engine's writer has (RELAY_COMMITS_IN_FLIGHT), commits batches of
// BENCH_COMMIT_SIZES quotes (10 and 40: a paced relay's and a busy one's), one commit at a time, two ways: on this
// thread (`here`: postgres.js on the main thread, as before 0.13) and on the writer's own thread (`thread`,
// quoteCommitThread.ts: the engine's way). The reference, in the same process on the same pool: a `select 1` round
// trip, postgres.js's own floor for a query. CPU is per thread, from /proc (schedstat). Printed per size and way:
//   `group commit main-thread CPU per commit (N quotes, way): X µs (Y µs a quote; Rx a select 1 round trip's Z µs);
//    other threads W µs; T µs from write to answer` (other threads: the writer's, and V8's helpers; the time: a
//    commit's latency, the extra hop included)
//   `PostgreSQL CPU per committed quote (N quotes, way): X µs`: all the server's processes (the writer's statements
//   are the same both ways; only `thread` runs them as generic plans, quoteCommitWorker.ts)
//   `bytes surviving a scavenge per committed quote (way): N B`: after each commit everything of it is garbage, so
//   what a scavenge forced right then still finds alive on the main thread is what the commit path leaves reachable
//   from the old generation (issue 29: it is copied by each scavenge and promoted, and only a major GC frees it)
// Env: BENCH_COMMIT_SIZES (10,40), BENCH_COMMIT_ROUNDS (600 commits a size), BENCH_COMMIT_RFQS (2000)
import { getHeapSpaceStatistics } from 'node:v8'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { createQuoteWriter, quoteWriterOver, type QuoteWriter } from '../engine/store/quotes.js'
import { startQuoteCommitThread } from '../engine/store/quoteCommitThread.js'
import type { Address, Hex, NumberedQuote } from '../actors/rfqTypes.js'
import { benchDatabase } from './lib/benchDb.js'
import { runBench } from './lib/benchMain.js'
import { openRfqs } from './lib/openRfqs.js'
import { exposedGc } from './lib/exposedGc.js'
import { processThreads, processTree, treeUsSince, postmasterPid } from './lib/procCpu.js'

parseCli(
  'commit.js',
  benchUsage('commit', "The group commit's client-side CPU per commit and what it leaves for the GC.", {
    BENCH_COMMIT_SIZES: 'quotes a commit, comma-separated (10,40)',
    BENCH_COMMIT_ROUNDS: 'commits measured a size (600)',
    BENCH_COMMIT_RFQS: 'RFQs the quotes are spread over (2000)',
  }),
  {},
)

const gc = exposedGc()
const youngBytes = () => getHeapSpaceStatistics().find(s => s.space_name === 'new_space')!.space_used_size
/** this process's main thread's CPU µs and its other threads' (not its children's: its PostgreSQL server) */
const threadsUs = () => processThreads(process.pid, { children: false })

const SIZES = (process.env.BENCH_COMMIT_SIZES ?? '10,40').split(',').map(Number)
const ROUNDS = Number(process.env.BENCH_COMMIT_ROUNDS ?? 600)
const RFQS = Number(process.env.BENCH_COMMIT_RFQS ?? 2000)
const T_IN = '0x1111111111111111111111111111111111111111' as Address
const T_OUT = '0x2222222222222222222222222222222222222222' as Address
const addressOf = (i: number): Address => `0x${i.toString(16).padStart(40, 'a')}`

runBench('commit.js', async () => {
  const db = await benchDatabase('commit', { max: 2 })
  try {
    const postmaster = await postmasterPid(db.sql)
    const now = Date.now()
    const ids = await openRfqs(db.sql, RFQS, { now, taker: addressOf(999_999), tokenIn: T_IN, tokenOut: T_OUT })
    const ways: [string, () => QuoteWriter][] = [
      ['here', () => createQuoteWriter(db.sql, { maxInFlight: 2 })],
      ['thread', () => quoteWriterOver(startQuoteCommitThread(db.url, 2), { maxInFlight: 2 })],
    ]
    let made = 0 // quote i is maker i / RFQS's for RFQ i % RFQS: never a maker's second for an RFQ
    const batch = (n: number): NumberedQuote[] =>
      Array.from({ length: n }, () => {
        const i = made++
        const m = Math.floor(i / RFQS)
        return {
          rfqId: ids[i % RFQS]!,
          quote: {
            maker: addressOf(m),
            taker: addressOf(999_999),
            tokenIn: T_IN,
            tokenOut: T_OUT,
            amountIn: '1',
            amountOut: String(2 + (i % 97)),
            expiry: Math.floor(now / 1000) + 600,
            nonce: String(i),
            deadline: Math.floor(now / 1000) + 600,
          },
          signature: `0x${'ab'.repeat(64)}1b` as Hex,
          receivedAtMs: Date.now(),
          arrival: m + 1,
        }
      })

    for (const [way, writerOf] of ways) {
      const writer = writerOf()
      const commit = (quotes: NumberedQuote[]) => Promise.all(quotes.map(q => writer.write(q)))
      try {
        for (const size of SIZES) {
          for (let r = 0; r < 50; r++) await commit(batch(size)) // warmed: statements prepared, code optimised
          for (let r = 0; r < 50; r++) await db.sql`select 1`
          const batches = Array.from({ length: ROUNDS }, () => batch(size)) // made before: not counted
          gc()
          let survived = 0,
            probeUs = 0,
            probeOtherUs = 0,
            probeWallMs = 0
          const c0 = threadsUs(),
            pg0 = processTree(postmaster),
            t0 = performance.now()
          for (let r = 0; r < ROUNDS; r++) {
            await commit(batches[r]!)
            batches[r] = [] // this commit's quotes are garbage from here
            if (r % 10 === 9) {
              const p0 = threadsUs(),
                w0 = performance.now()
              gc({ type: 'minor' })
              survived += youngBytes()
              gc({ type: 'minor' }) // promoted, then a major GC: the next ten start clean
              gc()
              const p1 = threadsUs()
              probeUs += p1.mainUs - p0.mainUs
              probeOtherUs += p1.otherUs - p0.otherUs // V8's helper threads mark for the major GC
              probeWallMs += performance.now() - w0
            }
          }
          const c1 = threadsUs(),
            pgUs = treeUsSince(pg0, processTree(postmaster)) / (ROUNDS * size)
          const commitUs = (c1.mainUs - c0.mainUs - probeUs) / ROUNDS,
            otherUs = (c1.otherUs - c0.otherUs - probeOtherUs) / ROUNDS,
            wallUs = ((performance.now() - t0 - probeWallMs) * 1000) / ROUNDS
          const s0 = threadsUs().mainUs
          for (let r = 0; r < ROUNDS; r++) await db.sql`select 1`
          const selectUs = (threadsUs().mainUs - s0) / ROUNDS
          console.log(
            `group commit main-thread CPU per commit (${size} quotes, ${way}): ${commitUs.toFixed(0)} µs (${(commitUs / size).toFixed(1)} µs a quote; ${(commitUs / selectUs).toFixed(2)}x a select 1 round trip's ${selectUs.toFixed(0)} µs); other threads ${otherUs.toFixed(0)} µs; ${wallUs.toFixed(0)} µs from write to answer`,
          )
          console.log(`PostgreSQL CPU per committed quote (${size} quotes, ${way}): ${pgUs.toFixed(1)} µs`)
          console.log(
            `bytes surviving a scavenge per committed quote (${way}): ${(survived / (size * ROUNDS)).toFixed(0)} B`,
          )
        }
        if (writer.stats.rechecked || writer.stats.checked)
          throw new Error('a commit met a duplicate: the bench is wrong')
      } finally {
        await writer.close()
      }
    }
  } finally {
    await db.drop()
  }
})
