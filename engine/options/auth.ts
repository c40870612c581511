// Options market data auth (spec "Authentication" 1): with API_KEY set, every path but /health needs
// `Authorization: Bearer <API_KEY>`; unset, everything is public. Both sides are hashed before a
// constant-time compare, so neither the key's bytes nor its length leak through timing.
import { createHash, timingSafeEqual } from 'node:crypto'
import { HttpError } from '../front/errors.js'

export const unauthorized = () => new HttpError(401, 'Unauthorized', {}, { 'www-authenticate': 'Bearer' })

/**
 * Asked by the terminal's front door before routing, so an unknown path or a wrong method answers 401
 * like everything else without the key, and reveals nothing about which paths exist.
 */
export function terminalAuthorizer(apiKey: string | undefined): ((path: string, headers: Record<string, string>) => HttpError | undefined) | undefined {
  if (!apiKey) return undefined
  const expected = digest(apiKey)
  return (path, headers) => {
    if (path === '/health') return undefined
    const m = /^Bearer (.+)$/.exec(headers['authorization'] ?? '')
    return m && timingSafeEqual(digest(m[1]!), expected) ? undefined : unauthorized()
  }
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest()
}
