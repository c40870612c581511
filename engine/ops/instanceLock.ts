// One instance per data directory (engine) or per checkout (sandbox). The lock is a Linux abstract
// UNIX socket named after the directory's real path: the kernel releases it the moment the holder
// dies, however it dies (kill -9 included), so a crashed instance never blocks the next one and
// there is no stale file to clean. A second instance that finds the name taken connects to it and
// reads who holds it (pid, ports, data dir), so its one-line refusal can say exactly that.
import { createServer, connect, type Server } from 'node:net'
import { createHash } from 'node:crypto'
import { mkdirSync, realpathSync } from 'node:fs'
import { resolve } from 'node:path'

export interface InstanceInfo {
  kind: string
  pid: number
  dir: string
  /** filled in once the instance listens */
  ports?: Record<string, number>
}

export class AlreadyRunning extends Error {
  override name = 'AlreadyRunning'
  readonly code = 'ALREADY_RUNNING'
  constructor(
    readonly holder: InstanceInfo | null,
    dir: string,
  ) {
    super(
      holder
        ? `${holder.kind} already running (${describeHolder(holder)})`
        : `already running (data dir ${dir}; holder did not answer)`,
    )
  }
}

export interface InstanceLock {
  readonly info: InstanceInfo
  /** what a second instance is told: call once the ports are known */
  setPorts(ports: Record<string, number>): void
  release(): Promise<void>
}

export function describeHolder(h: InstanceInfo): string {
  const ports = h.ports
    ? Object.entries(h.ports)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : 'ports not yet bound'
  return `pid ${h.pid}, ports ${ports}, data dir ${h.dir}`
}

/** The abstract socket name for a directory (created if missing, so its real path is stable). */
export function lockName(kind: string, dir: string): string {
  mkdirSync(dir, { recursive: true })
  const real = realpathSync(resolve(dir))
  return `\0rfq-engine:${kind}:${createHash('sha256').update(real).digest('hex').slice(0, 32)}`
}

/** Takes the lock or throws AlreadyRunning naming the holder. */
export async function acquireInstanceLock(kind: string, dir: string): Promise<InstanceLock> {
  const name = lockName(kind, dir)
  const info: InstanceInfo = { kind, pid: process.pid, dir: realpathSync(resolve(dir)) }
  const server = createServer(sock => {
    sock.end(JSON.stringify(info))
    sock.on('error', () => {})
  })
  try {
    await listenOn(server, name)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e
    throw new AlreadyRunning(await askHolder(name), info.dir)
  }
  server.unref() // the lock never keeps the process alive by itself
  return {
    info,
    setPorts(ports) {
      info.ports = ports
    },
    release: () => new Promise(r => server.close(() => r())),
  }
}

function listenOn(server: Server, name: string): Promise<void> {
  return new Promise((res, rej) => {
    server.once('error', rej)
    server.listen(name, () => {
      server.off('error', rej)
      res()
    })
  })
}

function askHolder(name: string): Promise<InstanceInfo | null> {
  return new Promise(res => {
    const sock = connect(name)
    let buf = ''
    const done = (v: InstanceInfo | null) => {
      clearTimeout(t)
      sock.destroy()
      res(v)
    }
    const t = setTimeout(() => done(null), 1000)
    sock.on('data', d => {
      buf += d.toString()
    })
    sock.on('end', () => {
      try {
        done(JSON.parse(buf) as InstanceInfo)
      } catch {
        done(null) // not an engine's answer
      }
    })
    sock.on('error', () => done(null))
  })
}

/** Who holds the lock of `dir`, or null when nobody does (no instance is running there). */
export async function holderOf(kind: string, dir: string): Promise<InstanceInfo | null> {
  return askHolder(lockName(kind, dir))
}
