// Export of a day's partition (quotes or rfqs): COPY ... TO STDOUT in its text format, gzip-compressed (node:zlib) into the
// archive directory. The file and then its manifest are each written aside, synced and renamed into place: a crash
// leaves a hidden temporary file, never a listed archive that is cut short. Dates and times go out in ISO form
// whatever the server's DateStyle, so a restore elsewhere reads them the same.
import { createHash } from 'node:crypto'
import { open, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough, Transform } from 'node:stream'
import { finished, pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { Sql } from '../db.js'
import { ArchiveError, dataName, manifestName, PARTITION, type Column, type Manifest } from './manifest.js'

/** Writes `<dir>/<partition>.copy.gz` and its manifest; returns the manifest. */
export async function exportPartition(sql: Sql, partition: string, dir: string): Promise<Manifest> {
  const m = PARTITION.exec(partition)
  if (!m) throw new ArchiveError(`${partition} is not a day's partition (quotes_, rfqs_ or agent_activity_pYYYYMMDD)`)
  const file = dataName(partition)
  const aside = join(dir, `.${file}.${process.pid}.tmp`)
  let rows = 0
  const hash = createHash('sha256')
  let bytes = 0
  // opened first: a directory that cannot take the file fails before any COPY starts
  const out = await open(aside, 'w', 0o640)
  const { columns, schemaVersion } = await sql
    .begin(async tx => {
      await tx`set local datestyle = 'ISO, YMD'`
      await tx`set local timezone = 'UTC'`
      const columns: Column[] = (
        await tx`
        select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
        where attrelid = ${partition}::regclass and attnum > 0 and not attisdropped order by attnum`
      ).map(r => ({
        name: String(r.name),
        type: String(r.type),
      }))
      const [version] = await tx`select max(name) as v from schema_migrations`
      const list = columns.map(c => `"${c.name}"`).join(', ')
      const source = await tx.unsafe(`copy ${partition} (${list}) to stdout`).readable()
      // postgres.js (3.4) pauses the connection's socket when this stream's buffer is full, and resumes it only
      // from the stream's _read. When the pause comes with the last rows, the stream ends and _read is never called
      // again: the rest of the server's answer stays unread and the transaction hangs. Its end resumes the socket.
      source.once('end', () => (source as unknown as { _read(): void })._read())
      // COPY's text format escapes newlines inside values: each row is exactly one line
      const count = new Transform({
        transform(chunk: Buffer, _e, done) {
          for (const byte of chunk) if (byte === 10) rows++
          done(null, chunk)
        },
      })
      const tee = new Transform({
        transform(chunk: Buffer, _e, done) {
          hash.update(chunk)
          bytes += chunk.length
          done(null, chunk)
        },
      })
      // COPY's stream is never destroyed: postgres.js pauses the connection's socket when it cannot push, so a
      // destroyed one would leave the connection stuck. On a failure it is unpiped and drained to its end instead.
      const into = source.pipe(new PassThrough())
      try {
        await pipeline(into, count, createGzip(), tee, out.createWriteStream())
      } catch (e) {
        source.unpipe(into)
        source.resume()
        await finished(source).catch(() => undefined) // the connection's own failure: the transaction reports it
        await rm(aside, { force: true })
        throw e
      }
      return { columns, schemaVersion: String(version?.v) }
    })
    .finally(() => out.close().catch(() => undefined)) // closed by its stream already, unless COPY never started
  await syncFile(aside)
  await rename(aside, join(dir, file))
  const manifest: Manifest = {
    table: m[1] as Manifest['table'],
    partition,
    day: `${m[2]}-${m[3]}-${m[4]}`,
    schemaVersion,
    columns,
    rows,
    file,
    bytes,
    sha256: hash.digest('hex'),
    createdAt: new Date().toISOString(),
  }
  const manifestAside = join(dir, `.${manifestName(partition)}.${process.pid}.tmp`)
  await writeFile(manifestAside, JSON.stringify(manifest, null, 2) + '\n', { mode: 0o640 })
  await syncFile(manifestAside)
  await rename(manifestAside, join(dir, manifestName(partition)))
  return manifest
}

/** The archive is the only copy once the partition is dropped: on disk before its name says it is there. */
async function syncFile(path: string): Promise<void> {
  const fh = await open(path, 'r')
  try {
    await fh.sync()
  } finally {
    await fh.close()
  }
}
