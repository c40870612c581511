// The relay's group commit, its client side: what one commit costs the engine's main thread, and what it leaves
// in the heap for the GC. Run: node dist/bench/commit.js
//
// On the bench's embedded PostgreSQL (or DATABASE_URL's server), the engine's quote writer (engine/store/quotes.ts)
// on a pool of 2 connections, as the engine's writer has (RELAY_COMMITS_IN_FLIGHT), commits batches of
// BENCH_COMMIT_SIZES quotes (10 and 40: a paced relay's and a busy one's), one commit at a time. The reference, in the
// same process on the same pool: a `select 1` round trip, postgres.js's own floor for a query. Printed per size:
//   `group commit client CPU per commit (N quotes): X µs (Y µs a quote; Rx a select 1 round trip's Z µs)`
//   `bytes surviving a scavenge per committed quote: N B`: after each commit everything of it is garbage, so what a
//   scavenge forced right then still finds alive is what the commit path leaves reachable from the old generation
//   (issue 29: it is copied by each scavenge and promoted, and only a major GC frees it)
// Env: BENCH_COMMIT_SIZES (10,40), BENCH_COMMIT_ROUNDS (600 commits a size), BENCH_COMMIT_RFQS (2000)
import { randomBytes } from 'node:crypto'
import { setFlagsFromString, getHeapSpaceStatistics } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { createQuoteWriter } from '../engine/store/quotes.js'
import { insertRfq } from '../engine/store/rfqs.js'
import { rfqIdAt } from '../workers/values/index.js'
import type { Address, Hex, NumberedQuote } from '../actors/rfqTypes.js'
import { benchDatabase } from './lib/benchDb.js'

parseCli(
  'commit.js',
  benchUsage('commit', "The group commit's client-side CPU per commit and what it leaves for the GC.", {
    BENCH_COMMIT_SIZES: 'quotes a commit, comma-separated (10,40)',
    BENCH_COMMIT_ROUNDS: 'commits measured a size (600)',
    BENCH_COMMIT_RFQS: 'RFQs the quotes are spread over (2000)',
  }),
  {},
)

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as (o?: { type: 'minor' | 'major' }) => void
const youngBytes = () => getHeapSpaceStatistics().find(s => s.space_name === 'new_space')!.space_used_size
const cpuUs = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

const SIZES = (process.env.BENCH_COMMIT_SIZES ?? '10,40').split(',').map(Number)
const ROUNDS = Number(process.env.BENCH_COMMIT_ROUNDS ?? 600)
const RFQS = Number(process.env.BENCH_COMMIT_RFQS ?? 2000)
const T_IN = '0x1111111111111111111111111111111111111111' as Address
const T_OUT = '0x2222222222222222222222222222222222222222' as Address
const addressOf = (i: number): Address => `0x${i.toString(16).padStart(40, 'a')}`

const db = await benchDatabase('commit', { max: 2 })
try {
  const now = Date.now()
  const ids: string[] = []
  for (let i = 0; i < RFQS; i++) {
    const id = rfqIdAt(now, randomBytes(16).toString('hex'))
    ids.push(id)
    await insertRfq(
      db.sql,
      {
        id,
        taker: addressOf(999_999),
        tokenIn: T_IN,
        tokenOut: T_OUT,
        kind: 0,
        amountIn: 1n,
        amountOut: null,
        expiry: Math.floor(now / 1000) + 3600,
        visibility: 'public',
        allowedMakers: [],
        shareToken: null,
        createdAt: new Date(now),
        agentId: null,
      },
      null,
    )
  }
  const writer = createQuoteWriter(db.sql, { maxInFlight: 2 })
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
  const commit = (quotes: NumberedQuote[]) => Promise.all(quotes.map(q => writer.write(q)))

  for (const size of SIZES) {
    for (let r = 0; r < 50; r++) await commit(batch(size)) // warmed: statements prepared, code optimised
    for (let r = 0; r < 50; r++) await db.sql`select 1`
    const batches = Array.from({ length: ROUNDS }, () => batch(size)) // made before: not counted
    gc()
    let survived = 0
    const c0 = cpuUs()
    let probeUs = 0
    for (let r = 0; r < ROUNDS; r++) {
      await commit(batches[r]!)
      batches[r] = [] // this commit's quotes are garbage from here
      if (r % 10 === 9) {
        const p0 = cpuUs()
        gc({ type: 'minor' })
        survived += youngBytes()
        gc({ type: 'minor' }) // promoted, then a major GC: the next ten start clean
        gc()
        probeUs += cpuUs() - p0
      }
    }
    const commitUs = (cpuUs() - c0 - probeUs) / ROUNDS
    const s0 = cpuUs()
    for (let r = 0; r < ROUNDS; r++) await db.sql`select 1`
    const selectUs = (cpuUs() - s0) / ROUNDS
    console.log(
      `group commit client CPU per commit (${size} quotes): ${commitUs.toFixed(0)} µs (${(commitUs / size).toFixed(1)} µs a quote; ${(commitUs / selectUs).toFixed(2)}x a select 1 round trip's ${selectUs.toFixed(0)} µs)`,
    )
    console.log(`bytes surviving a scavenge per committed quote: ${(survived / (size * ROUNDS)).toFixed(0)} B`)
  }
  if (writer.stats.rechecked || writer.stats.checked) throw new Error('a commit met a duplicate: the bench is wrong')
} finally {
  await db.drop()
}
