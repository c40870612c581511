// Scale-out, measured: the same paced quote load on a 1-node and a 3-node cluster (one nats-server, one
// PostgreSQL, engine processes with one pool thread each), as accepted quotes per engine CPU-second (user +
// system time of every engine process, its worker threads included, from /proc), and the cross-node latency
// from a submit at node B to its QUOTE_BROADCAST at node C (p50/p99), beside the same-node latency at B.
// Run: node dist/bench/cluster.js   (BENCH_RATE, BENCH_SECONDS)
import { readFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { startNatsServer, type NatsServer } from '../engine/cluster/natsServer.js'
import { benchDatabase } from './lib/benchDb.js'
import { startEngineProcess, type EngineProcess } from './lib/engineProcess.js'
import { registerTaker, tokenPair, createRfqs, relayDomain } from './lib/venueClient.js'
import { freshMakers, presignQuotes } from './lib/presign.js'
import { runStep, pct, type StepResult } from './lib/relayLoad.js'

parseCli('cluster.js', benchUsage('cluster', 'Quotes per engine CPU-second at 1 and 3 nodes, and cross-node submit-to-broadcast latency.',
  { BENCH_RATE: 'quotes offered per second (4000)', BENCH_SECONDS: 'seconds per run (6)' }), {})

const RATE = Number(process.env.BENCH_RATE ?? 4000), SECONDS = Number(process.env.BENCH_SECONDS ?? 6)
const TICKS_PER_SEC = 100     // Linux USER_HZ: /proc/<pid>/stat times are in these

/** user + system CPU seconds of a process (all its threads), from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')      // after "pid (comm) "
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SEC       // utime, stime (fields 14 and 15)
}

let nats: NatsServer
const limits = { RATE_LIMIT_PER_MIN: '1000000000', PUBLIC_RATE_LIMIT_PER_MIN: '1000000', AGENT_RATE_PER_MIN: '1000000', AGENT_RATE_PER_HOUR: '10000000',
  MAX_ACTIVE_RFQS_PER_WALLET: '1000', RELAY_REST_RATE_LIMIT_PER_MIN: '1000000',
  // every quote admitted: this bench measures the CPU a quote costs, not admission control (bench/relay.ts does)
  RELAY_ADMISSION_MS: '0' }

async function cluster(n: number, run: (nodes: EngineProcess[], urls: { ws: string[]; http: string[]; api: string[] }) => Promise<void>): Promise<void> {
  const db = await benchDatabase(`cluster${n}`)
  const nodes: EngineProcess[] = []
  try {
    for (let i = 1; i <= n; i++) {
      nodes.push(await startEngineProcess({ ...limits, DATABASE_URL: db.url, NATS_URL: nats.url, NODE_ID: `node-${i}`, POOL_THREADS: '1',
        DATA_DIR: mkdtempSync(join(tmpdir(), `bench-cluster-${i}-`)), SOR_FOLLOW_INTERVAL_MS: '0' }))
    }
    const urls = { ws: nodes.map(e => `ws://127.0.0.1:${e.ports.relay}`), http: nodes.map(e => `http://127.0.0.1:${e.ports.relay}`), api: nodes.map(e => `http://127.0.0.1:${e.ports.api}`) }
    for (const h of urls.http) {       // every node hears the others before the load starts
      for (let t = 0; ; t++) {
        const peers: string[] = ((await (await fetch(`${h}/health`)).json()) as { cluster?: { peers: string[] } }).cluster?.peers ?? []
        if (peers.length === n - 1) break
        if (t > 100) throw new Error(`${h} hears ${peers.length} of ${n - 1} peers`)
        await new Promise(r => setTimeout(r, 50))
      }
    }
    await run(nodes, urls)
  } finally {
    await Promise.all(nodes.map(e => e.stop()))
    await db.drop()
  }
}

/** Paced quotes on fresh RFQs: submitters spread over `submitAt`, the observer at `observeAt`. */
async function drive(urls: { ws: string[]; http: string[]; api: string[] }, submitAt: string[], observeAt: string, rate: number, seconds: number): Promise<StepResult> {
  const key = await registerTaker(urls.api[0]!)
  const [tokenIn, tokenOut] = await tokenPair(urls.api[0]!)
  const rfqs = await createRfqs(urls.api[0]!, key, 50, { tokenIn, tokenOut, amountIn: 10n ** 18n, ttlSeconds: 120 })
  const domain = await relayDomain(urls.http[0]!)
  const count = rate * seconds
  const makers = freshMakers(Math.ceil(count / rfqs.length))
  const taker = '0x0000000000000000000000000000000000000000'
  const terms = rfqs.map(r => ({ rfqId: r.rfqId, taker, tokenIn, tokenOut, amountIn: 10n ** 18n, expiry: r.expiry }))
  const quotes = presignQuotes(domain, terms, makers, count, Math.floor(Date.now() / 1000) + 120)
  return runStep({ relayUrl: submitAt, observerUrl: observeAt, quotes, rate, connections: 6, drainSecs: 10 })
}

const results: Record<string, { accepted: number; cpu: number; perCpuSec: number; errors: Record<string, number> }> = {}
const latency: Record<string, { p50: number; p99: number; accepted: number }> = {}
const batching: Record<string, { events: number; messages: number }> = {}
let decomposition: { node: string; usPerQuote: number }[] = []

async function main(): Promise<void> {
  nats = await startNatsServer()
  for (const n of [1, 3]) {
    await cluster(n, async (nodes, urls) => {
      await drive(urls, urls.ws, urls.ws[0]!, 500, 2)               // warm-up: JIT, pools, connections
      const before = nodes.map(e => cpuSeconds(e.child.pid!))
      const step = await drive(urls, urls.ws, urls.ws[0]!, RATE, SECONDS)
      const cpu = nodes.reduce((s, e, i) => s + cpuSeconds(e.child.pid!) - before[i]!, 0)
      results[`${n} node${n > 1 ? 's' : ''}`] = { accepted: step.accepted, cpu, perCpuSec: step.accepted / cpu, errors: step.errors }
      let events = 0, messages = 0
      for (const api of urls.api) {
        const m = await (await fetch(`${api}/metrics`)).text()
        events += Number(/^cluster_events_sent_total (\d+)/m.exec(m)?.[1] ?? 0)
        messages += Number(/^cluster_messages_sent_total (\d+)/m.exec(m)?.[1] ?? 0)
      }
      batching[`${n} node${n > 1 ? 's' : ''}`] = { events, messages }
      if (n === 3) {
        // where the extra CPU goes: every quote submitted at node 1, so nodes 2 and 3 only apply its word
        const split = nodes.map(e => cpuSeconds(e.child.pid!))
        const one = await drive(urls, [urls.ws[0]!], urls.ws[0]!, Math.round(RATE / 2), SECONDS)
        decomposition = nodes.map((e, i) => ({ node: `node-${i + 1}`, usPerQuote: (cpuSeconds(e.child.pid!) - split[i]!) / one.accepted * 1e6 }))
        const cross = await drive(urls, [urls.ws[1]!], urls.ws[2]!, 500, 4)
        const same = await drive(urls, [urls.ws[1]!], urls.ws[1]!, 500, 4)
        latency['submit at B, broadcast at C'] = { p50: pct(cross.latency, 50), p99: pct(cross.latency, 99), accepted: cross.accepted }
        latency['submit at B, broadcast at B'] = { p50: pct(same.latency, 50), p99: pct(same.latency, 99), accepted: same.accepted }
      }
    })
  }
  await nats.stop()

  console.log(`\nquotes per engine CPU-second, ${RATE}/s offered for ${SECONDS} s (every node one pool thread; one nats-server, one PostgreSQL):`)
  for (const [name, r] of Object.entries(results)) {
    console.log(`  ${name.padEnd(8)} ${String(r.accepted).padStart(6)} accepted  ${r.cpu.toFixed(2).padStart(6)} CPU-s  ${r.perCpuSec.toFixed(0).padStart(6)} quotes/CPU-s${Object.keys(r.errors).length ? `  errors ${JSON.stringify(r.errors)}` : ''}`)
  }
  const one = results['1 node']!.perCpuSec, three = results['3 nodes']!.perCpuSec
  console.log(`  3 nodes / 1 node: ${(three / one).toFixed(2)} (target 0.85)`)
  for (const [name, b] of Object.entries(batching)) console.log(`  ${name}: ${b.events} events in ${b.messages} NATS messages (${(b.events / Math.max(1, b.messages)).toFixed(1)} a message)`)
  console.log(`\nevery quote at node-1 (${Math.round(RATE / 2)}/s), engine CPU per quote: ${decomposition.map(d => `${d.node} ${d.usPerQuote.toFixed(0)} us`).join(', ')}`)
  console.log('  (node-1 takes, recovers, stores and broadcasts each quote; node-2 and node-3 only apply its word)')
  console.log('\nlatency, 500 quotes/s for 4 s on the 3-node cluster (ms):')
  for (const [name, l] of Object.entries(latency)) console.log(`  ${name.padEnd(30)} p50 ${l.p50.toFixed(2)}  p99 ${l.p99.toFixed(2)}  (${l.accepted} quotes)`)
}

// a failure (nats-server missing, no database) is one line, never a stack trace
main().then(() => process.exit(0), e => {
  process.stderr.write(`cluster.js: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`)
  process.exit(1)
})
