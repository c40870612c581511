// Control characters in what a client sent (path parameters, query values, JSON strings and keys),
// found before any handler runs. The JSON walk is iterative: a body nested thousands deep must not
// overflow the stack that checks it.
import { hasControlChars as textHas } from '../../workers/values/index.js'

/** Where a control character is, or undefined: "the path", "query parameter <name>". */
export function controlCharsIn(params: Record<string, string>, query: URLSearchParams): string | undefined {
  for (const v of Object.values(params)) if (textHas(v)) return 'the path'
  for (const [k, v] of query) if (textHas(k) || textHas(v)) return `query parameter ${textHas(k) ? 'names' : k}`
  return undefined
}

/** Control characters but tab, newline and carriage return: what no JSON string field may hold. */
export const BODY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export function hasControlChars(body: unknown, pattern: RegExp): boolean {
  const stack: unknown[] = [body]
  while (stack.length) {
    const v = stack.pop()
    if (typeof v === 'string') {
      if (pattern.test(v)) return true
    } else if (Array.isArray(v)) {
      for (const x of v) stack.push(x)
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (pattern.test(k)) return true
        stack.push(x)
      }
    }
  }
  return false
}
