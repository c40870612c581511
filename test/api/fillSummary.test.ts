// The performance-summary rollups (migration 080) against a straightforward recomputation from
// the raw fills: any mix of bulk and single inserts, backdated fills landing before a window's
// base, windows starting before or after their base's hour, every token filter, ties, negative
// values and improvements far outside the whole-bps buckets. The median is compared exactly.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { performanceSummary, type Summary } from '../../engine/store/fills.js'
import { centiToDecimal } from '../../workers/fills/improvement.js'
import { addr } from './fillsFixtures.js'

let db: TestDatabase
before(async () => {
  db = await testDatabase('summary')
})
after(async () => {
  await db?.drop()
})

const HOUR = 3600_000,
  DAY = 24 * HOUR
const WINDOWS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY } as const
type Window = keyof typeof WINDOWS
const TOKENS_IN = [addr(0x1001), addr(0x1002), addr(0x1003)],
  TOKENS_OUT = [addr(0x2001), addr(0x2002)]
const NOW = Date.now()

interface F {
  at: number
  tin: number
  tout: number
  usdCents: number
  bench: boolean
  centi: bigint
}
let serial = 0

async function insert(fills: F[]): Promise<void> {
  const rows = fills.map(f => ({
    tx_hash: '0x' + (++serial).toString(16).padStart(64, '0'),
    taker: addr(1),
    maker: addr(2),
    token_in: TOKENS_IN[f.tin]!,
    token_out: TOKENS_OUT[f.tout]!,
    amount_in: '1',
    amount_out: '1',
    amount_in_usd: f.usdCents / 100,
    is_private: false,
    benchmark_available: f.bench,
    improvement_bps: f.bench ? centiToDecimal(f.centi) : '0',
    taker_points: 0,
    maker_points: 0,
    points_version: 'v2',
    filled_at: new Date(f.at),
  }))
  // one statement per batch: a bulk insert reaches the trigger as one transition table
  await db.sql`insert into fills ${db.sql(rows)}`
}

interface Filter {
  tin?: number
  tout?: number
}

/** The reference: the window's fills, filtered and summed by hand; the median from the sorted values. */
function expected(all: F[], since: number, f: Filter) {
  const w = all.filter(
    x => x.at >= since && (f.tin === undefined || x.tin === f.tin) && (f.tout === undefined || x.tout === f.tout),
  )
  const b = w
    .filter(x => x.bench)
    .map(x => x.centi)
    .sort((p, q) => (p < q ? -1 : p > q ? 1 : 0))
  const cents = w.reduce((s, x) => s + BigInt(x.usdCents), 0n)
  const sum = b.reduce((s, x) => s + x, 0n)
  // (lo + hi) / 2 in centi-bps = (lo + hi) / 200 bps, written out exactly (3 decimals at most) and
  // parsed once, as PostgreSQL converts its exact numeric to float8
  const twice = b.length ? b[(b.length - 1) >> 1]! + b[b.length >> 1]! : 0n
  const neg = twice < 0n,
    a = neg ? -twice : twice
  const median = b.length
    ? Number(`${neg ? '-' : ''}${a / 200n}.${((a % 200n) * 5n).toString().padStart(3, '0')}`)
    : null
  return {
    totalFills: w.length,
    totalVolumeUsd: Number(cents) / 100,
    medianImprovementBps: median,
    avg: b.length ? Number(sum) / 100 / b.length : null,
    pct: b.length ? (100 * b.filter(x => x > 0n).length) / b.length : null,
  }
}

function assertSummary(got: Summary, want: ReturnType<typeof expected>, label: string): void {
  assert.equal(got.totalFills, want.totalFills, label)
  assert.equal(got.totalVolumeUsd, want.totalVolumeUsd, label)
  assert.equal(got.medianImprovementBps, want.medianImprovementBps, label)
  const near = (x: number | null, y: number | null) =>
    x === y || (x !== null && y !== null && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)))
  assert.ok(near(got.avgImprovementBps, want.avg), `${label}: avg ${got.avgImprovementBps} vs ${want.avg}`)
  assert.ok(near(got.pctBetterThanBaseline, want.pct), `${label}: pct ${got.pctBetterThanBaseline} vs ${want.pct}`)
}

const query = (w: Window, since: number, f: Filter) =>
  performanceSummary(db.sql, {
    window: w,
    since: new Date(since),
    tokenIn: f.tin === undefined ? undefined : TOKENS_IN[f.tin],
    tokenOut: f.tout === undefined ? undefined : TOKENS_OUT[f.tout],
  })

