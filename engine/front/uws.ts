// uWebSockets.js through its npm alias. Its loader silently falls back to a slow ws-based copy
// when the native binary fails to load; that would cut relay throughput ~30x, so refuse to start.
import { createRequire } from 'node:module'
import type * as UWS from 'uWebSockets.js'

const require = createRequire(import.meta.url)
export const uWS: typeof UWS = require('uWebSockets.js')

if (typeof (uWS as { getParts?: unknown }).getParts !== 'function') {
  throw new Error('uWebSockets.js native binary failed to load (the ws fallback was loaded instead); refusing to start')
}

export type { TemplatedApp, HttpRequest, HttpResponse, WebSocket, us_listen_socket } from 'uWebSockets.js'

/** The port could not be bound: taken by another process (uSockets gives no finer reason). */
export class PortInUse extends Error {
  override name = 'PortInUse'
  readonly code = 'PORT_IN_USE'
  constructor(
    readonly host: string,
    readonly port: number,
    readonly variable?: string,
  ) {
    super(
      variable
        ? `port ${port} (${variable}) is in use on ${host}: stop what holds it, or set ${variable} to a free port`
        : `port ${port} is in use on ${host}`,
    )
  }
}

const LIBUS_LISTEN_EXCLUSIVE_PORT = 1

/**
 * Listens on host:port (0 = any free port), exclusively: uSockets would otherwise set SO_REUSEPORT and
 * a second process on the same port would start silently and take half the connections.
 */
export function listen(
  app: UWS.TemplatedApp,
  host: string,
  port: number,
): Promise<{ port: number; socket: UWS.us_listen_socket }> {
  return new Promise((resolve, reject) => {
    // (host, port, options, cb) exists at run time; the typings list it only without the host
    const listenWith = app.listen.bind(app) as unknown as (
      h: string,
      p: number,
      o: number,
      cb: (s: UWS.us_listen_socket | false) => void,
    ) => void
    listenWith(host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, socket => {
      if (!socket) return reject(new PortInUse(host, port))
      resolve({ port: uWS.us_socket_local_port(socket), socket })
    })
  })
}

export function closeListen(socket: UWS.us_listen_socket): void {
  uWS.us_listen_socket_close(socket)
}
