// A real nats-server on this machine, for the cluster tests and `make cluster`. No npm package ships the
// binary (nats-memory-server downloads it at install, which fails offline), so it comes from the OS: Debian's
// `nats-server` package, or wherever NATS_SERVER_BIN points. The server dies with the process that started
// it, however that process dies (kill -9 included): it runs under the guard in devGuard.ts.
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { spawnTethered, eachLine } from '../ops/tethered.js'

export const NATS_MISSING = 'nats-server is missing: apt-get install nats-server (or set NATS_SERVER_BIN)'

/** Where Debian's package puts the binary; looked at last, since /usr/sbin is not on every user's PATH. */
export const DEBIAN_NATS_SERVER = '/usr/sbin/nats-server'

export interface NatsServer {
  /** nats://host:port, for NATS_URL */
  url: string
  port: number
  /** nats-server's own pid */
  pid: number
  /** SIGTERM, then wait for it to exit */
  stop(): Promise<void>
  /** SIGKILL, then wait for it to exit: a crashed server, for fault tests */
  kill9(): Promise<void>
  /** everything it has written so far (its log goes to stderr) */
  log(): string
}

export interface NatsServerOptions {
  /** 0 or unset: a free port the server picks */
  port?: number
  /** the interface to listen on (default 127.0.0.1) */
  host?: string
  jetstream?: boolean
  /** JetStream's store; unset: a temporary folder, removed once the server has exited */
  storeDir?: string
  /** the binary to run; default findNatsServer(). A path that is not an executable counts as missing. */
  bin?: string | null
  /** extra flags, e.g. ['--auth', token] */
  args?: string[]
  /** each line the server logs, as it comes */
  onLine?: (line: string) => void
}

/** The nats-server binary: NATS_SERVER_BIN, then PATH, then Debian's place; null when none is executable. */
export function findNatsServer(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = [
    env.NATS_SERVER_BIN,
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map(dir => join(dir, 'nats-server')),
    DEBIAN_NATS_SERVER,
  ]
  return candidates.find(p => !!p && executable(p)) ?? null
}

const READY_TIMEOUT_MS = 10_000
const LOG_LIMIT = 256 * 1024

export async function startNatsServer(opts: NatsServerOptions = {}): Promise<NatsServer> {
  const bin = opts.bin === undefined ? findNatsServer() : opts.bin
  if (!bin || !executable(bin)) throw new Error(NATS_MISSING)
  const host = opts.host ?? '127.0.0.1'
  const tempStore = opts.jetstream && !opts.storeDir ? mkdtempSync(join(tmpdir(), 'nats-js-')) : undefined
  const args = [
    '-a',
    host,
    '-p',
    String(opts.port || -1),
    ...(opts.jetstream ? ['-js', '-sd', opts.storeDir ?? tempStore!] : []),
    ...(opts.args ?? []),
  ]
  // unref: a server a test forgot to stop never keeps its process alive (and goes when that process exits)
  const proc = spawnTethered('nats-guard', bin, args, { unref: true })
  let log = ''
  for (const stream of [proc.guard.stdout!, proc.guard.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-LOG_LIMIT)
    })
    if (opts.onLine) eachLine(stream, opts.onLine)
  }
  const cleanup = () => {
    if (tempStore) rmSync(tempStore, { recursive: true, force: true })
  }
  void proc.exited.then(cleanup)

  let pid = 0
  proc.pid.then(
    p => {
      pid = p
    },
    () => {},
  )
  let port: number
  try {
    // the poll's timer is what keeps us alive meanwhile (the child's pipes do not: unref)
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`nats-server did not listen within ${READY_TIMEOUT_MS / 1000} s: ${tail(log)}`)),
        READY_TIMEOUT_MS,
      )
      const poll = setInterval(() => {
        const m = /Listening for client connections on \S+:(\d+)/.exec(log)
        if (m && pid) {
          clearInterval(poll)
          clearTimeout(timer)
          resolve(Number(m[1]))
        }
      }, 10)
      void proc.exited.then(code => {
        clearInterval(poll)
        clearTimeout(timer)
        reject(new Error(`nats-server exited (${code}) before listening: ${tail(log)}`))
      })
    })
  } catch (e) {
    await proc.stop(2000)
    throw e
  }
  return {
    url: `nats://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    port,
    pid,
    stop: async () => {
      await proc.stop()
    },
    kill9: async () => {
      await proc.kill9()
    },
    log: () => log,
  }
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** What to quote when it failed: its fatal and error lines when it wrote some (without pid and time), else its last lines. */
function tail(log: string): string {
  const lines = log
    .trim()
    .split('\n')
    .filter(Boolean)
    .map(l => l.replace(/^\[\d+\] \S+ \S+ /, ''))
  const errors = lines.filter(l => /^\[(FTL|ERR)\]/.test(l))
  return (errors.length ? errors : lines).slice(-5).join(' | ') || '(no output)'
}
