// Options market data auth (spec "Authentication" 1): with API_KEY set, every path but /health needs
// `Authorization: Bearer <API_KEY>`; unset, everything is public. Both sides are hashed before a
// constant-time compare, so neither the key's bytes nor its length leak through timing. Wrong keys are
// throttled like agent keys: an address past AUTH_FAILURES_PER_MIN wrong keys a minute is answered 429
// before its key is compared, so the key cannot be guessed at the terminal's general request rate.
import { createHash, timingSafeEqual } from 'node:crypto'
import { Errors, HttpError } from '../front/errors.js'
import { bearerToken } from '../front/bearer.js'
import type { SlidingWindowLimiter } from '../front/limits.js'

export const unauthorized = () => new HttpError(401, 'Unauthorized', {}, { 'www-authenticate': 'Bearer' })

/**
 * Asked by the terminal's front door before routing, so an unknown path or a wrong method answers 401
 * like everything else without the key, and reveals nothing about which paths exist. A request with no
 * Authorization header is not a guess and is not counted.
 */
export function terminalAuthorizer(
  apiKey: string | undefined,
  failures: SlidingWindowLimiter,
): ((path: string, headers: Record<string, string>, ip: string) => HttpError | undefined) | undefined {
  if (!apiKey) return undefined
  const expected = digest(apiKey)
  return (path, headers, ip) => {
    if (path === '/health') return undefined
    const blocked = failures.peek(ip)
    if (!blocked.ok) return Errors.authFailures(blocked.retryAfterSec)
    const header = headers['authorization']
    const key = bearerToken(header)
    if (key !== undefined && timingSafeEqual(digest(key), expected)) return undefined
    if (header !== undefined) failures.hit(ip)
    return unauthorized()
  }
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest()
}
