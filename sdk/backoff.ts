// Reconnect timing for the SDK: from 1000 ms doubling per attempt (the spec's suggestion), capped at 30 s, with up to
// 20% jitter so a fleet of makers does not reconnect in step, forever unless a cap is set. The rule itself is the
// house's one backoff (workers/retry/backoff.ts, compiled into this package), which the engine and console wait by too.
export { backoffDelayMs, jittered } from '../workers/retry/backoff.js'

/** Reconnects: from 1000 ms doubling per attempt (the spec's suggestion), capped at 30 s, with up to 20% jitter, forever. */
export const DEFAULT_RECONNECT = {
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  maxAttempts: Infinity,
  jitter: 0.2,
} as const
