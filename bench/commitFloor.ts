// PostgreSQL's CPU a stored quote: the relay's group-commit statement against bare inserts of the same rows into the
// same table. Run: node dist/bench/commitFloor.js
//
// Issue 29 asks ≤ 15 µs of PostgreSQL's CPU a quote in the relay bench. This bench reads what the server spends a row
// for three statements, on one connection to the bench's embedded server with generic plans (as the engine's writer
// runs its statements), each statement BENCH_FLOOR_SIZE quotes of as many RFQs (maker-major, as the relay bench
// sends them), in blocks of BENCH_FLOOR_BLOCK statements alternated between the three, so a drift of this VM's speed
// falls on all of them:
//   - `writer`: the writer's own statement (quoteCommitSql.ts, its plain form): the rows typed from array literals,
//     their RFQs locked and checked open (the fence), the inserts, the RFQs moved to QUOTED, the closed ones answered;
//   - `unnest`: only the inserts of the same rows from the same array literals, no fence, no RFQ touched;
//   - `values`: only the inserts, as a plain multi-row INSERT of the rows' values as parameters.
// Each statement is its own transaction, so each pays its commit. Printed per statement: the backend's CPU a row,
// exact (its schedstat), each block's and the median, and the whole server's (every process, in clock ticks).
// Env: BENCH_FLOOR_SIZE (80: the relay bench's quotes a commit), BENCH_FLOOR_BLOCK (100), BENCH_FLOOR_BLOCKS (6 each)
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { commitText } from '../engine/store/quoteCommitSql.js'
import { rfqDays, rfqKeyHex } from '../engine/store/rfqKey.js'
import type { Address } from '../actors/rfqTypes.js'
import { benchDatabase } from './lib/benchDb.js'
import { runBench } from './lib/benchMain.js'
import { openRfqs } from './lib/openRfqs.js'
import { postmasterPid, processTree, threadsOf, treeUsSince } from './lib/procCpu.js'

parseCli(
  'commitFloor.js',
  benchUsage('commitFloor', "PostgreSQL's CPU a row: the group commit's statement against bare inserts of its rows.", {
    BENCH_FLOOR_SIZE: 'quotes a statement (80)',
    BENCH_FLOOR_BLOCK: 'statements a block (100)',
    BENCH_FLOOR_BLOCKS: 'blocks of each statement (6)',
  }),
  {},
)

const SIZE = Number(process.env.BENCH_FLOOR_SIZE ?? 80)
const BLOCK = Number(process.env.BENCH_FLOOR_BLOCK ?? 100)
const BLOCKS = Number(process.env.BENCH_FLOOR_BLOCKS ?? 6)
const RFQS = 2000
const addressOf = (i: number): Address => `0x${i.toString(16).padStart(40, 'a')}`
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1]!

/** the table's columns, in the order all three statements write them */
const INTO = `insert into quotes (expiry, deadline, received_at, rfq_day, arrival, taker_open, rfq_id, maker, amount_in,
  amount_out, nonce, signature)`
/** the writer's twelve array literals as rows, as its statement types them (quoteCommitSql.ts) */
const UNNEST = `${INTO} select r.expiry, r.deadline, timestamptz 'epoch' + r.received_ms * interval '1 ms', $13::date,
  r.arrival, r.taker_open, decode(r.key, 'hex'), decode(r.maker, 'hex'), r.amount_in, r.amount_out, r.nonce,
  decode(r.signature, 'hex')
  from unnest($1::text[], $2::text[], $3::bool[], $4::numeric[], $5::numeric[], $6::int8[], $7::numeric[], $8::int8[],
    $9::text[], $10::int8[], $11::int4[], $12::text[])
  as r (rfq_id, maker, taker_open, amount_in, amount_out, expiry, nonce, deadline, signature, received_ms, arrival, key)`
