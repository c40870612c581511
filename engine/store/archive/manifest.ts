// An archive is two files in the archive directory: `<partition>.copy.gz`, the partition's rows as COPY's text
// format (one row a line, tab-separated) compressed with gzip, and `<partition>.manifest.json`, what it holds. The
// manifest is written last (aside, then renamed into place), so a listed archive is always whole.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

/** A day's partition of quotes, rfqs or agent_activity, as partitions.ts names them. */
export const PARTITION = /^(quotes|rfqs|agent_activity)_p(\d{4})(\d{2})(\d{2})$/

const column = z.object({
  name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
  // a type as format_type() names it (an array's too: rfqs' allowed_makers is text[]): it is written into the side
  // table's definition, so nothing else gets in
  type: z.string().regex(/^[a-z][a-z0-9 ]*(\(\d+(,\d+)?\))?( with(out)? time zone)?(\[\])?$/),
})

const manifestSchema = z.object({
  table: z.enum(['quotes', 'rfqs', 'agent_activity']),
  partition: z.string().regex(PARTITION),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** the newest migration applied when it was written: the layout the rows have */
  schemaVersion: z.string().min(1),
  columns: z.array(column).min(1),
  rows: z.number().int().min(0),
  file: z.string().regex(/^(quotes|rfqs|agent_activity)_p\d{8}\.copy\.gz$/),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
})

export type Manifest = z.infer<typeof manifestSchema>
export type Column = z.infer<typeof column>

export class ArchiveError extends Error {
  override name = 'ArchiveError'
}

export const manifestName = (partition: string) => `${partition}.manifest.json`
export const dataName = (partition: string) => `${partition}.copy.gz`

/** Reads and checks a manifest; a file that is not one is refused naming it. */
export function readManifest(path: string): Manifest {
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new ArchiveError(`${path}: not a readable archive manifest (${(e as Error).message})`)
  }
  const parsed = manifestSchema.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    throw new ArchiveError(`${path}: not an archive manifest (${first?.path.join('.')}: ${first?.message})`)
  }
  return parsed.data
}

/** The archives in `dir`, oldest day first; a manifest that is not one is refused naming it. */
export function listArchives(dir: string): Manifest[] {
  return readdirSync(dir)
    .filter(f => f.endsWith('.manifest.json') && !f.startsWith('.'))
    .sort()
    .map(f => readManifest(join(dir, f)))
}
