// `make cluster`: a cluster to try on this machine. One nats-server, one PostgreSQL (DATABASE_URL, or an
// embedded one under DIR/pg), and N engine nodes (default 3) joined to both, each on its own ports and its
// own DATA_DIR (DIR/node-N: each node takes the engine lock of its data directory, so they must differ).
// node-1 starts first and alone: it runs the migrations. One table says where everything listens; each node's
// log lines follow, prefixed with its NODE_ID. Ctrl-C or SIGTERM stops the nodes (SIGTERM, and waits for
// their drain), then nats-server, then PostgreSQL. A node that dies is reported and the others keep running.
// Every child dies with us even on kill -9 (devGuard.ts; devPostgres.ts watches its stdin). The wire is set up
// as a venue's is (devCredentials.ts): TLS with a throw-away CA, an nkey per node, signed messages.
import { join, relative, resolve } from 'node:path'
import { acquireInstanceLock, AlreadyRunning, type InstanceLock } from '../ops/instanceLock.js'
import { parseCli } from '../ops/cli.js'
import { repoRoot } from '../paths.js'
import { NATS_MISSING, findNatsServer, startNatsServer, type NatsServer } from './natsServer.js'
import { startDevNode, type DevNode } from './devNode.js'
import { startDevDatabase, type DevDatabase } from './devDatabase.js'
import { devCredentials, type DevCredentials } from './devCredentials.js'

const USAGE = `Usage: node dist/engine/devcluster/devCluster.js [options]   (or: make cluster)

Starts a cluster on this machine: nats-server, PostgreSQL (DATABASE_URL when set, else an embedded one under
DIR/pg) and engine nodes node-1..node-N joined to both (NATS_URL, NODE_ID, one DATABASE_URL), then prints
where each listens. nats-server speaks TLS only and knows each node by its nkey: a throw-away CA, nats-server's
certificate and the nodes' keys are made under DIR on first use (DIR/tls, DIR/keys) and kept. node-N listens
on the base ports plus 10 x (N-1) for the API and the terminal, plus N-1 for the relay: node-1 3000/3001/8080,
node-2 3010/3011/8081, node-3 3020/3021/8082. Each node's log lines start with its NODE_ID. Ctrl-C stops the
nodes, then nats-server, then PostgreSQL. The nodes read the rest of their configuration from the environment,
as \`make run\` does (the README's Configuration table).

Options:
  --nodes N            how many engine nodes (default 3, at most 9)
  --api-port P         node-1's API port (default 3000; 0: every node picks free ports)
  --terminal-port P    node-1's terminal port (default 3001; 0: free ports)
  --relay-port P       node-1's relay port (default 8080; 0: free ports)
  --nats-port P        nats-server's client port (default 4222; 0: a free port)
  --dir DIR            the cluster's data (default .data/cluster): DIR/pg, DIR/node-N, DIR/tls, DIR/keys`

const { values } = parseCli('cluster', USAGE, {
  nodes: { type: 'string' },
  'api-port': { type: 'string' },
  'terminal-port': { type: 'string' },
  'relay-port': { type: 'string' },
  'nats-port': { type: 'string' },
  dir: { type: 'string' },
})

class UsageError extends Error {}

function number(name: keyof typeof values, fallback: number, min: number, max: number): number {
  const raw = values[name]
  const n = raw === undefined ? fallback : Number(raw)
  if (typeof raw === 'boolean' || !Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`cluster: --${name} must be an integer from ${min} to ${max} (see cluster --help)`)
  return n
}

interface Running {
  lock?: InstanceLock
  nats?: NatsServer
  db?: DevDatabase
  creds?: DevCredentials
  nodes: DevNode[]
}
const running: Running = { nodes: [] }
let shuttingDown: Promise<never> | undefined
const print = (line: string) => {
  process.stdout.write(line + '\n')
}

async function main(): Promise<void> {
  const count = number('nodes', 3, 1, 9)
  const base = {
    api: number('api-port', 3000, 0, 65535),
    terminal: number('terminal-port', 3001, 0, 65535),
    relay: number('relay-port', 8080, 0, 65535),
  }
  const natsPort = number('nats-port', 4222, 0, 65535)
  const dir = resolve(values.dir ?? join(repoRoot, '.data/cluster'))
  if (!findNatsServer()) {
    console.error(NATS_MISSING)
    process.exit(1)
  }
  // one dev cluster per directory: a second one must not stop the first one's PostgreSQL
  running.lock = await acquireInstanceLock('cluster', dir)
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.on(sig, () => {
      void shutdown(0, sig)
    })

  const ids = Array.from({ length: count }, (_, k) => `node-${k + 1}`)
  running.creds = devCredentials(dir, ids)
  // its errors and warnings join the log; a fatal one ends the start, whose one line quotes it
  running.nats = await startNatsServer({
    port: natsPort,
    args: ['-c', running.creds.natsConfig],
    onLine: l => {
      if (/\[(ERR|WRN)\]/.test(l)) print(`nats   | ${l}`)
    },
  })
  watchNats(running.nats)
  running.db = await startDevDatabase(dir, process.env)
  const env = (i: number): NodeJS.ProcessEnv => {
    const { NODE_TEST_CONTEXT: _, ...inherited } = process.env
    const port = (p: number, step: number) => String(p === 0 ? 0 : p + step * (i - 1))
    return {
      ...inherited,
      NATS_URL: natsUrl(running.nats!),
      ...running.creds!.env(`node-${i}`),
      DATABASE_URL: running.db!.url,
      DATA_DIR: join(dir, `node-${i}`),
      HOST: inherited.HOST || '127.0.0.1', // a cluster to try: this machine only, unless asked
      API_PORT: port(base.api, 10),
      TERMINAL_PORT: port(base.terminal, 10),
      RELAY_PORT: port(base.relay, 1),
      LOG_FORMAT: inherited.LOG_FORMAT || 'pretty', // read by a person, in a terminal, behind a prefix
      POOL_THREADS: inherited.POOL_THREADS || '1', // N engines share this machine's cores
      // the options ingestion is one per venue, not one per node: only node-1 may start it
      INGEST_SOURCE: i === 1 ? inherited.INGEST_SOURCE : 'off',
    }
  }
  const start = async (i: number) => {
    const node = await startDevNode(`node-${i}`, env(i), print)
    running.nodes.push(node)
    watchNode(node)
  }
  await start(1) // alone: it applies the migrations
  await Promise.all(Array.from({ length: count - 1 }, (_, k) => start(k + 2)))
  running.nodes.sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }))
  running.lock.setPorts(Object.fromEntries(running.nodes.map(n => [n.id, Number(new URL(n.urls.api).port)])))
  print(table(running, dir))
}

