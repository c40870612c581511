// Scale-out, measured: the same paced quote load on a 1-node and a 3-node cluster (one nats-server, one
// PostgreSQL, engine processes with one pool thread each), as accepted quotes per engine CPU-second (user +
// system time of every engine process, its worker threads included, from /proc), and the cross-node latency
// from a submit at node B to its QUOTE_BROADCAST at node C (p50/p99), beside the same-node latency at B.
// The 1-node and the 3-node cluster run side by side (each its own nats-server and database) and take turns,
// BENCH_ROUNDS rounds each, so a drift in the machine's load between the two is spread over both. The wire is
// a venue's: TLS to nats-server, an nkey per node, every batch signed and checked (devCredentials.ts).
// Run: node dist/bench/cluster.js   (BENCH_RATE, BENCH_SECONDS, BENCH_ROUNDS)
import { readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runBench } from './lib/benchMain.js'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { startNatsServer, type NatsServer } from '../engine/devcluster/natsServer.js'
import { devCredentials } from '../engine/devcluster/devCredentials.js'
import { sealCost } from './lib/sealCost.js'
import { benchDatabase } from './lib/benchDb.js'
import { startEngineProcess, type EngineProcess } from './lib/engineProcess.js'
import { registerTaker, tokenPair, createRfqs, relayDomain } from './lib/venueClient.js'
import { freshMakers, presignQuotes } from './lib/presign.js'
import { runStep, pct, type StepResult } from './lib/relayLoad.js'
import { wakeCost } from './lib/wakeCost.js'
import { applyCost } from './lib/applyCost.js'

parseCli(
  'cluster.js',
  benchUsage('cluster', 'Quotes per engine CPU-second at 1 and 3 nodes, and cross-node submit-to-broadcast latency.', {
    BENCH_RATE: 'quotes offered per second (4000)',
    BENCH_SECONDS: 'seconds per run (6)',
    BENCH_ROUNDS: 'runs of each cluster, taking turns (3)',
  }),
  {},
)

const RATE = Number(process.env.BENCH_RATE ?? 4000),
  SECONDS = Number(process.env.BENCH_SECONDS ?? 6),
  ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const TICKS_PER_SEC = 100 // Linux USER_HZ: /proc/<pid>/stat times are in these

/** user + system CPU seconds of a process (all its threads), or of its main thread only, from /proc. */
function cpuSeconds(pid: number, mainThread = false): number {
  const stat = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ') // after "pid (comm) "
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SEC // utime, stime (fields 14 and 15)
}

const limits = {
  RATE_LIMIT_PER_MIN: '1000000000',
  PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
  AGENT_RATE_PER_MIN: '1000000',
  AGENT_RATE_PER_HOUR: '10000000',
  MAX_ACTIVE_RFQS_PER_WALLET: '1000',
  RELAY_REST_RATE_LIMIT_PER_MIN: '1000000',
  // every quote admitted: this bench measures the CPU a quote costs, not admission control (bench/relay.ts does)
  RELAY_ADMISSION_MS: '0',
}

interface Urls {
  ws: string[]
  http: string[]
  api: string[]
}
interface Cluster {
  n: number
  nodes: EngineProcess[]
  urls: Urls
  stop(): Promise<void>
}

/** n engine processes (one pool thread each) on their own nats-server and database. */
async function startCluster(n: number): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), `bench-cluster${n}-`))
  const creds = devCredentials(
    dir,
    Array.from({ length: n }, (_, i) => `node-${i + 1}`),
  )
  const nats: NatsServer = await startNatsServer({ args: ['-c', creds.natsConfig] })
  const db = await benchDatabase(`cluster${n}`)
  const nodes: EngineProcess[] = []
  const stop = async () => {
    await Promise.all(nodes.map(e => e.stop()))
    await db.drop()
    await nats.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    for (let i = 1; i <= n; i++) {
      nodes.push(
        await startEngineProcess({
          ...limits,
          DATABASE_URL: db.url,
          NATS_URL: nats.url.replace(/^nats:/, 'tls:'),
          ...creds.env(`node-${i}`),
          POOL_THREADS: '1',
          DATA_DIR: mkdtempSync(join(tmpdir(), `bench-cluster-${i}-`)),
          SOR_FOLLOW_INTERVAL_MS: '0',
        }),
      )
    }
    const urls = {
      ws: nodes.map(e => `ws://127.0.0.1:${e.ports.relay}`),
      http: nodes.map(e => `http://127.0.0.1:${e.ports.relay}`),
      api: nodes.map(e => `http://127.0.0.1:${e.ports.api}`),
    }
    for (const h of urls.http) {
      // every node hears the others before the load starts
      for (let t = 0; ; t++) {
        const peers: string[] =
          ((await (await fetch(`${h}/health`)).json()) as { cluster?: { peers: string[] } }).cluster?.peers ?? []
        if (peers.length === n - 1) break
        if (t > 100) throw new Error(`${h} hears ${peers.length} of ${n - 1} peers`)
        await new Promise(r => setTimeout(r, 50))
      }
    }
    return { n, nodes, urls, stop }
  } catch (err) {
    await stop().catch(() => {}) // undoing a failed start: its own error is the one to report
    throw err
  }
}

