// After n consecutive failed cycles, wait interval × 2^(n-1), capped, by the house's one backoff (workers/retry),
// jittered down by up to 20 % so several pollers do not retry in step (the cap stays the longest wait); a success
// goes back to the plain interval.
import { backoffDelayMs, jittered } from '../../workers/retry/backoff.js'

export function backoffDelay(intervalMs: number, failures: number, maxMs: number, random = Math.random): number {
  if (failures <= 0) return intervalMs
  return jittered(backoffDelayMs(failures - 1, intervalMs, maxMs), 0.2, random)
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
