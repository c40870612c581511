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
