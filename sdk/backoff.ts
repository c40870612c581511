// Reconnect timing for the SDK: from 1000 ms doubling per attempt (the spec's suggestion), capped at 30 s,
// with up to 20% jitter so a fleet of makers does not reconnect in step, forever unless a cap is set.

/** Reconnects: from 1000 ms doubling per attempt (the spec's suggestion), capped at 30 s, with up to 20% jitter, forever. */
export const DEFAULT_RECONNECT = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  maxAttempts: Infinity,
  jitter: 0.2,
} as const

/** Delay before reconnect attempt `n` (0-based), before jitter. */
export function backoffDelayMs(
  n: number,
  initialDelayMs: number = DEFAULT_RECONNECT.initialDelayMs,
  maxDelayMs: number = DEFAULT_RECONNECT.maxDelayMs,
): number {
  return Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(n, 30))
}

/** With jitter: a random point in [(1 - jitter) * d, d], so a fleet of makers does not reconnect in step. */
export function jittered(delayMs: number, jitter: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (1 - jitter * random()))
}
