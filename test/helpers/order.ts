// One total order for values of any shape in assertions that compare two sets as sorted lists: by their
// JSON text (what sort() with no compare does for strings; for numbers use (a, b) => a - b).
export function byJson(a: unknown, b: unknown): number {
  const x = JSON.stringify(a),
    y = JSON.stringify(b)
  return x < y ? -1 : x > y ? 1 : 0
}
