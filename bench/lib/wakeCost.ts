// What one wake-up of an idle Node process costs in CPU on this machine: a child process reads small
// messages arriving over loopback TCP, one at a time with idle gaps between them, and reports its own
// CPU time. Reference for the cluster bench: a node that applies another node's word pays this per NATS
// message on top of the work itself, so on a machine where it is large, messages per second matter more
// than bytes or quotes per message.
import { createServer, connect, type Socket } from 'node:net'
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

if (process.argv[2] === 'wake-reader') {
  const s = connect(Number(process.argv[3]), '127.0.0.1')
  s.on('data', () => {})
  process.on('message', () => {
    const c = process.cpuUsage()
    process.send!(c.user + c.system)
  })
  s.on('connect', () => process.send!('ready'))
}

/** CPU µs per wake-up of a reading process, at `rate` messages a second for `seconds`. */
export async function wakeCost(rate = 300, seconds = 3): Promise<number> {
  let writer: Socket | undefined
  const server = createServer(c => {
    writer = c
    c.setNoDelay(true)
  })
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r))
  const reader = fork(fileURLToPath(import.meta.url), [
    'wake-reader',
    String((server.address() as { port: number }).port),
  ])
  try {
    await new Promise(r => reader.once('message', r))
    const cpu = () =>
      new Promise<number>(r => {
        reader.once('message', v => r(v as number))
        reader.send('cpu')
      })
    const before = await cpu()
    const payload = Buffer.alloc(64, 1)
    for (let i = 0; i < rate * seconds; i++) {
      writer!.write(payload)
      await new Promise(r => setTimeout(r, 1000 / rate))
    }
    await new Promise(r => setTimeout(r, 100))
    return ((await cpu()) - before) / (rate * seconds)
  } finally {
    reader.kill()
    server.close()
  }
}
