// Which failures mean "a dependency is down" rather than "a bug": they answer 503 with Retry-After (and
// the relay's ERROR code UNAVAILABLE), never 500. PostgreSQL's connection failures as postgres.js and
// Node report them, PostgreSQL's own "cannot serve now" classes, and errors we mark ourselves.
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'UNAVAILABLE',
])

/** PostgreSQL SQLSTATEs: 08 connection exception, 57P01-57P03 shutdown/crash/cannot connect now, 53300 too many connections. */
const SQLSTATE = /^(08...|57P0[123]|53300)$/

export function isUnavailable(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false
  const code = (e as { code?: unknown }).code
  if (typeof code !== 'string') return false
  // a Unix socket's file is gone while its server is down
  if (code === 'ENOENT' && (e as { syscall?: unknown }).syscall === 'connect') return true
  return CODES.has(code) || SQLSTATE.test(code)
}
