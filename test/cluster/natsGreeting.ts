// Proof that a port is a real NATS server without a NATS client: the server speaks first, one `INFO {...}`
// line to every new connection (the NATS client protocol), which we read off a raw TCP socket.
import { connect } from 'node:net'

/** The first line a NATS server sends a new client: `INFO {...}`, parsed. */
export function natsGreeting(port: number, host = '127.0.0.1'): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, host)
    let buf = ''
    const timer = setTimeout(() => {
      sock.destroy()
      reject(new Error(`no INFO from ${host}:${port}: ${JSON.stringify(buf)}`))
    }, 5000)
    sock.on('data', d => {
      buf += d.toString()
      const end = buf.indexOf('\r\n')
      if (end < 0) return
      clearTimeout(timer)
      sock.destroy()
      const m = /^INFO (\{.*\})\s*$/.exec(buf.slice(0, end))
      if (m?.[1]) resolve(JSON.parse(m[1]))
      else reject(new Error(`not a NATS greeting: ${JSON.stringify(buf.slice(0, end))}`))
    })
    sock.on('error', e => {
      clearTimeout(timer)
      reject(e)
    })
  })
}
