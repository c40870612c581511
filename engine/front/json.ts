// JSON out: bigint becomes its decimal string (token amounts are bigint end to end, and JSON
// numbers would lose wei above 2^53).
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))
}