/** TLS only: the URL says so, and nodes and tools know at a glance */
const natsUrl = (nats: NatsServer) => nats.url.replace(/^nats:/, 'tls:')

function table({ nats, db, creds, nodes }: Running, dir: string): string {
  const header = ['', 'api', 'terminal', 'relay', 'pid']
  const rows = [header, ...nodes.map(n => [n.id, n.urls.api, n.urls.terminal, n.urls.relay, String(n.pid)])]
  const widths = header.map((_, c) => Math.max(...rows.map(r => r[c]?.length ?? 0)))
  const line = (r: string[]) =>
    '  ' +
    r
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join('   ')
      .trimEnd()
  return [
    '',
    `Cluster is up: ${nodes.length} nodes, one NATS server, one database (data in ${shortPath(dir)}).`,
    '',
    ...rows.map(line),
    '',
    `  nats       ${natsUrl(nats!)}   (pid ${nats!.pid}; TLS, CA ${shortPath(creds!.caFile)}; ` +
      `a node's key: ${shortPath(join(dir, 'keys'))}/<NODE_ID>.nk)`,
    `  database   ${db!.describe}`,
    '',
    "Each node's log lines start with its NODE_ID. Ctrl-C stops the nodes, then nats-server, then PostgreSQL.",
    '',
  ].join('\n')
}

/** DIR as typed from here when it is below the working directory, else in full */
function shortPath(dir: string): string {
  const rel = relative(process.cwd(), dir)
  return rel && !rel.startsWith('..') ? rel : dir
}

/** A node that dies is said so; the others keep serving. With none left, the rest is stopped. */
function watchNode(node: DevNode): void {
  void node.exited.then(code => {
    if (shuttingDown) return
    running.nodes = running.nodes.filter(n => n !== node)
    const left = running.nodes.map(n => n.id)
    print(
      `cluster | ${node.id} exited (status ${code}); ${left.length ? `${left.join(', ')} keep${left.length === 1 ? 's' : ''} running` : 'no node is left: stopping'}`,
    )
    if (!left.length) void shutdown(1)
  })
}

/** nats-server gone by itself: the nodes keep serving their own clients; the cluster is degraded. */
function watchNats(nats: NatsServer): void {
  const timer = setInterval(() => {
    try {
      process.kill(nats.pid, 0)
    } catch {
      // signal 0 only asks whether it is there: it is not
      clearInterval(timer)
      if (!shuttingDown)
        print(
          `cluster | nats-server (pid ${nats.pid}) exited: the nodes keep serving their own clients, the cluster is degraded`,
        )
    }
  }, 1000)
  timer.unref()
}

/** Nodes first (each drains), then nats-server, then PostgreSQL; exit 0 when every node stopped cleanly. */
function shutdown(code: number, signal?: string): Promise<never> {
  return (shuttingDown ??= (async () => {
    if (signal) print(`cluster | ${signal}: stopping ${running.nodes.map(n => n.id).join(', ') || 'what started'}`)
    const stopped = await Promise.all(running.nodes.map(async n => ({ id: n.id, status: await n.stop() })))
    for (const { id, status } of stopped) if (status !== 0) print(`cluster | ${id} stopped with status ${status}`)
    await running.nats?.stop()
    await running.db?.stop()
    await running.lock?.release()
    process.exit(stopped.some(s => s.status !== 0) ? 1 : code)
  })())
}

main().catch(async (err: unknown) => {
  if (shuttingDown) return // a signal during the start: shutdown exits
  const known = err instanceof UsageError || err instanceof AlreadyRunning
  console.error(known ? err.message : `cluster failed to start: ${err instanceof Error ? err.message : String(err)}`)
  if (err instanceof Error && /in use/.test(err.message))
    console.error(
      'other ports: make cluster ARGS="--api-port P --terminal-port P --relay-port P --nats-port P" (0: free ones)',
    )
  if (process.env.DEBUG === '1' && err instanceof Error) console.error(err.stack)
  if (err instanceof UsageError) process.exit(2)
  await shutdown(1)
})