/** Paced quotes on fresh RFQs: submitters spread over `submitAt`, the observer at `observeAt`. */
const takers = new Map<string, Promise<string>>() // one taker per cluster: registrations are rate-limited per IP

async function drive(
  urls: Urls,
  submitAt: string[],
  observeAt: string,
  rate: number,
  seconds: number,
): Promise<StepResult> {
  if (!takers.has(urls.api[0]!)) takers.set(urls.api[0]!, registerTaker(urls.api[0]!))
  const key = await takers.get(urls.api[0]!)!
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

/** The load spread over every node of the cluster, as accepted quotes and the engine CPU they took. */
async function measure(
  c: Cluster,
  rate = RATE,
): Promise<{ accepted: number; cpu: number; main: number; errors: Record<string, number> }> {
  const before = c.nodes.map(e => cpuSeconds(e.child.pid!)),
    beforeMain = c.nodes.map(e => cpuSeconds(e.child.pid!, true))
  const step = await drive(c.urls, c.urls.ws, c.urls.ws[0]!, rate, SECONDS)
  const cpu = c.nodes.reduce((s, e, i) => s + cpuSeconds(e.child.pid!) - before[i]!, 0)
  const main = c.nodes.reduce((s, e, i) => s + cpuSeconds(e.child.pid!, true) - beforeMain[i]!, 0)
  return { accepted: step.accepted, cpu, main, errors: step.errors }
}

async function batching(c: Cluster): Promise<{ events: number; messages: number }> {
  let events = 0,
    messages = 0
  for (const api of c.urls.api) {
    const m = await (await fetch(`${api}/metrics`)).text()
    events += Number(/^cluster_events_sent_total (\d+)/m.exec(m)?.[1] ?? 0)
    messages += Number(/^cluster_messages_sent_total (\d+)/m.exec(m)?.[1] ?? 0)
  }
  return { events, messages }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)

async function main(): Promise<void> {
  const wake = await wakeCost()
  const hotApply = await applyCost()
  const one = await startCluster(1)
  let three: Cluster | undefined
  try {
    three = await startCluster(3)
    for (const c of [one, three]) await drive(c.urls, c.urls.ws, c.urls.ws[0]!, 500, 2) // warm-up: JIT, pools, connections
    const runs: Record<1 | 3, Awaited<ReturnType<typeof measure>>[]> = { 1: [], 3: [] }
    for (let r = 0; r < ROUNDS; r++) for (const c of [one, three]) runs[c.n as 1 | 3].push(await measure(c))
    const sent = { 1: await batching(one), 3: await batching(three) }
    // the same node at a third of the rate: what a node's share of a 3-node venue costs it before any replication
    const third = await measure(one, Math.round(RATE / 3))

    // where the extra CPU goes: every quote submitted at node 1, so nodes 2 and 3 only apply its word
    const split = three.nodes.map(e => cpuSeconds(e.child.pid!))
    const single = await drive(three.urls, [three.urls.ws[0]!], three.urls.ws[0]!, Math.round(RATE / 2), SECONDS)
    const decomposition = three.nodes.map((e, i) => ({
      node: `node-${i + 1}`,
      usPerQuote: ((cpuSeconds(e.child.pid!) - split[i]!) / single.accepted) * 1e6,
    }))
    const cross = await drive(three.urls, [three.urls.ws[1]!], three.urls.ws[2]!, 500, 4)
    const same = await drive(three.urls, [three.urls.ws[1]!], three.urls.ws[1]!, 500, 4)

    console.log(
      `\nquotes per engine CPU-second, ${RATE}/s offered for ${SECONDS} s, ${ROUNDS} rounds taking turns (every node one pool thread; each cluster its own nats-server and PostgreSQL):`,
    )
    for (let r = 0; r < ROUNDS; r++) {
      const a = runs[1][r]!,
        b = runs[3][r]!
      const errs = [a, b].map(x => (Object.keys(x.errors).length ? ` errors ${JSON.stringify(x.errors)}` : '')).join('')
      console.log(
        `  round ${r + 1}: 1 node ${a.accepted} in ${a.cpu.toFixed(2)} CPU-s = ${(a.accepted / a.cpu).toFixed(0)}/CPU-s, 3 nodes ${b.accepted} in ${b.cpu.toFixed(2)} CPU-s = ${(b.accepted / b.cpu).toFixed(0)}/CPU-s, ratio ${(b.accepted / b.cpu / (a.accepted / a.cpu)).toFixed(2)}${errs}`,
      )
    }
    const per = (n: 1 | 3) => sum(runs[n].map(x => x.accepted)) / sum(runs[n].map(x => x.cpu))
    console.log(
      `  all rounds: 1 node ${per(1).toFixed(0)}/CPU-s (${(1e6 / per(1)).toFixed(0)} us a quote), 3 nodes ${per(3).toFixed(0)}/CPU-s (${(1e6 / per(3)).toFixed(0)} us a quote)`,
    )
    console.log(`  3 nodes / 1 node: ${(per(3) / per(1)).toFixed(2)} (target 0.85)`)
    // the main threads (relay, actors, store, NATS) against the rest (the pool thread recovering signers, V8's helpers)
    const us = (n: 1 | 3, f: (x: Awaited<ReturnType<typeof measure>>) => number) =>
      (sum(runs[n].map(f)) / sum(runs[n].map(x => x.accepted))) * 1e6
    console.log(
      `  us a quote, main threads + other threads (pool, GC): 1 node ${us(1, x => x.main).toFixed(0)} + ${us(1, x => x.cpu - x.main).toFixed(0)}, 3 nodes ${us(3, x => x.main).toFixed(0)} + ${us(3, x => x.cpu - x.main).toFixed(0)}`,
    )
    console.log(
      `  1 node at a third of the rate (${Math.round(RATE / 3)}/s): ${((third.cpu / third.accepted) * 1e6).toFixed(0)} us a quote (a node's share of the 3-node load, before any replication)`,
    )
    for (const n of [1, 3] as const)
      console.log(
        `  ${n} node${n > 1 ? 's' : ''}: ${sent[n].events} events in ${sent[n].messages} NATS messages (${(sent[n].events / Math.max(1, sent[n].messages)).toFixed(1)} a message)`,
      )
    console.log(
      `\nevery quote at node-1 (${Math.round(RATE / 2)}/s), engine CPU per quote: ${decomposition.map(d => `${d.node} ${d.usPerQuote.toFixed(0)} us`).join(', ')}`,
    )
    console.log('  (node-1 takes, recovers, stores and broadcasts each quote; node-2 and node-3 only apply its word)')
    const applied = (decomposition[1]!.usPerQuote + decomposition[2]!.usPerQuote) / 2,
      oneUs = 1e6 / per(1)
    console.log(
      `  references: one wake-up of an idle Node process costs ${wake.toFixed(0)} us of CPU on this machine (bench/lib/wakeCost.ts);`,
    )
    console.log(
      `  applying a quote back to back, awake, costs ${hotApply.toFixed(1)} us (bench/lib/applyCost.ts) against ${applied.toFixed(0)} us on a node here`,
    )
    console.log(
      `  estimate for a core per node (apply at its awake cost): 3 nodes / 1 node = ${oneUs.toFixed(0)} / (${oneUs.toFixed(0)} + 2 x ${hotApply.toFixed(1)}) = ${(oneUs / (oneUs + 2 * hotApply)).toFixed(2)}`,
    )
    const seals = [1, 30, 500].map(events => ({ events, ...sealCost(events) })) // after the runs: a failed start is quick
    console.log('  the seal on each batch (an Ed25519 signature over its msgpack, node:crypto), CPU per batch here:')
    for (const c of seals) {
      console.log(
        `    ${String(c.events).padStart(3)} quote events (${c.bytes} bytes): sign ${c.signUs.toFixed(0)} us at the sender, ` +
          `verify ${c.verifyUs.toFixed(0)} us at each receiver (${(c.verifyUs / c.events).toFixed(1)} us a quote)`,
      )
    }
    console.log('\nlatency, 500 quotes/s for 4 s on the 3-node cluster (ms):')
    for (const [name, l] of [
      ['submit at B, broadcast at C', cross],
      ['submit at B, broadcast at B', same],
    ] as const) {
      console.log(
        `  ${name.padEnd(30)} p50 ${pct(l.latency, 50).toFixed(2)}  p99 ${pct(l.latency, 99).toFixed(2)}  (${l.accepted} quotes)`,
      )
    }
  } finally {
    await three?.stop()
    await one.stop()
  }
}

runBench('cluster.js', main) // a failure (nats-server missing, no database) is one line, never a stack trace
