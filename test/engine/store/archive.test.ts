// Archive round trip: a day's partition exported (COPY, gzip, a manifest), dropped by retention, restored into a side
// table: the rows equal the originals, bigint amounts to the wei. A corrupt archive (a flipped byte, a gzip stream cut
// short, a bad line, a line the server refuses after the last chunk) is refused naming the file and the line, and
// nothing of it stays loaded.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import { testDatabase, type TestDatabase } from '../../helpers/db.js'
import { insertRfq } from '../../../engine/store/rfqs.js'
import { createQuoteWriter } from '../../../engine/store/quotes.js'
import { ensurePartitions, partitionName } from '../../../engine/store/partitions.js'
import { runRetention } from '../../../engine/store/retention.js'
import { exportPartition } from '../../../engine/store/archive/export.js'
import { listArchives, ArchiveError, type Manifest } from '../../../engine/store/archive/manifest.js'
import { restoreArchive } from '../../../engine/store/archive/restore.js'
import { A, DAY, quote as storeQuote, rfq } from './rows.js'

const WEI = 10n ** 40n + 123456789012345678901234567890n

const quote = (rfqId: string, maker: number) =>
  storeQuote(rfqId, maker, { signature: `0x${'ab'.repeat(65)}`, amountIn: String(WEI + BigInt(maker)), nonce: '7' })

let db: TestDatabase, dir: string, partition: string, manifest: Manifest, good: Buffer
let original: unknown[]
const at = Math.floor(Date.now() / DAY) * DAY - 10 * DAY + 3_600_000
const manifestPath = () => join(dir, `${partition}.manifest.json`)
const gzPath = () => join(dir, manifest.file)
const sideTable = async () => (await db.sql`select to_regclass(${`archive_${partition}`}) as t`)[0]!.t as string | null

/** Rewrites the archive's data and its manifest's checksum to match, as a corruption that passes the sha256 would. */
function rewrite(data: Buffer): void {
  writeFileSync(gzPath(), data)
  const sha256 = createHash('sha256').update(data).digest('hex')
  writeFileSync(manifestPath(), JSON.stringify({ ...manifest, sha256, bytes: data.length }))
}

before(async () => {
  db = await testDatabase('arc')
  dir = mkdtempSync(join(tmpdir(), 'archive-'))
  partition = partitionName('quotes', new Date(at).toISOString().slice(0, 10))
  await ensurePartitions(db.sql, { now: at, ahead: 0 })
  const w = createQuoteWriter(db.sql)
  for (let r = 0; r < 4; r++) {
    await insertRfq(db.sql, rfq(`rfq_a${r}`, new Date(at + r)), null)
    await Promise.all(Array.from({ length: 25 }, (_, m) => w.write(quote(`rfq_a${r}`, m + 1))))
  }
  original = [...(await db.sql.unsafe(`select * from ${partition} order by rfq_id, maker`))]
  assert.equal(original.length, 100)
})

after(async () => {
  await db.drop()
  rmSync(dir, { recursive: true, force: true })
})

test('export, retention drop, restore: the side table holds the original rows, amounts to the wei', async () => {
  manifest = await exportPartition(db.sql, partition, dir)
  const [v] = await db.sql`select max(name) as v from schema_migrations`
  assert.deepEqual(
    { rows: manifest.rows, day: manifest.day, schemaVersion: manifest.schemaVersion },
    { rows: 100, day: new Date(at).toISOString().slice(0, 10), schemaVersion: v!.v },
  )
  assert.ok(manifest.columns.some(c => c.name === 'amount_in' && c.type === 'numeric(78,0)'))
  assert.equal(manifest.sha256, createHash('sha256').update(readFileSync(gzPath())).digest('hex'))
  assert.deepEqual(
    listArchives(dir).map(m => m.partition),
    [partition],
  )
  good = readFileSync(gzPath())
  assert.deepEqual((await runRetention(db.sql, { days: 5 })).dropped, [partition])
  assert.equal((await db.sql`select to_regclass(${partition}) as t`)[0]!.t, null, 'the partition is gone')

  const restored = await restoreArchive(db.sql, manifestPath())
  assert.deepEqual(restored, { table: `archive_${partition}`, rows: 100 })
  const rows = [...(await db.sql.unsafe(`select * from ${restored.table} order by rfq_id, maker`))]
  assert.deepEqual(rows, original)
  const [amount] = await db.sql.unsafe(
    `select amount_in::text as a from ${restored.table} where maker = decode(substr($1, 3), 'hex')
      and rfq_id = rfq_key('rfq_a0')`,
    [A(7)],
  )
  assert.equal(amount!.a, String(WEI + 7n))
  await assert.rejects(restoreArchive(db.sql, manifestPath()), /exists: drop it first, or restore with --replace/)
  assert.equal((await restoreArchive(db.sql, manifestPath(), { replace: true })).rows, 100)
  await db.sql.unsafe(`drop table ${restored.table}`)
})

