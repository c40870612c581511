// API keys: `rfq_live_` + 32 random bytes (256 bits) in base64url. Only the sha256 of a key is
// stored; the per-agent rate limit is keyed by that hash too.
import { createHash, randomBytes } from 'node:crypto'

export const LIVE_KEY_PREFIX = 'rfq_live_'
const KEY_BODY = /^[A-Za-z0-9_-]{43}$/

export function generateApiKey(): string {
  return LIVE_KEY_PREFIX + randomBytes(32).toString('base64url')
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

/** Shape only: prefix and body. Whether the key exists is the store's question. */
export function isWellFormedKey(key: string): boolean {
  return key.startsWith(LIVE_KEY_PREFIX) && KEY_BODY.test(key.slice(LIVE_KEY_PREFIX.length))
}

export function newAgentId(): string {
  return 'agt_' + randomBytes(12).toString('hex')
}
