// A real nginx on this machine, running the deployment kit's own config (deploy/nginx/rfq-engine.conf) on
// loopback: Debian's `nginx`, found through NGINX_BIN, then PATH, then /usr/sbin/nginx; missing, the suite
// fails with one line saying what to install. The kit's file is rewritten, not copied by hand: its listen
// lines move to a loopback address per name (plain HTTP on the test's port), its ssl lines go, and each
// upstream's node lines become the test engine's port. Anything the rewrite does not recognise fails it, so
// the kit and the test cannot drift apart silently. nginx runs in one process (master_process off) under the
// guard, so it dies with the test however the test dies.
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { spawnTethered } from '../../engine/ops/tethered.js'
import { repoRoot } from '../../engine/paths.js'

export const NGINX_MISSING = 'nginx is missing: apt-get install nginx (or set NGINX_BIN)'
export const KIT_CONF = join(repoRoot, 'deploy/nginx/rfq-engine.conf')

export function findNginx(env: NodeJS.ProcessEnv = process.env): string | null {
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map(d => join(d, 'nginx'))
  const candidates = [env.NGINX_BIN, ...onPath, '/usr/sbin/nginx']
  return candidates.find(p => !!p && executable(p)) ?? null
}

export interface LoopbackLayout {
  /** the port every name listens on (each name on its own loopback address) */
  port: number
  /** server_name -> loopback address, for every name the kit serves over TLS */
  names: Record<string, string>
  /** where the kit's port-80 redirect server listens instead */
  redirectAddress: string
  /** upstream name -> the one host:port it proxies to here */
  upstreams: Record<string, string>
}

/** The kit's config, moved onto loopback as `layout` says. Throws on anything it does not recognise. */
export function kitOnLoopback(kit: string, layout: LoopbackLayout): string {
  const seen = new Set<string>()
  let out = kit.replace(/^upstream (\w+) \{\n([\s\S]*?)^\}/gm, (_, name: string, body: string) => {
    const target = layout.upstreams[name]
    if (!target) throw new Error(`the kit's upstream ${name} has no target in this test`)
    seen.add(name)
    let placed = false // the first node line becomes the target, in its place
    const lines = body.split('\n').flatMap(l => {
      if (!/^\s*server\s/.test(l)) return [l]
      if (placed) return []
      placed = true
      return [`    server ${target};`]
    })
    return `upstream ${name} {\n${lines.join('\n')}}`
  })
  const missing = Object.keys(layout.upstreams).filter(n => !seen.has(n))
  if (missing.length) throw new Error(`the kit has no upstream ${missing.join(', ')}`)
  out = out.replace(/^server \{\n([\s\S]*?)^\}/gm, (_, body: string) => {
    const names = /^\s*server_name ([^;]+);/m.exec(body)?.[1]!.trim().split(/\s+/) ?? []
    const plain = /^\s*listen 80;/m.test(body)
    const address = plain ? layout.redirectAddress : layout.names[names[0] ?? '']
    if (!address || (!plain && names.length !== 1)) {
      throw new Error(`the kit's server for ${names.join(' ') || '(no name)'} has no place in this test`)
    }
    const lines = body.split('\n').flatMap(l => {
      if (/^\s*listen \[::\]/.test(l) || /^\s*ssl_/.test(l)) return []
      if (/^\s*listen (80|443 ssl);/.test(l)) return [`    listen ${address}:${layout.port};`]
      if (/^\s*listen /.test(l)) throw new Error(`the kit listens in a way this test does not know: ${l.trim()}`)
      return [l]
    })
    return `server {\n${lines.join('\n')}}`
  })
  const live = out.replace(/^\s*#.*$/gm, '')
  if (/\bssl\b|10\.0\.0\./.test(live)) throw new Error('the rewritten kit still has TLS or a node address in it')
  return out
}

export interface Nginx {
  stop(): Promise<void>
  log(): string
  dir: string
}

/** nginx serving `site` (an http-block include) from its own prefix directory; resolves once `probe` accepts. */
export async function startNginx(site: string, probe: { host: string; port: number }): Promise<Nginx> {
  const bin = findNginx()
  if (!bin) throw new Error(NGINX_MISSING)
  const dir = mkdtempSync(join(tmpdir(), 'nginx-kit-'))
  chmodSync(dir, 0o755)
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, 'tmp', t), { recursive: true })
  writeFileSync(join(dir, 'rfq-engine.conf'), site)
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    t => `    ${t}_temp_path ${join(dir, 'tmp', t === 'client_body' ? 'body' : t)};`,
  )
  writeFileSync(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'master_process off;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} info;`,
      'events { worker_connections 512; }',
      'http {',
      `    access_log ${join(dir, 'access.log')};`,
      ...temp,
      `    include ${join(dir, 'rfq-engine.conf')};`,
      '}',
      '',
    ].join('\n'),
  )
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')]
  const proc = spawnTethered('nginx-guard', bin, args, { unref: true })
  let out = ''
  for (const s of [proc.guard.stdout!, proc.guard.stderr!])
    s.on('data', (c: Buffer) => {
      out += c.toString()
    })
  const log = () => out + readIf(join(dir, 'error.log'))
  let exited = false
  void proc.exited.then(() => {
    exited = true
  })
  for (let i = 0; !(await accepts(probe.host, probe.port)); i++) {
    if (exited || i > 200) {
      await proc.stop(2000)
      const bad = log()
        .trim()
        .split('\n')
        .filter(l => /emerg|alert|crit|error/.test(l))
        .slice(-3)
        .join(' | ')
      throw new Error(`nginx did not start: ${bad || log().slice(-400)}`)
    }
    await new Promise(r => setTimeout(r, 25))
  }
  return {
    dir,
    log,
    async stop() {
      await proc.stop(5000)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** a port free on every one of `hosts` right now (the same number on each) */
export async function freePortOn(hosts: string[]): Promise<number> {
  for (let tries = 0; tries < 20; tries++) {
    const port = await new Promise<number>((resolve, reject) => {
      const s = createServer()
        .once('error', reject)
        .listen(0, hosts[0], () => {
          const p = (s.address() as { port: number }).port
          s.close(() => resolve(p))
        })
    })
    if ((await Promise.all(hosts.slice(1).map(h => bindable(h, port)))).every(Boolean)) return port
  }
  throw new Error(`no port free on all of ${hosts.join(', ')}`)
}

function bindable(host: string, port: number): Promise<boolean> {
  return new Promise(resolve => {
    const s = createServer()
      .once('error', () => resolve(false))
      .listen(port, host, () => s.close(() => resolve(true)))
  })
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise(resolve => {
    const sock = connect({ host, port }, () => {
      sock.destroy()
      resolve(true)
    })
    sock.once('error', () => resolve(false))
  })
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function readIf(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

export function kitConf(): string {
  return readFileSync(KIT_CONF, 'utf8')
}
