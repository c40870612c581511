// Text from the outside world: control characters (NUL included) never reach SQL, logs or a peer.
const CONTROL = /[\u0000-\u001f\u007f]/

export function hasControlChars(s: string): boolean {
  return CONTROL.test(s)
}

/**
 * A short, safe name for an untrusted value, for error texts: its JS type, or a bounded printable
 * string. Never stringifies a nested value (a deep array would overflow the stack).
 */
export function describeValue(x: unknown, max = 40): string {
  if (typeof x === 'string') {
    const clean = x.replace(/[\u0000-\u001f\u007f]/g, '?')
    return clean.length > max ? clean.slice(0, max) + '…' : clean
  }
  if (x === null) return 'null'
  if (Array.isArray(x)) return 'array'
  return typeof x
}
