// Archive export and restore of one day's quote partition (issue 30's figure): BENCH_ROWS quotes (1,000,000) seeded
// in bulk into a day's partition, exported (COPY TO STDOUT, gzip, a manifest) and restored into its side table
// (checksum, line checks, COPY FROM STDIN in one transaction), each timed once.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { ensurePartitions, partitionName } from '../engine/store/partitions.js'
import { insertRfq } from '../engine/store/rfqs.js'
import { exportPartition } from '../engine/store/archive/export.js'
import { restoreArchive } from '../engine/store/archive/restore.js'
import { benchDatabase } from './lib/benchDb.js'

parseCli(
  'archive.js',
  benchUsage('archive', "Archive export and restore of a day's quote partition (rows/s each).", {
    BENCH_ROWS: 'quotes in the partition (1000000)',
  }),
  {},
)

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const RFQS = 1000
const DAY = 86_400_000
const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const

const db = await benchDatabase('archive', { max: 4 })
const dir = mkdtempSync(join(tmpdir(), 'bench-archive-'))
try {
  const at = Math.floor(Date.now() / DAY) * DAY - 20 * DAY
  const day = new Date(at).toISOString().slice(0, 10)
  const partition = partitionName('quotes', day)
  await ensurePartitions(db.sql, { now: at, ahead: 0 })
  for (let r = 0; r < RFQS; r++) {
    await insertRfq(
      db.sql,
      {
        id: `rfq_bench${r}`,
        taker: A(1),
        tokenIn: A(2),
        tokenOut: A(3),
        kind: 0,
        amountIn: 10n,
        amountOut: null,
        expiry: 1,
        visibility: 'public',
        allowedMakers: [],
        shareToken: null,
        createdAt: new Date(at + r),
        agentId: null,
      },
      null,
    )
  }
  // a quote's real shape: 40-byte addresses, 78-digit-wide amounts in wei, a 65-byte signature
  await db.sql.unsafe(
    `
    insert into ${partition} (rfq_day, rfq_id, maker, taker, token_in, token_out, amount_in, amount_out, expiry, nonce,
      deadline, signature, received_at)
    select $1::date, 'rfq_bench' || (g % ${RFQS}), '0x' || lpad(to_hex(g), 40, '0'), '0x' || lpad(to_hex(1), 40, '0'),
      '0x' || lpad(to_hex(2), 40, '0'), '0x' || lpad(to_hex(3), 40, '0'),
      (10::numeric ^ 21) + g, (10::numeric ^ 18) * g,
      1700000000 + g, g, 1700000600 + g, '0x' || repeat(md5(g::text), 4) || 'ab', $2::timestamptz + g * interval '1 ms'
    from generate_series(1, ${ROWS}) g`,
    [day, new Date(at).toISOString()],
  )
  await db.sql.unsafe(`vacuum analyze ${partition}`)

  let t0 = performance.now()
  const manifest = await exportPartition(db.sql, partition, dir)
  const exportS = (performance.now() - t0) / 1000
  t0 = performance.now()
  const restored = await restoreArchive(db.sql, join(dir, `${partition}.manifest.json`))
  const restoreS = (performance.now() - t0) / 1000
  if (manifest.rows !== ROWS || restored.rows !== ROWS)
    throw new Error(`rows: ${manifest.rows} out, ${restored.rows} back`)
  const bytes = statSync(join(dir, manifest.file)).size
  console.log(
    `bench/archive: ${ROWS.toLocaleString()} quotes, archive ${(bytes / 1e6).toFixed(1)} MB ` +
      `(${(bytes / ROWS).toFixed(0)} B a quote); export ${exportS.toFixed(1)} s, restore ${restoreS.toFixed(1)} s`,
  )
  console.log(`archive export: ${Math.round(ROWS / exportS)} rows/s, restore: ${Math.round(ROWS / restoreS)} rows/s`)
} finally {
  rmSync(dir, { recursive: true, force: true })
  await db.drop()
}
