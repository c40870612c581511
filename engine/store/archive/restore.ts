// A restore loads an archive into a side table for analysis, `archive_<partition>`, never into the live `quotes`:
// its columns are the manifest's, so an archive written under an older layout still loads. It runs in one
// transaction: the side table is made, filled by COPY ... FROM STDIN and checked against the manifest's row count,
// or none of it stays. A corrupt archive is refused naming the file, and the line where one is at fault: a checksum
// that is not the manifest's, a gzip stream cut short, a line that is not a row.
import { createHash } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { asError } from '../../../workers/values/index.js'
import type { Sql } from '../db.js'
import { BadLine, LineCheck } from './lines.js'
import { ArchiveError, readManifest, type Manifest } from './manifest.js'

export interface Restored {
  table: string
  rows: number
}

export interface RestoreOptions {
  /** drop a side table of the same name first (else such a table refuses the restore: it may hold someone's work) */
  replace?: boolean
}

/** Loads the archive `manifestPath` describes into `archive_<partition>`. */
export async function restoreArchive(sql: Sql, manifestPath: string, opts: RestoreOptions = {}): Promise<Restored> {
  const manifest = readManifest(manifestPath)
  const file = join(dirname(manifestPath), manifest.file)
  if (!existsSync(file)) throw new ArchiveError(`${file}: missing (its manifest is ${manifestPath})`)
  if ((await sha256(file)) !== manifest.sha256) {
    throw new ArchiveError(`${file}: its sha256 is not its manifest's: the file is corrupt or was changed`)
  }
  const table = `archive_${manifest.partition}`
  await sql.begin(async tx => {
    await tx`set local datestyle = 'ISO, YMD'`
    await tx`set local timezone = 'UTC'`
    const [exists] = await tx`select to_regclass(${table}) as t`
    if (exists?.t && !opts.replace) throw new ArchiveError(`${table} exists: drop it first, or restore with --replace`)
    await tx.unsafe(`drop table if exists ${table}`)
    const columns = manifest.columns.map(c => `"${c.name}" ${c.type}`).join(', ')
    await tx.unsafe(`create table ${table} (${columns})`)
    await load(tx as unknown as Sql, table, manifest, file)
  })
  return { table, rows: manifest.rows }
}

async function load(tx: Sql, table: string, manifest: Manifest, file: string): Promise<void> {
  const list = manifest.columns.map(c => `"${c.name}"`).join(', ')
  const copy = tx.unsafe(`copy ${table} (${list}) from stdin`)
  // postgres.js settles this query with the stream as soon as the copy starts; the server's refusal afterwards only
  // reaches the query's reject (a no-op then), and when it comes after the stream ended, the stream never finishes.
  // Hooking reject is what turns such a refusal into an error here instead of a restore that hangs.
  const query = copy as unknown as { reject: (e: unknown) => void }
  const refused = new Promise<never>((_, fail) => {
    const reject = query.reject
    query.reject = (e: unknown) => {
      fail(asError(e))
      reject(e)
    }
  })
  refused.catch(() => {}) // awaited in the race below; a refusal before it is also the writable()'s rejection
  const sink = await copy.writable()
  const source = createReadStream(file)
  const check = new LineCheck(manifest.columns)
  try {
    await Promise.race([pipeline(source, createGunzip(), check, sink), refused])
  } catch (e) {
    source.destroy()
    sink.destroy()
    throw refusal(file, check, e)
  }
  if (check.lines !== manifest.rows) {
    throw new ArchiveError(`${file}: ${check.lines} rows where its manifest says ${manifest.rows}`)
  }
}

/** Why the load stopped, naming the file and the line. */
function refusal(file: string, check: LineCheck, e: unknown): ArchiveError {
  if (e instanceof BadLine) return new ArchiveError(`${file}: ${e.message}`)
  const err = e as { code?: string; message?: string; where?: string }
  if (err.code === 'Z_BUF_ERROR' || err.code === 'Z_DATA_ERROR') {
    return new ArchiveError(
      `${file}: line ${check.lines + 1}: the gzip stream is corrupt or cut short (${err.message})`,
    )
  }
  const line = /line (\d+)/.exec(err.where ?? '')?.[1]
  return new ArchiveError(`${file}: ${line ? `line ${line}: ` : ''}the server refused it: ${err.message}`)
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