/** twelve parameters a row, in INTO's order */
const VALUES = `${INTO} values ${Array.from({ length: SIZE }, (_, j) => {
  const p = (c: number) => `$${j * 12 + c}`
  return `(${p(1)}::int8, ${p(2)}::int8, timestamptz 'epoch' + ${p(3)}::int8 * interval '1 ms', ${p(4)}::date,
    ${p(5)}::int4, ${p(6)}::bool, decode(${p(7)}, 'hex'), decode(${p(8)}, 'hex'), ${p(9)}::numeric, ${p(10)}::numeric,
    ${p(11)}::numeric, decode(${p(12)}, 'hex'))`
}).join(', ')}`

runBench('commitFloor.js', async () => {
  const db = await benchDatabase('floor', { max: 1 })
  try {
    const { sql } = db
    await sql`set plan_cache_mode = force_generic_plan` // the writer's connections' setting (quoteCommitWorker.ts)
    const [{ pid }] = (await sql`select pg_backend_pid() as pid`) as unknown as [{ pid: number }]
    const postmaster = await postmasterPid(sql)
    const now = Date.now()
    const ids = await openRfqs(sql, RFQS, {
      now,
      taker: addressOf(999_999),
      tokenIn: addressOf(1),
      tokenOut: addressOf(2),
    })
    const day = new Date(now).toISOString().slice(0, 10)
    let made = 0 // quote i is maker i / RFQS's for RFQ i % RFQS: never a maker's second for an RFQ
    /** a statement's quotes: the writer's columns (quotes.ts `commit`) and the same as rows */
    const batch = () => {
      const cols: string[][] = Array.from({ length: 12 }, () => [])
      const rows: string[][] = []
      for (let j = 0; j < SIZE; j++) {
        const i = made++,
          m = Math.floor(i / RFQS),
          id = ids[i % RFQS]!,
          secs = String(Math.floor(now / 1000) + 600)
        const fields = [id, addressOf(m).slice(2), 'false', '1', String(2 + (i % 97)), secs, String(i), secs]
        fields.push('ab'.repeat(64) + '1b', String(Date.now()), String(m + 1), rfqKeyHex(id))
        fields.forEach((v, c) => cols[c]!.push(v))
        const [, maker, open, amountIn, amountOut, expiry, nonce, deadline, sig, ms, arrival, key] = fields
        rows.push([expiry, deadline, ms, day, arrival, open, key, maker, amountIn, amountOut, nonce, sig] as string[])
      }
      return { params: cols.map(c => `{${c.join(',')}}`), rows, ids: cols[0]! }
    }
    type Batch = ReturnType<typeof batch>
    const ways: Record<string, (b: Batch) => Promise<unknown>> = {
      writer: b => sql.unsafe(commitText('plain', 1), [...b.params, ...rfqDays(b.ids)], { prepare: true }),
      unnest: b => sql.unsafe(UNNEST, [...b.params, day], { prepare: true }),
      values: b => sql.unsafe(VALUES, b.rows.flat(), { prepare: true }),
    }
    const names = Object.keys(ways)
    for (const w of names) for (let k = 0; k < 30; k++) await ways[w]!(batch()) // planned, cached, warm
    const backendUs = () => [...threadsOf(pid).values()].reduce((us, t) => us + t.cpuUs, 0)
    const perRow: Record<string, { backend: number[]; server: number[] }> = {}
    for (const w of names) perRow[w] = { backend: [], server: [] }
    for (let k = 0; k < BLOCKS; k++)
      for (const w of k % 2 ? names.slice().reverse() : names) {
        const batches = Array.from({ length: BLOCK }, batch) // made before: not counted
        const b0 = backendUs(),
          s0 = processTree(postmaster)
        for (const b of batches) await ways[w]!(b)
        perRow[w]!.backend.push((backendUs() - b0) / (BLOCK * SIZE))
        perRow[w]!.server.push(treeUsSince(s0, processTree(postmaster)) / (BLOCK * SIZE))
      }
    for (const w of names) {
      const { backend, server } = perRow[w]!
      console.log(
        `PostgreSQL CPU a row, ${w} (${SIZE} rows a statement): backend ${median(backend).toFixed(1)} µs (blocks ${backend.map(x => x.toFixed(1)).join(' ')}), whole server ${median(server).toFixed(1)} µs`,
      )
    }
  } finally {
    await db.drop()
  }
})
