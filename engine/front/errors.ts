// HTTP errors are values with the spec's envelope: {error: text, ...debug}. Route code throws
// them (or returns them); the server turns them into replies, so no handler formats errors itself.
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
  get body(): Record<string, unknown> {
    return { error: this.message, ...this.extra }
  }
}

export const Errors = {
  badRequest: (text: string, extra?: Record<string, unknown>) => new HttpError(400, text, extra),
  invalidJson: () => new HttpError(400, 'Invalid JSON body'),
  unauthorized: (text = 'Unauthorized') => new HttpError(401, text),
  forbidden: (text = 'Forbidden', extra?: Record<string, unknown>) => new HttpError(403, text, extra),
  notFound: (text = 'Not found') => new HttpError(404, text),
  methodNotAllowed: (allow: string[]) => new HttpError(405, 'Method not allowed', {}, { allow: allow.join(', ') }),
  conflict: (text: string, extra?: Record<string, unknown>) => new HttpError(409, text, extra),
  payloadTooLarge: (limit: number) => new HttpError(413, `Request body too large (max ${limit} bytes)`),
  tooManyRequests: (text: string, retryAfterSec: number, extra?: Record<string, unknown>) =>
    new HttpError(429, text, extra, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSec))) }),
  /** an address that keeps presenting bad keys (agent keys, the terminal's API_KEY) is refused before any check */
  authFailures: (retryAfterSec: number) =>
    new HttpError(
      429,
      'Too many failed authentications from this address; retry later',
      { code: 'AUTH_FAILURES' },
      { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSec))) },
    ),
  internal: () => new HttpError(500, 'Internal server error'),
  unavailable: (text = 'Service unavailable') => new HttpError(503, text),
  /** the database (or another dependency every request needs) is unreachable: retry after a few seconds */
  dependencyDown: (retryAfterSec = 5) =>
    new HttpError(
      503,
      'Service unavailable: the database is unreachable; retry shortly',
      { code: 'UNAVAILABLE' },
      { 'retry-after': String(retryAfterSec) },
    ),
}
