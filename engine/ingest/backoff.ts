// After n consecutive failed cycles, wait interval × 2^(n-1) (capped), with ±20 % jitter so
// several pollers do not retry in step; a success goes back to the plain interval.
export function backoffDelay(intervalMs: number, failures: number, maxMs: number, random = Math.random): number {
  if (failures <= 0) return intervalMs
  const raw = Math.min(maxMs, intervalMs * 2 ** Math.min(failures - 1, 30))
  return Math.round(raw * (0.8 + 0.4 * random()))
}

/** Resolves after ms, or at once when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise(resolve => {
    if (signal.aborted) return resolve()
    const t = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(t)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}
