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

/** Listens on host:port (0 = any free port) and resolves the port actually bound. */
export function listen(app: UWS.TemplatedApp, host: string, port: number): Promise<{ port: number; socket: UWS.us_listen_socket }> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, socket => {
      if (!socket) return reject(new Error(`cannot listen on ${host}:${port}`))
      resolve({ port: uWS.us_socket_local_port(socket), socket })
    })
  })
}

export function closeListen(socket: UWS.us_listen_socket): void {
  uWS.us_listen_socket_close(socket)
}
