// A task that never looks at a clock or a signal: it spins for `ms`, counting in shared memory as it goes, so a
// test can tell a stopped thread (the count stands still) from an abandoned one (it keeps counting).
export default ({ ms, counter }: { ms: number; counter?: SharedArrayBuffer }): string => {
  const count = counter ? new Int32Array(counter) : null
  const end = Date.now() + ms
  while (Date.now() < end) if (count) Atomics.add(count, 0, 1)
  return 'done'
}
