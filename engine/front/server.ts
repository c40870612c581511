// Binds a Router to a uWS app: copies the request out of uWS, reads the body under a cap,
// runs guards and the handler, and writes the reply corked, never after an abort.
import type { Logger } from 'pino'
import type { TemplatedApp, HttpResponse, HttpRequest } from './uws.js'
import type { Router } from './router.js'
import type { Guard, Reply, Req, StreamSink } from './request.js'
import type { Metrics } from '../metrics.js'
import { Errors, HttpError } from './errors.js'
import { toJson } from './json.js'
import { allowedOrigin } from './cors.js'
import { clientIp } from './ip.js'
import { statusLine } from './status.js'
import { isUnavailable } from '../store/unavailable.js'
import { controlCharsIn, hasControlChars, BODY_CONTROL } from './text.js'

export interface SurfaceOptions {
  name: string
  router: Router
  guards?: Guard[]
  bodyLimit: number
  corsOrigin: string
  trustProxy: boolean
  /** with trustProxy: how many proxies we run in front (the client is that many entries from the right of X-Forwarded-For) */
  trustProxyHops?: number
  metrics: Metrics
  log: Logger
  /** counts requests in flight, so shutdown can wait for them */
  inflight?: { n: number }
  /** asked before routing (the terminal's key): unknown paths must not answer before the key is checked */
  authorize?: (path: string, headers: Record<string, string>, ip: string) => HttpError | undefined
  /** bytes a streamed reply (SSE) may have buffered for a client that does not read; past it the client is closed */
  streamBufferLimit?: number
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
/** invalid UTF-8 is not JSON text: it is refused, not silently replaced with U+FFFD */
const utf8 = new TextDecoder('utf-8', { fatal: true })

export function serveHttp(app: TemplatedApp, opts: SurfaceOptions): void {
  app.any('/*', (res, req) => handle(res, req, opts))
}

function handle(res: HttpResponse, uReq: HttpRequest, opts: SurfaceOptions): void {
  const started = performance.now()
  // uWS's request lives only for this synchronous part: copy everything out first.
  const method = uReq.getCaseSensitiveMethod().toUpperCase()
  const path = uReq.getUrl()
  const rawQuery = uReq.getQuery() ?? ''
  const headers: Record<string, string> = {}
  uReq.forEach((k, v) => {
    headers[k] = v
  })
  const ip = clientIp(res, headers, opts.trustProxy, opts.trustProxyHops)
  const cors = allowedOrigin(opts.corsOrigin, headers.origin)

  const state = { aborted: false, done: false, onAbort: [] as (() => void)[] }
  const abort = new AbortController()
  const inflight = opts.inflight
  let handling = false // the handler is running: it leaves the in-flight count itself
  res.onAborted(() => {
    state.aborted = true
    abort.abort()
    for (const cb of state.onAbort) cb()
    // a client gone before its body arrived: no handler will ever send, so nothing must wait for it
    if (!handling && !state.done) {
      state.done = true
      if (inflight) inflight.n--
    }
  })
  if (inflight) inflight.n++
  let routeLabel = 'unmatched'

  const send = (reply: Reply) => {
    if (state.done) return
    state.done = true
    if (inflight) inflight.n--
    opts.metrics.httpRequests.inc({ surface: opts.name, route: routeLabel, method, status: reply.status })
    opts.metrics.httpLatency.observe(
      { surface: opts.name, route: routeLabel, method },
      (performance.now() - started) / 1000,
    )
    if (state.aborted) return
    if (reply.stream) return openStream(res, reply, opts, state, cors)
    const body = reply.text ?? reply.rawJson ?? (reply.body === undefined ? '' : toJson(reply.body))
    res.cork(() => {
      res.writeStatus(statusLine(reply.status))
      writeCors(res, cors)
      if (reply.text === undefined && (reply.body !== undefined || reply.rawJson !== undefined))
        res.writeHeader('content-type', 'application/json')
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.writeHeader(k, v)
      res.end(body)
    })
  }
  const fail = (e: unknown) => {
    if (e instanceof HttpError) return send({ status: e.status, body: e.body, headers: e.headers })
    if (isUnavailable(e)) {
      opts.log.warn({ err: e, method, path }, 'dependency unavailable')
      const u = Errors.dependencyDown()
      return send({ status: u.status, body: u.body, headers: u.headers })
    }
    opts.log.error({ err: e, method, path }, 'unhandled error in route')
    send({ status: 500, body: Errors.internal().body })
  }

  if (method === 'OPTIONS') {
    return send({
      status: 204,
      headers: {
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': headers['access-control-request-headers'] ?? 'authorization, content-type',
        'access-control-max-age': '600',
      },
    })
  }

  const denied = opts.authorize?.(path, headers, ip)
  if (denied) return fail(denied)
  const match = opts.router.match(method, path)
  if (match.kind === 'none') return send({ status: 404, body: Errors.notFound().body })
  if (match.kind === 'method') return fail(Errors.methodNotAllowed(match.allow))
  routeLabel = match.pattern
  const query = new URLSearchParams(rawQuery)
  // control characters (NUL included) never reach SQL, logs or a peer: refused at the door, whatever the route
  const badText = controlCharsIn(match.params, query)
  if (badText)
    return fail(Errors.badRequest(`Control characters are not allowed in ${badText}`, { code: 'INVALID_TEXT' }))

  const run = (rawBody: Buffer | undefined) => {
    handling = true
    let body: unknown
    if (rawBody && rawBody.length) {
      try {
        body = JSON.parse(utf8.decode(rawBody))
      } catch {
        return fail(Errors.invalidJson())
      }
      // in a body, tab, newline and carriage return are left to each field's own rule (a name's, say)
      if (hasControlChars(body, BODY_CONTROL))
        return fail(Errors.badRequest('Control characters are not allowed in the body', { code: 'INVALID_TEXT' }))
    }
    const r: Req = {
      method,
      path,
      rawQuery,
      query,
      params: match.params,
      headers,
      ip,
      body,
      rawBody,
      locals: {},
      signal: abort.signal,
    }
    runGuarded(r, opts.guards ?? [], match.handler).then(send, fail)
  }

  if (!BODY_METHODS.has(method)) return run(undefined)
  const declared = Number(headers['content-length'] ?? '0')
  if (declared > opts.bodyLimit) return fail(Errors.payloadTooLarge(opts.bodyLimit))
  readBody(res, opts.bodyLimit, run, () => fail(Errors.payloadTooLarge(opts.bodyLimit)))
}

async function runGuarded(req: Req, guards: Guard[], handler: (r: Req) => Reply | Promise<Reply>): Promise<Reply> {
  for (const g of guards) {
    const stop = await g(req)
    if (stop) return stop
  }
  return handler(req)
}

/** Body chunks are neutered when onData returns: copy as we go, parse at the end. */
function readBody(res: HttpResponse, limit: number, done: (b: Buffer) => void, tooLarge: () => void): void {
  const chunks: Buffer[] = []
  let size = 0
  let over = false
  res.onData((chunk, isLast) => {
    if (over) return
    size += chunk.byteLength
    if (size > limit) {
      over = true
      return tooLarge()
    }
    chunks.push(Buffer.from(new Uint8Array(chunk).slice()))
    if (isLast) done(Buffer.concat(chunks))
  })
}

function writeCors(res: HttpResponse, origin: string | null): void {
  if (origin !== null) res.writeHeader('access-control-allow-origin', origin)
  if (origin !== '*') res.writeHeader('vary', 'origin')
}

function openStream(
  res: HttpResponse,
  reply: Reply,
  opts: SurfaceOptions,
  state: { aborted: boolean; onAbort: (() => void)[] },
  cors: string | null,
): void {
  // uWS buffers what the socket cannot take yet; a client that stops reading would make that buffer grow
  // without end. Bytes written since the socket last drained are counted; past the cap the client is closed.
  const limit = opts.streamBufferLimit ?? 1 << 20
  let backlog = 0
  let watching = false
  const sink: StreamSink = {
    get closed() {
      return state.aborted
    },
    write(chunk) {
      if (state.aborted) return false
      let ok = false
      res.cork(() => {
        ok = res.write(chunk)
      })
      if (ok) return true
      backlog += Buffer.byteLength(chunk)
      if (backlog > limit) {
        opts.log.warn({ backlog, limit }, 'stream client not reading: closed')
        res.close() // not end(): that would queue behind what it does not read
        return false
      }
      if (!watching) {
        watching = true
        res.onWritable(() => {
          backlog = 0
          watching = false
          return true
        })
      }
      return false
    },
    end() {
      if (state.aborted) return
      state.aborted = true
      res.cork(() => res.end())
      for (const cb of state.onAbort) cb()
    },
    onClose(cb) {
      state.onAbort.push(cb)
    },
  }
  res.cork(() => {
    res.writeStatus(statusLine(reply.status))
    writeCors(res, cors)
    for (const [k, v] of Object.entries(reply.headers ?? {})) res.writeHeader(k, v)
  })
  reply.stream!(sink)
}
