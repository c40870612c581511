// A bench's WebSocket to the relay, once open (rejected on its first error): without per-message deflate, so a
// bench measures the relay's work and not compression.
import WebSocket from 'ws'

export function openSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false })
  return new Promise((res, rej) => {
    ws.once('open', () => res(ws))
    ws.once('error', rej)
  })
}

/**
 * Closes a socket and resolves once it is closed, at once when it already is: the relay may have closed it first (a
 * client too slow to read its frames, or to answer a PING), and its 'close' event has then been and gone (a run of
 * bench/relay.js waited on one for ever).
 */
export function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve()
  return new Promise(r => {
    ws.once('close', () => r())
    ws.close()
  })
}
