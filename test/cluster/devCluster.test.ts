// `make cluster` as a person runs it: a real process that starts nats-server and engine nodes on one
// database, prints one table, prefixes each node's log lines with its NODE_ID, reports a node that dies while
// the others keep serving, refuses a second cluster on the same directory, and on SIGINT stops every child
// it started and exits 0. Its nats-server is set up as a venue's: TLS only, no anonymous client, a key per node
// kept under DIR, and the nodes hear each other through it. (What they say to each other is the cluster
// runtime's suite.)
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from '../../engine/paths.js'
import { testDatabase } from '../helpers/db.js'
import { natsGreeting } from './natsGreeting.js'

const ENTRY = join(repoRoot, 'dist/engine/devcluster/devCluster.js')
const FREE_PORTS = ['--api-port', '0', '--terminal-port', '0', '--relay-port', '0', '--nats-port', '0']

interface Row {
  id: string
  api: string
  terminal: string
  relay: string
  pid: number
}
interface Cluster {
  child: ChildProcess
  out: () => string
  err: () => string
  exited: Promise<number>
  rows: Row[]
  nats: string
  database: string
}

function baseEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const { NODE_TEST_CONTEXT: _, DATABASE_URL: __, ...env } = process.env
  return { ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json', ...extra }
}

/** Starts the dev cluster and resolves with its table, once printed. */
async function startCluster(args: string[], env: NodeJS.ProcessEnv): Promise<Cluster> {
  const child = spawn(process.execPath, [ENTRY, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = '',
    err = ''
  child.stdout.on('data', d => {
    out += d
  })
  child.stderr.on('data', d => {
    err += d
  })
  const exited = new Promise<number>(r => child.once('exit', (code, sig) => r(code ?? (sig ? 128 : 1))))
  await new Promise<void>((resolve, reject) => {
    const iv = setInterval(() => {
      if (/^Each node's log lines start with its NODE_ID\./m.test(out)) {
        clearInterval(iv)
        resolve()
      }
    }, 25)
    void exited.then(code => {
      clearInterval(iv)
      reject(new Error(`the cluster exited (${code}) before its table: ${err}${out.slice(-2000)}`))
    })
  })
  const rows = [...out.matchAll(/^ {2}(node-\d+)\s+(http:\/\/\S+)\s+(http:\/\/\S+)\s+(ws:\/\/\S+)\s+(\d+)$/gm)].map(
    ([, id = '', api = '', terminal = '', relay = '', pid]) => ({ id, api, terminal, relay, pid: Number(pid) }),
  )
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    rows,
    nats: /^ {2}nats\s+(tls:\/\/\S+)/m.exec(out)?.[1] ?? '',
    database: /^ {2}database\s+(.+)$/m.exec(out)?.[1] ?? '',
  }
}

/** Every process below pid, from /proc (the nodes and the server run in sessions of their own, still our children). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      /* gone meanwhile */
    }
  }
  const found: number[] = []
  const walk = (p: number) => {
    for (const [c, pp] of parent)
      if (pp === p) {
        found.push(c)
        walk(c)
      }
  }
  walk(pid)
  return found
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}
async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  for (const t0 = Date.now(); Date.now() - t0 < ms;) {
    if (await ok()) return
    await new Promise(r => setTimeout(r, 50))
  }
  assert.fail(`timed out waiting: ${what}`)
}
const status = async (url: string) => (await fetch(url)).status

