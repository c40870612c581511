// `make cluster`'s PostgreSQL, in a process of its own, started by devDatabase.ts. Why not in the dev cluster's
// own process: there, the postmaster would share the terminal's process group and a Ctrl-C would stop it at
// once, under nodes still draining. Here it lives in a session of its own and stops when told (SIGTERM) or
// when its parent is gone (stdin closes, kill -9 included), after the nodes.
import { resolve } from 'node:path'
import { startEmbeddedPostgres } from '../store/embedded.js'
import { parseCli } from '../ops/cli.js'

const { values } = parseCli(
  'cluster-postgres',
  `Usage: node dist/engine/devcluster/devPostgres.js --dir DIR

The embedded PostgreSQL of \`make cluster\` (started by it; not meant to be run by hand). Starts the server
under DIR/pg, makes the database rfq, prints "ready <url>" and runs until SIGTERM or until stdin closes.`,
  {
    dir: { type: 'string' },
  },
)

async function main(): Promise<void> {
  if (!values.dir) throw new Error('--dir is required')
  const server = await startEmbeddedPostgres({ dataDir: resolve(values.dir) })
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  process.stdin.on('end', stop) // the dev cluster is gone, however it went
  process.stdin.on('error', stop)
  process.stdin.resume()
  const url = await server.database('rfq')
  process.stdout.write(`ready ${url}\n`)
}

main().catch((err: unknown) => {
  console.error(`cluster PostgreSQL failed to start: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