const improvement = fc.oneof(
  fc.integer({ min: -300, max: 300 }).map(BigInt), // many ties, both signs, zero
  fc.integer({ min: -2_500_000, max: 2_500_000 }).map(BigInt), // across the ±1,000 bps bucket edge
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }),
) // astronomically far
const fill = fc.record({
  at: fc.integer({ min: NOW - 40 * DAY, max: NOW + 2 * HOUR }),
  tin: fc.integer({ min: 0, max: 2 }),
  tout: fc.integer({ min: 0, max: 1 }),
  usdCents: fc.integer({ min: 0, max: 1e9 }),
  bench: fc.boolean(),
  centi: improvement,
})
const filter: fc.Arbitrary<Filter> = fc.record({
  tin: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  tout: fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined }),
})
const op = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), fills: fc.array(fill, { minLength: 1, maxLength: 40 }) }),
  fc.record({
    kind: fc.constant('query' as const),
    window: fc.constantFrom<Window>('24h', '7d', '30d'),
    // the window's start moves both ways around its base's hour, and across hours
    jitter: fc.integer({ min: -5 * HOUR, max: 5 * HOUR }),
    filter,
  }),
)

test('property: the summary from rollups equals a recomputation from the raw fills, median exactly', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 12 }), async ops => {
      await db.sql`truncate fills` // also empties the rollups and bases (trigger)
      const all: F[] = []
      for (const o of ops) {
        if (o.kind === 'insert') {
          await insert(o.fills)
          all.push(...o.fills)
          continue
        }
        const since = NOW - WINDOWS[o.window] + o.jitter
        assertSummary(
          await query(o.window, since, o.filter),
          expected(all, since, o.filter),
          `${o.window} ${JSON.stringify(o.filter)}`,
        )
      }
      // and every window, unfiltered, at the end
      for (const w of Object.keys(WINDOWS) as Window[]) {
        const since = NOW - WINDOWS[w]
        assertSummary(await query(w, since, {}), expected(all, since, {}), w)
      }
    }),
    { numRuns: 60 },
  )
})

test('concurrent single fills while the bases move forward: nothing counted twice or lost', async () => {
  await db.sql`truncate fills`
  const all: F[] = Array.from({ length: 200 }, (_, i) => ({
    at: NOW - ((i * 4.3 * HOUR) % (35 * DAY)),
    tin: i % 3,
    tout: i % 2,
    usdCents: 1000 + i,
    bench: i % 5 !== 0,
    centi: BigInt(((i * 7919) % 2001) - 1000),
  }))
  await insert(all.slice(0, 50))
  const work: Promise<unknown>[] = all.slice(50).map(f => insert([f]))
  // each window's base moved forward hour by hour while the fills land (some of them before it)
  for (const w of Object.keys(WINDOWS) as Window[])
    for (let h = 6; h >= 0; h--) work.push(query(w, NOW - WINDOWS[w] - h * HOUR, {}))
  await Promise.all(work)
  for (const w of Object.keys(WINDOWS) as Window[]) {
    for (const since of [NOW - WINDOWS[w], NOW - WINDOWS[w] - 3 * HOUR]) {
      for (const f of [{}, { tin: 1 }, { tout: 0 }, { tin: 2, tout: 1 }])
        assertSummary(await query(w, since, f), expected(all, since, f), `${w} ${since}`)
    }
  }
  const [base] = await db.sql`select count(*)::int as n from fill_summary_bases`
  assert.equal(base!.n, 3)
})

test('property: the coarse bucket never decreases as the improvement grows', async () => {
  await fc.assert(
    fc.asyncProperty(improvement, improvement, async (a, b) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a]
      const [r] =
        await db.sql`select fill_summary_bucket(${centiToDecimal(lo)}::numeric) as lo, fill_summary_bucket(${centiToDecimal(hi)}::numeric) as hi`
      assert.ok(r!.lo <= r!.hi, `${centiToDecimal(lo)} -> ${r!.lo}, ${centiToDecimal(hi)} -> ${r!.hi}`)
    }),
    { numRuns: 500 },
  )
})

test('the ledger is append-only: updating or deleting a fill is refused', async () => {
  await db.sql`truncate fills`
  await insert([{ at: NOW, tin: 0, tout: 0, usdCents: 100, bench: true, centi: 5n }])
  await assert.rejects(db.sql`update fills set amount_in_usd = 2`, /append-only/)
  await assert.rejects(db.sql`delete from fills`, /append-only/)
  assertSummary(
    await query('24h', NOW - DAY, {}),
    expected([{ at: NOW, tin: 0, tout: 0, usdCents: 100, bench: true, centi: 5n }], NOW - DAY, {}),
    'after',
  )
})