test('a flipped byte: refused by its checksum, naming the file; nothing loaded', async () => {
  const flipped = Buffer.from(good)
  const mid = flipped.length >> 1
  flipped.writeUInt8(flipped.readUInt8(mid) ^ 0xff, mid)
  writeFileSync(gzPath(), flipped)
  await assert.rejects(
    restoreArchive(db.sql, manifestPath()),
    (e: Error) =>
      e instanceof ArchiveError &&
      e.message === `${gzPath()}: its sha256 is not its manifest's: the file is corrupt or was changed`,
  )
  assert.equal(await sideTable(), null)
})

test('a gzip stream cut short (its checksum rewritten to match): refused naming the file and the line', async () => {
  rewrite(good.subarray(0, good.length - 200))
  await assert.rejects(
    restoreArchive(db.sql, manifestPath()),
    (e: Error) =>
      e instanceof ArchiveError &&
      new RegExp(`^${gzPath()}: line \\d+: the gzip stream is corrupt or cut short`).test(e.message),
  )
  assert.equal(await sideTable(), null)
})

test('a bad line: refused naming the file and the line; the rows before it are not left loaded', async () => {
  const lines = gunzipSync(good).toString('utf8').split('\n')
  lines[41] = 'not\ta\tquote'
  rewrite(gzipSync(lines.join('\n')))
  await assert.rejects(
    restoreArchive(db.sql, manifestPath()),
    (e: Error) =>
      e instanceof ArchiveError &&
      e.message === `${gzPath()}: line 42: 3 fields where the manifest lists ${manifest.columns.length} columns`,
  )
  assert.equal(await sideTable(), null)

  const amount = lines.map(l => l.split('\t'))
  amount[9]![manifest.columns.findIndex(c => c.name === 'amount_in')] = '12x4'
  rewrite(gzipSync(amount.map(f => f.join('\t')).join('\n')))
  await assert.rejects(
    restoreArchive(db.sql, manifestPath()),
    (e: Error) =>
      e instanceof ArchiveError && e.message === `${gzPath()}: line 10: amount_in is not a numeric(78,0): 12x4`,
  )
  assert.equal(await sideTable(), null)

  // the bytes and flags of migration 103's layout are checked alike
  for (const [column, value, type] of [
    ['maker', '\\\\x0g', 'bytea'],
    ['signature', '0xab', 'bytea'],
    ['taker_open', 'true', 'boolean'],
  ]) {
    const bad = lines.map(l => l.split('\t'))
    bad[4]![manifest.columns.findIndex(c => c.name === column)] = value!
    rewrite(gzipSync(bad.map(f => f.join('\t')).join('\n')))
    await assert.rejects(
      restoreArchive(db.sql, manifestPath()),
      (e: Error) =>
        e instanceof ArchiveError && e.message === `${gzPath()}: line 5: ${column} is not a ${type}: ${value}`,
    )
  }
  assert.equal(await sideTable(), null)
})

test('a last line only the server refuses, after the stream ended: refused, not a restore that hangs', async () => {
  const rows = gunzipSync(good)
    .toString('utf8')
    .split('\n')
    .map(l => l.split('\t'))
  // an offset of 99 hours has a timestamp's form, but PostgreSQL refuses it: found after the whole file was sent
  const last = rows[99]!,
    at = manifest.columns.findIndex(c => c.name === 'received_at')
  last[at] = last[at]!.replace(/\+00$/, '+99')
  rewrite(gzipSync(rows.map(f => f.join('\t')).join('\n')))
  await assert.rejects(
    restoreArchive(db.sql, manifestPath()),
    (e: Error) => e instanceof ArchiveError && e.message.startsWith(`${gzPath()}: line 100: the server refused it: `),
  )
  assert.equal(await sideTable(), null)
  // the pool is whole afterwards: the good archive restores
  rewrite(good)
  assert.equal((await restoreArchive(db.sql, manifestPath())).rows, 100)
})

test('retention with an archive directory exports before it drops; a failed export keeps the partition', async () => {
  const day = at + DAY
  const name = partitionName('quotes', new Date(day).toISOString().slice(0, 10))
  await ensurePartitions(db.sql, { now: day, ahead: 0 })
  await insertRfq(db.sql, rfq('rfq_b', new Date(day)), null)
  await createQuoteWriter(db.sql).write(quote('rfq_b', 1))
  const gone = join(dir, 'no-such-dir')
  const kept = await runRetention(db.sql, { days: 5, archiveDir: gone })
  assert.deepEqual([kept.dropped, kept.unarchived?.map(u => u.partition)], [[], [name]])
  assert.notEqual((await db.sql`select to_regclass(${name}) as t`)[0]!.t, null, 'kept for the next run')
  const run = await runRetention(db.sql, { days: 5, archiveDir: dir })
  assert.deepEqual([run.archived, run.dropped], [[name], [name]])
  assert.equal(listArchives(dir).find(m => m.partition === name)?.rows, 1)
})
