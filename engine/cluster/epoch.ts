// A node's epoch: one number per run, larger than every earlier run's, carried in every message it sends. Its
// peers tell a restart (a larger epoch: its numbers start again at 1) from a recording of an earlier run played
// back (a smaller one: dropped). The clock gives it; the file in DATA_DIR keeps it rising when the clock steps
// back between two runs, which would otherwise leave a restarted node unheard.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export function nextEpoch(dataDir: string, now = Date.now()): number {
  const file = join(dataDir, 'cluster-epoch')
  let last = 0
  try {
    last = Number(readFileSync(file, 'utf8').trim()) || 0
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  } // a first run
  const epoch = Math.max(now, last + 1)
  writeFileSync(file, `${epoch}\n`)
  return epoch
}
