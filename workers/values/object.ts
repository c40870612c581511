// A JSON object from the outside world: a body, a frame's data, a quote. Not null, not an array.

/** A plain JSON object (what JSON.parse makes of `{...}`): not null and not an array. */
export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

/** What a `catch` or a rejection caught, as an Error: itself when it is one, else its text in a new one. */
export function asError(x: unknown): Error {
  return x instanceof Error ? x : new Error(String(x))
}
