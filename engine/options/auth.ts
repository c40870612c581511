// Options market data auth (spec "Authentication" 1): with API_KEY set, every path but /health needs
// `Authorization: Bearer <API_KEY>`; unset, everything is public. Both sides are hashed before a
// constant-time compare, so neither the key's bytes nor its length leak through timing.
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Guard, Handler } from '../front/request.js'
import { HttpError } from '../front/errors.js'

export const unauthorized = () => new HttpError(401, 'Unauthorized', {}, { 'www-authenticate': 'Bearer' })

export function terminalAuthGuard(apiKey: string | undefined): Guard {
  if (!apiKey) return () => {}
  const expected = digest(apiKey)
  return req => {
    if (req.path === '/health') return
    const m = /^Bearer (.+)$/.exec(req.headers['authorization'] ?? '')
    if (!m || !timingSafeEqual(digest(m[1]!), expected)) throw unauthorized()
  }
}

/** The terminal's serveHttp has no guard list of its own: our handlers carry the guard. */
export function guarded(guard: Guard, handler: Handler): Handler {
  return async req => {
    const stop = await guard(req)
    return stop ?? handler(req)
  }
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest()
}
