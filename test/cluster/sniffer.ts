// A listener on the wire: a TCP proxy between a node and nats-server that passes every byte on and keeps a copy
// of both directions, as someone on the network path (or on the NATS host's interface) would see them.
import { createServer, connect, type Socket } from 'node:net'

export interface Sniffer {
  /** where the node connects instead of nats-server */
  port: number
  /** every byte seen so far, both directions */
  bytes(): Buffer
  close(): Promise<void>
}

export async function sniffer(targetPort: number, targetHost = '127.0.0.1'): Promise<Sniffer> {
  const seen: Buffer[] = []
  const sockets = new Set<Socket>()
  const server = createServer(client => {
    const upstream = connect(targetPort, targetHost)
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(from)
      from.on('data', (chunk: Buffer) => {
        seen.push(Buffer.from(chunk))
        to.write(chunk)
      })
      from.on('close', () => {
        sockets.delete(from)
        to.destroy()
      })
      from.on('error', () => to.destroy())
    }
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    bytes: () => Buffer.concat(seen),
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>(resolve => server.close(() => resolve()))
    },
  }
}