/** A dev cluster in a fresh directory for `use`; afterwards it is killed if still up and its directory removed. */
async function withCluster(
  args: string[],
  env: NodeJS.ProcessEnv,
  use: (cluster: Cluster, dir: string) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-'))
  let cluster: Cluster | undefined
  try {
    cluster = await startCluster([...FREE_PORTS, ...args, '--dir', dir], env)
    await use(cluster, dir)
  } finally {
    if (cluster && cluster.child.exitCode === null) {
      cluster.child.kill('SIGKILL')
      await cluster.exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
}

test('cluster --help explains itself; a bad option or value is one line and exit 2', () => {
  const env = baseEnv({})
  const help = spawnSync(process.execPath, [ENTRY, '--help'], { env, encoding: 'utf8', timeout: 10_000 })
  assert.equal(help.status, 0, help.stderr)
  assert.match(help.stdout, /^Usage: node dist\/engine\/devcluster\/devCluster\.js/)
  assert.match(help.stdout, /node-2 3010\/3011\/8081/)
  for (const args of [['--no-such-option'], ['--nodes', 'ten'], ['--api-port', '70000']]) {
    const r = spawnSync(process.execPath, [ENTRY, ...args], { env, encoding: 'utf8', timeout: 10_000 })
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`)
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr)
    assert.match(r.stderr, /see cluster --help/)
  }
})

test(
  '3 nodes on DATABASE_URL and one nats-server: one table, prefixed logs, a dead node reported, SIGINT stops every child, exit 0',
  { timeout: 180_000 },
  async () => {
    const db = await testDatabase('c')
    const dir = mkdtempSync(join(tmpdir(), 'cluster-'))
    let cluster: Cluster | undefined
    try {
      cluster = await startCluster([...FREE_PORTS, '--dir', dir], baseEnv({ DATABASE_URL: db.url }))
      const { rows, out } = cluster
      assert.deepEqual(
        rows.map(r => r.id),
        ['node-1', 'node-2', 'node-3'],
        out(),
      )
      const ports = rows.flatMap(r => [r.api, r.terminal, r.relay].map(u => new URL(u).port))
      assert.equal(new Set(ports).size, 9, `every surface of every node on a port of its own: ${ports.join(' ')}`)
      for (const r of rows) {
        assert.equal(await status(`${r.api}/api/v1/health`), 200, `${r.id} api`)
        assert.equal(await status(`${r.terminal}/health`), 200, `${r.id} terminal`)
        assert.equal(await status(`${r.relay.replace(/^ws:/, 'http:')}/health`), 200, `${r.id} relay`)
        assert.ok(existsSync(join(dir, r.id)), `${r.id} has a data directory of its own (its engine lock)`)
      }
      const nats = new URL(cluster.nats)
      assert.equal(nats.protocol, 'tls:')
      const greeting = await natsGreeting(Number(nats.port), nats.hostname)
      assert.equal(typeof greeting.server_id, 'string')
      assert.deepEqual(
        [greeting.tls_required, greeting.auth_required],
        [true, true],
        'TLS only, and no anonymous client',
      )
      for (const r of rows) {
        const key = join(dir, 'keys', `${r.id}.nk`)
        assert.equal(statSync(key).mode & 0o777, 0o600, `${r.id}'s key is for its owner only`)
        assert.match(readFileSync(key, 'utf8'), /^SU[A-Z2-7]{56}\n$/)
        const peers = async () =>
          (
            (await (await fetch(`${r.relay.replace(/^ws:/, 'http:')}/health`)).json()) as {
              cluster: { peers: string[] }
            }
          ).cluster.peers
        await until(`${r.id} hears the other nodes`, async () => (await peers()).length === 2)
      }
      assert.match(
        out(),
        /^ {2}nats\s+tls:\/\/\S+ +\(pid \d+; TLS, CA \S+ca\.pem; a node's key: \S+\/keys\/<NODE_ID>\.nk\)$/m,
      )
      assert.match(cluster.database, /^DATABASE_URL postgres:\/\//)
      const password = decodeURIComponent(new URL(db.url).password)
      if (password) assert.ok(!out().includes(password), 'the table never prints the database password')
      for (const id of ['node-1', 'node-2', 'node-3'])
        assert.match(out(), new RegExp(`^${id} \\| \\{.*"msg":"engine listening"`, 'm'))
      assert.doesNotMatch(out(), /^RFQ engine \S+ is up\.$/m, "the nodes' own banners are folded into the one table")

      const second = spawnSync(process.execPath, [ENTRY, ...FREE_PORTS, '--dir', dir], {
        env: baseEnv({ DATABASE_URL: db.url }),
        encoding: 'utf8',
        timeout: 20_000,
      })
      assert.equal(second.status, 1, second.stdout + second.stderr)
      assert.match(
        second.stderr.trim(),
        new RegExp(`^cluster already running \\(pid ${cluster.child.pid}, ports node-1 \\d+`),
      )

      const [node1, node2, node3] = rows
      assert.ok(node1 && node2 && node3, 'three nodes in the table')
      process.kill(node2.pid, 'SIGKILL')
      await until('node-2 reported', () =>
        /^cluster \| node-2 exited \(status 137\); node-1, node-3 keep running$/m.test(out()),
      )
      assert.equal(await status(`${node1.api}/api/v1/health`), 200)
      assert.equal(await status(`${node3.api}/api/v1/health`), 200)

      const children = descendants(cluster.child.pid!)
      assert.ok(
        children.includes(node1.pid) && children.includes(node3.pid),
        `the nodes are ours: ${children.join(' ')}`,
      )
      const natsPids = children.filter(p =>
        /(^|\/)nats-server$/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0', 1)[0] ?? ''),
      )
      assert.equal(natsPids.length, 1, 'one nats-server')
      cluster.child.kill('SIGINT')
      assert.equal(await cluster.exited, 0, cluster.out().slice(-3000) + cluster.err())
      await until('every child gone', () => children.every(p => !alive(p)), 5000)
      const stopped = cluster.out()
      assert.ok(
        stopped.indexOf('"msg":"engine stopped"') > stopped.indexOf('cluster | SIGINT: stopping node-1, node-3'),
        'the nodes drained and said so',
      )
    } finally {
      if (cluster && cluster.child.exitCode === null) {
        cluster.child.kill('SIGKILL')
        await cluster.exited
      }
      rmSync(dir, { recursive: true, force: true })
      await db.drop()
    }
  },
)

test(
  'without DATABASE_URL: an embedded PostgreSQL under DIR/pg, stopped after the nodes; every child gone on SIGINT',
  { timeout: 120_000 },
  async () => {
    await withCluster(['--nodes', '1'], baseEnv({}), async cluster => {
      const [node1, ...others] = cluster.rows
      assert.deepEqual([node1?.id, others], ['node-1', []])
      assert.match(
        cluster.database,
        /^embedded PostgreSQL under .*\/pg \(postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/rfq\)$/,
      )
      assert.equal(await status(`${node1?.api}/api/v1/health`), 200)
      const children = descendants(cluster.child.pid!)
      assert.ok(
        children.some(p => /(^|\/)postgres\0/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8'))),
        'the postmaster is below us',
      )
      cluster.child.kill('SIGINT')
      assert.equal(await cluster.exited, 0, cluster.out().slice(-3000) + cluster.err())
      await until('every child gone', () => children.every(p => !alive(p)), 5000)
    })
  },
)

test(
  'kill -9 of the dev cluster: its nodes, nats-server and PostgreSQL go too (nothing holds the ports or the data)',
  { timeout: 120_000 },
  async () => {
    await withCluster(['--nodes', '1'], baseEnv({}), async cluster => {
      const children = descendants(cluster.child.pid!)
      assert.ok(children.length >= 4, `a node, nats-server, PostgreSQL and their guards: ${children.join(' ')}`)
      cluster.child.kill('SIGKILL')
      await cluster.exited
      await until('every child gone', () => children.every(p => !alive(p)), 20_000)
    })
  },
)
