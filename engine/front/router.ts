// A small router: per-method routes with :params, matched segment by segment. It knows every
// method registered for a path, so a wrong method answers 405 with Allow rather than 404.
import type { Handler } from './request.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

interface Route {
  method: Method
  pattern: string
  segments: string[]
  handler: Handler
}

export type Match =
  | { kind: 'found'; handler: Handler; params: Record<string, string>; pattern: string }
  | { kind: 'method'; allow: Method[] }
  | { kind: 'none' }

export class Router {
  private readonly routes: Route[] = []
  private readonly exact = new Map<string, Map<Method, Handler>>()

  add(method: Method, pattern: string, handler: Handler): this {
    const segments = split(pattern)
    if (segments.some(s => s.startsWith(':'))) this.routes.push({ method, pattern, segments, handler })
    else {
      const byMethod = this.exact.get(pattern) ?? new Map<Method, Handler>()
      byMethod.set(method, handler)
      this.exact.set(pattern, byMethod)
    }
    return this
  }

  get(pattern: string, h: Handler): this {
    return this.add('GET', pattern, h)
  }
  post(pattern: string, h: Handler): this {
    return this.add('POST', pattern, h)
  }

  /** Every registered route, for the OpenAPI self-check. */
  list(): { method: Method; pattern: string }[] {
    const out: { method: Method; pattern: string }[] = []
    for (const [pattern, byMethod] of this.exact) for (const method of byMethod.keys()) out.push({ method, pattern })
    for (const r of this.routes) out.push({ method: r.method, pattern: r.pattern })
    return out
  }

  match(method: string, path: string): Match {
    const allow = new Set<Method>()
    const key = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
    const byMethod = this.exact.get(key)
    if (byMethod) {
      const h = byMethod.get(method as Method)
      if (h) return { kind: 'found', handler: h, params: {}, pattern: key }
      for (const m of byMethod.keys()) allow.add(m)
    }
    const parts = split(path)
    for (const r of this.routes) {
      const params = matchSegments(r.segments, parts)
      if (!params) continue
      if (r.method === method) return { kind: 'found', handler: r.handler, params, pattern: r.pattern }
      allow.add(r.method)
    }
    return allow.size ? { kind: 'method', allow: [...allow] } : { kind: 'none' }
  }
}

function split(path: string): string[] {
  return path.split('/').filter(Boolean)
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(parts[i]!)
      } catch {
        return null
      }
    } else if (p !== parts[i]) return null
  }
  return params
}
