// What a route handler sees: plain data copied out of uWS's stack-allocated request, the parsed
// JSON body (already read under the size cap), and nothing it could misuse after a tick.
export interface Req {
  method: string
  path: string
  /** the raw query string, without '?' */
  rawQuery: string
  query: URLSearchParams
  params: Record<string, string>
  /** lower-case header names */
  headers: Record<string, string>
  ip: string
  /** the parsed JSON body; undefined when there was none */
  body: unknown
  /** the raw body, for the rare handler that must see the bytes */
  rawBody: Buffer | undefined
  /** set by guards (auth) for the handler */
  locals: Record<string, unknown>
  /** aborted when the client goes away before the reply: a held request (a long poll) frees itself on it */
  signal?: AbortSignal
}

/** A streamed reply (SSE): the server writes headers, then hands the sink to `open`. */
export interface StreamSink {
  write(chunk: string): boolean
  end(): void
  onClose(cb: () => void): void
  readonly closed: boolean
}

export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** raw text body (e.g. Prometheus exposition) instead of JSON, or bytes (a precompressed console asset) */
  text?: string | Buffer
  /** a body already serialised as JSON (built by the database), sent as application/json */
  rawJson?: string | Buffer
  stream?: (sink: StreamSink) => void
}

export type Handler = (req: Req) => Reply | Promise<Reply>
/** A guard runs before the handler: it returns a Reply (or throws an HttpError) to stop the request. */
export type Guard = (req: Req) => void | Reply | Promise<void | Reply>

export const ok = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body, headers })
export const created = (body: unknown): Reply => ({ status: 201, body })
export const json = (status: number, body: unknown): Reply => ({ status, body })

/** Reads an integer query parameter within [min, max], or the default when absent. */
export function intParam(q: URLSearchParams, name: string, def: number, min: number, max: number): number | null {
  const raw = q.get(name)
  if (raw === null || raw === '') return def
  if (!/^-?\d+$/.test(raw)) return null
  const n = Number(raw)
  return n < min || n > max ? null : n
}
