// HTTP front throughput: a trivial JSON route and a route that runs one SELECT, through the real
// engine in its own process, against a plain node:http server answering the same JSON from a
// process of its own (the reference, measured by the same client in the same run).
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import http from 'node:http'
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { load } from './lib/load.js'
import { startEngineProcess } from './lib/engineProcess.js'

const { values: cli } = parseCli(
  'http.js',
  benchUsage(
    'http',
    'HTTP front throughput: a trivial JSON route and a one-SELECT route through the real engine, against a bare node:http server in the same run.',
  ),
  { 'reference-server': { type: 'boolean' } },
)
if (cli['reference-server']) {
  const srv = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json')
    res.end('{"status":"ok"}')
  })
  srv.listen(0, '127.0.0.1', () => process.send!((srv.address() as { port: number }).port))
} else {
  await main()
}

async function main() {
  const seconds = Number(process.env.BENCH_SECONDS ?? 4)
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32)
  const engine = await startEngineProcess({ PUBLIC_RATE_LIMIT_PER_MIN: '100000000', POOL_THREADS: '1' })
  const ref = fork(fileURLToPath(import.meta.url), ['--reference-server'], { stdio: 'inherit' })
  const refPort = await new Promise<number>(resolve => ref.once('message', p => resolve(p as number)))
  try {
    const opts = { concurrency, durationMs: seconds * 1000 }
    await load(`http://127.0.0.1:${engine.ports.terminal}/health`, { ...opts, durationMs: 500 }) // warm up
    const reference = await load(`http://127.0.0.1:${refPort}/`, opts)
    const trivial = await load(`http://127.0.0.1:${engine.ports.terminal}/health`, opts)
    const select = await load(`http://127.0.0.1:${engine.ports.api}/api/v1/health`, opts)
    const row = (name: string, r: typeof trivial) =>
      `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  errors ${r.errors}`
    console.log(`bench/http: ${concurrency} keep-alive connections, ${seconds}s each, loopback`)
    console.log(row('node:http reference (trivial JSON)', reference))
    console.log(row('engine GET /health (trivial JSON)', trivial))
    console.log(row('engine GET /api/v1/health (SELECT 1)', select))
    console.log(
      `ratios: trivial/reference ${(trivial.rps / reference.rps).toFixed(2)}x, select/trivial ${(select.rps / trivial.rps).toFixed(2)}x`,
    )
    console.log(
      'note: the load generator is one node process; on 2 cores the client, not the server, is often the ceiling.',
    )
  } finally {
    ref.kill()
    await engine.stop()
  }
}
