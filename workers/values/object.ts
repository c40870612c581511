// A JSON object from the outside world: a body, a frame's data, a quote. Not null, not an array.

/** A plain JSON object (what JSON.parse makes of `{...}`): not null and not an array. */
export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}
