// Archive export and restore of one day's quote partition (issue 30's figure): BENCH_ROWS quotes (1,000,000) seeded
// in bulk into a day's partition, exported (COPY TO STDOUT, gzip, a manifest) and restored into its side table
// (checksum, line checks, COPY FROM STDIN in one transaction), each timed once (lib/archiveRun.ts, which
// bench/store.ts runs too).
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { benchDatabase } from './lib/benchDb.js'
import { archiveLine, seedQuoteDay, timeArchive } from './lib/archiveRun.js'

parseCli(
  'archive.js',
  benchUsage('archive', "Archive export and restore of a day's quote partition (rows/s each).", {
    BENCH_ROWS: 'quotes in the partition (1000000)',
  }),
  {},
)

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const DAY = 86_400_000

const db = await benchDatabase('archive', { max: 4 })
try {
  const partition = await seedQuoteDay(db.sql, Math.floor(Date.now() / DAY) * DAY - 20 * DAY, ROWS)
  const t = await timeArchive(db.sql, partition)
  if (t.rows !== ROWS) throw new Error(`rows: ${ROWS} seeded, ${t.rows} exported`)
  console.log(
    `bench/archive: ${ROWS.toLocaleString()} quotes, archive ${(t.bytes / 1e6).toFixed(1)} MB ` +
      `(${(t.bytes / ROWS).toFixed(0)} B a quote); export ${t.exportS.toFixed(1)} s, restore ${t.restoreS.toFixed(1)} s`,
  )
  console.log(archiveLine(t))
} finally {
  await db.drop()
}
