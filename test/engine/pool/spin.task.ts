// A task that never looks at a clock or a signal: it spins for `ms`, counting as it goes, so a test can tell a
// stopped thread (the count stands still) from an abandoned one (it keeps counting). The count is kept in shared
// memory (a thread lane) or, where the task runs in another process (the route process), written to a file.
import { renameSync, writeFileSync } from 'node:fs'

export default ({ ms, counter }: { ms: number; counter?: SharedArrayBuffer | string }): string => {
  const count = counter instanceof SharedArrayBuffer ? new Int32Array(counter) : null
  const file = typeof counter === 'string' ? counter : null
  const end = Date.now() + ms
  let n = 0,
    written = 0
  for (let now = Date.now(); now < end; now = Date.now()) {
    if (count) Atomics.add(count, 0, 1)
    n++
    if (file && now !== written) {
      write(file, n) // at most once a millisecond
      written = now
    }
  }
  if (file) write(file, n)
  return 'done'
}

/** whole or not at all: a reader never sees the file half written */
function write(file: string, n: number): void {
  writeFileSync(`${file}.part`, String(n))
  renameSync(`${file}.part`, file)
}
