// Guards shared by surfaces: rate limits keyed by client IP (or anything else the caller picks).
import type { Guard, Req } from './request.js'
import { Errors } from './errors.js'

export interface Limiter {
  hit(key: string): { ok: boolean; retryAfterSec: number }
}

export function rateLimit(
  limiter: Limiter,
  opts: { key?: (r: Req) => string; skip?: (r: Req) => boolean; text?: string } = {},
): Guard {
  const key = opts.key ?? (r => r.ip)
  const text = opts.text ?? 'Rate limit exceeded'
  return req => {
    if (opts.skip?.(req)) return
    const v = limiter.hit(key(req))
    if (!v.ok) throw Errors.tooManyRequests(text, v.retryAfterSec, { code: 'RATE_LIMITED' })
  }
}
