// Archive export and restore of one day's quote partition, timed (issue 30's figure): bench/archive.ts runs it on a
// partition it seeds, bench/store.ts on one beside its 50 million quotes. The seed is bulk SQL (generate_series) in a
// quote's real shape (migration 103's layout): 20-byte addresses, 78-digit-wide amounts in wei, a 65-byte signature.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { Sql } from '../../engine/store/db.js'
import { rfqIdAt } from '../../workers/values/rfqId.js'
import { ensurePartitions, partitionName } from '../../engine/store/partitions.js'
import { insertRfq } from '../../engine/store/rfqs.js'
import { exportPartition } from '../../engine/store/archive/export.js'
import { restoreArchive } from '../../engine/store/archive/restore.js'

const RFQS = 1000
const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const

/** `rows` quotes over 1,000 RFQs in the partition of the UTC day of `at` (made here); returns its name. */
export async function seedQuoteDay(sql: Sql, at: number, rows: number): Promise<string> {
  const day = new Date(at).toISOString().slice(0, 10)
  const partition = partitionName('quotes', day)
  await ensurePartitions(sql, { now: at, ahead: 0 })
  const ids = Array.from({ length: RFQS }, (_, r) => rfqIdAt(at + r, randomBytes(16).toString('hex')))
  for (let r = 0; r < RFQS; r++) {
    await insertRfq(
      sql,
      {
        id: ids[r]!,
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
  await sql.unsafe(
    `
    insert into ${partition} (rfq_day, arrival, taker_open, rfq_id, maker, amount_in, amount_out, expiry, nonce, deadline,
      signature, received_at)
    select $1::date, g / ${RFQS} + 1, false, rfq_key(($3::text[])[g % ${RFQS} + 1]), decode(lpad(to_hex(g), 40, '0'), 'hex'),
      (10::numeric ^ 21) + g, (10::numeric ^ 18) * g,
      1700000000 + g, g, 1700000600 + g, decode(repeat(md5(g::text), 4) || 'ab', 'hex'), $2::timestamptz + g * interval '1 ms'
    from generate_series(1, ${rows}) g`,
    [day, new Date(at).toISOString(), ids],
  )
  await sql.unsafe(`vacuum analyze ${partition}`)
  return partition
}

export interface ArchiveTiming {
  rows: number
  exportS: number
  restoreS: number
  bytes: number
}

/** Exports `partition` to a scratch directory and restores it into its side table, each timed once. */
export async function timeArchive(sql: Sql, partition: string): Promise<ArchiveTiming> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-archive-'))
  try {
    let t0 = performance.now()
    const manifest = await exportPartition(sql, partition, dir)
    const exportS = (performance.now() - t0) / 1000
    t0 = performance.now()
    const restored = await restoreArchive(sql, join(dir, `${partition}.manifest.json`))
    const restoreS = (performance.now() - t0) / 1000
    if (restored.rows !== manifest.rows) throw new Error(`rows: ${manifest.rows} out, ${restored.rows} back`)
    return { rows: manifest.rows, exportS, restoreS, bytes: statSync(join(dir, manifest.file)).size }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export const archiveLine = (t: ArchiveTiming) =>
  `archive export: ${Math.round(t.rows / t.exportS)} rows/s, restore: ${Math.round(t.rows / t.restoreS)} rows/s`
