// The one backoff of the house: a wait that doubles per failed attempt from a first delay up to a cap, jittered
// down at random so a fleet (makers, pollers, consoles) does not retry in step. The engine, the maker SDK and the
// web console all wait by it. It imports nothing: the SDK's package compiles this file into itself (sdk/tsconfig.json)
// and the console's bundle takes it as it is.

/** The wait before retry `attempt` (0-based): `initialMs` doubled per attempt, never past `maxMs`. */
export function backoffDelayMs(attempt: number, initialMs = 1000, maxMs = 30_000): number {
  return Math.min(maxMs, initialMs * 2 ** Math.min(Math.max(0, attempt), 30))
}

/** A random point in [(1 - jitter) * delay, delay]: the jitter only shortens, so the cap stays the longest wait. */
export function jittered(delayMs: number, jitter: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (1 - jitter * random()))
}
