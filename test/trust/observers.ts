// Observers for the trust tests: every surface as an outsider, a share-token holder or an agent sees it.
// SSE streams are opened from distinct loopback addresses (127.0.0.2, ...), since the feed allows one
// connection per client address.
import http from 'node:http'
import { Client } from '../relay/helpers.js'

export interface Stream {
  text(): string
  close(): void
}

/** An SSE stream read as text from `localAddress`. */
export function sse(url: string, localAddress: string, headers: Record<string, string> = {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    let text = ''
    const req = http.get(url, { localAddress, headers }, res => {
      res.setEncoding('utf8')
      res.on('data', c => {
        text += c
      })
      res.on('error', () => {})
      if (res.statusCode !== 200) {
        res.resume()
        reject(new Error(`feed answered ${res.statusCode}`))
        return
      }
      resolve({ text: () => text, close: () => req.destroy() })
    })
    req.on('error', e => reject(e))
  })
}

/** Everything a relay socket received, as one string. */
export const seen = (c: Client) => JSON.stringify(c.frames)

export async function getText(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers })
  return { status: res.status, text: await res.text() }
}
