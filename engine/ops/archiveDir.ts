// ARCHIVE_DIR is checked at start, before anything else is touched: retention would find out an hour later, at the
// first drop, and keep the partition, which an operator would learn of only from a warning in the logs. It must
// already exist (a typo must not archive onto the wrong disk) and take a file: a probe is written and removed, which
// is the only test that tells a read-only mount or a full disk from a writable directory.
import { rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'

/** One line naming ARCHIVE_DIR and what is wrong with it, or undefined when it is fine. */
export async function archiveDirProblem(dir: string): Promise<string | undefined> {
  const at = resolve(dir)
  const is = await stat(at).catch(() => undefined)
  if (!is) return `ARCHIVE_DIR=${dir}: no such directory (${at}): create it, or unset ARCHIVE_DIR`
  if (!is.isDirectory()) return `ARCHIVE_DIR=${dir}: not a directory (${at})`
  const probe = join(at, `.write-probe-${process.pid}`)
  try {
    await writeFile(probe, '')
    await rm(probe, { force: true })
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message
    return `ARCHIVE_DIR=${dir}: not writable by this process (${why})`
  }
  return undefined
}
