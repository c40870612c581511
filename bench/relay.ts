// Relay throughput and latency over real WebSockets on loopback. Run: node dist/bench/relay.js
//
// The engine runs in a child process (this file with --engine; embedded Postgres unless
// DATABASE_URL is set) so the load generator does not share its event loop. The parent opens 200
// clients, pre-signs quotes from 50 makers across many RFQs (native secp256k1 over our own EIP-712
// digest, checked once against viem), and measures:
//   1. the signer-recovery ceiling: single-thread native recoveries/s (bench/sig.ts) x pool threads
//   2. validated quotes/s: 199 submitting clients, a bounded window in flight, as fast as accepted
//   3. p50/p99 broadcast latency, submit at one client -> QUOTE_BROADCAST at another (the observer)
//   4. at full offered load (a window of 2,048 in flight): the share refused BUSY by admission control
//      and the p99 of the accepted quotes
//   5. the same latency paced at half the maximum just measured (BENCH_PACED_RATE overrides)
// The 199 submitters connect with ?channels=rfqs (RFQ broadcasts only); one observer receives every
// QUOTE_BROADCAST. Delivering every quote to all 200 Node `ws` clients would measure the load
// generator (15k/s x 200 = 3M frames/s to parse), not the relay.
// Env: BENCH_QUOTES (default 60000), BENCH_PACED_RATE (half the max), BENCH_PACED_SECS (3), BENCH_POOL_THREADS
// (default: the engine's, cores - 1), BENCH_COMPARE_THREADS=1 (the whole bench with 1, then 2 threads, compared), BENCH_WINDOW (quotes in flight, default 2048), BENCH_PROFILE=<dir>
// (a CPU profile of the engine's main thread during the throughput phase, written to <dir>).
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { fork, type ChildProcess } from 'node:child_process'
import { Session } from 'node:inspector'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { availableParallelism } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { randomBytes } from 'node:crypto'
import WebSocket from 'ws'
import { measureRecoveryCeiling } from './sig.js'
import { percentiles } from './lib/load.js'
import { benchDatabase } from './lib/benchDb.js'
import { freshMakers, presignQuotes, checkAgainstViem, type Maker } from './lib/presign.js'
import type { Domain } from '../workers/sig/types.js'

const CLIENTS = 200
const MAKERS = 50
const env = (k: string, d: number) => Number(process.env[k] ?? d)
const TOKEN_IN = '0x1111111111111111111111111111111111111111'
const TOKEN_OUT = '0x2222222222222222222222222222222222222222'
const domain: Domain & { chainId: number } = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: '0x0000000000000000000000000000000000000000' }

interface WireRfq { id: string; taker: string; expiry: number; createdAt: number }

// ---------------------------------------------------------------- engine side (child process)
async function engineMain(): Promise<void> {
  const { loadConfig } = await import('../engine/config.js')
  const { startEngine } = await import('../engine/app.js')
  const engine = await startEngine(loadConfig({
    ...process.env, API_PORT: '0', TERMINAL_PORT: '0', RELAY_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MIN: '1000000000', RFQ_TTL_SECS: '3600', RELAY_MAX_CONNECTIONS_PER_IP: '1000', RELAY_REST_RATE_LIMIT_PER_MIN: '1000000000',
    ...(process.env.BENCH_POOL_THREADS ? { POOL_THREADS: process.env.BENCH_POOL_THREADS } : {}),
  }))
  const book = engine.modules.book
  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined
  const post = <T>(method: string, params?: object) => new Promise<T>((res, rej) => profiler!.post(method, params, (e, r) => e ? rej(e) : res(r as T)))
  // bytes allocated on the main thread during the throughput phase: V8's sampling heap profiler keeping the
  // samples of objects already collected too, so the sum is what was allocated, not what is still live
  const heap = new Session()
  heap.connect()
  const heapPost = <T>(method: string, params?: object) => new Promise<T>((res, rej) => heap.post(method, params, (e, r) => e ? rej(e) : res(r as T)))
  let allocBytes = NaN
  // a failure here crashes this child (an unhandled rejection), which the parent sees as its exit
  process.on('message', (m: { cmd: string; rfqs?: WireRfq[] }) => void (async () => {
    if (m.cmd === 'profile-start') {
      await heapPost('HeapProfiler.enable')
      await heapPost('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
    } else if (m.cmd === 'profile-stop') {
      const { profile } = await heapPost<{ profile: { samples: { size: number }[] } }>('HeapProfiler.stopSampling')
      allocBytes = profile.samples.reduce((n, x) => n + x.size, 0)
      if (process.env.BENCH_HEAP_PROFILE) writeFileSync(process.env.BENCH_HEAP_PROFILE, JSON.stringify(profile))
    }
    if (m.cmd === 'profile-start' && profiler) {
      profiler.connect()
      await post('Profiler.enable')
      await post('Profiler.start')
    } else if (m.cmd === 'profile-stop' && profiler) {
      const { profile } = await post<{ profile: object }>('Profiler.stop')
      mkdirSync(process.env.BENCH_PROFILE!, { recursive: true })
      writeFileSync(join(process.env.BENCH_PROFILE!, 'relay-main.cpuprofile'), JSON.stringify(profile))
      profiler.disconnect()
    }
    if (m.cmd === 'create') {
      for (let i = 0; i < m.rfqs!.length; i += 50) {
        await Promise.all(m.rfqs!.slice(i, i + 50).map(r => book.create({
          id: r.id, taker: r.taker as `0x${string}`, tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, kind: 0, amountIn: 10n ** 18n, amountOut: null,
          expiry: r.expiry, visibility: 'public', allowedMakers: [], shareToken: null, createdAt: new Date(r.createdAt), agentId: null,
        })))
      }
      process.send!({ cmd: 'created' })
    } else if (m.cmd === 'stats') {
      const metrics = await engine.ctx.metrics.registry.getSingleMetricAsString('relay_quote_commits_total')
      process.send!({ cmd: 'stats', commits: Number(/ (\d+)$/m.exec(metrics)?.[1] ?? NaN), allocBytes })
    } else if (m.cmd === 'stop') {
      await engine.stop()
      process.exit(0)
    }
  })())
  process.send!({ cmd: 'ready', port: engine.ports.relay, threads: engine.ctx.pool.threads })
}

// ---------------------------------------------------------------- load side (parent)
/** Every maker quotes every RFQ: `${rfqId}:${maker}` keys the broadcast back to its send time. */
function signAll(rfqs: WireRfq[], makers: Maker[]): { key: string; frame: string }[] {
  const deadline = Math.floor(Date.now() / 1000) + 3600
  const terms = rfqs.map(r => ({ rfqId: r.id, taker: r.taker, tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, amountIn: 10n ** 18n, expiry: r.expiry }))
  return presignQuotes(domain, terms, makers, rfqs.length * makers.length, deadline).map(q => ({ key: `${q.rfqId}:${q.maker}`, frame: q.frame }))
}

async function connect(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false })
  await new Promise<void>((res, rej) => { ws.once('open', () => res()); ws.once('error', rej) })
  return ws
}

/** A message to the engine's process and its reply, `T` being what the reply carries besides its cmd */
function request<T>(child: ChildProcess, msg: object, reply: string): Promise<T> {
  return new Promise(resolve => {
    const on = (m: { cmd?: string }) => { if (m.cmd === reply) { child.off('message', on); resolve(m as T) } }
    child.on('message', on)
    child.send(msg)
  })
}

async function main(): Promise<number> {
  const total = env('BENCH_QUOTES', 60_000)
  const pacedSecs = env('BENCH_PACED_SECS', 3)
  const maxWindow = env('BENCH_WINDOW', 2048)
  let window = maxWindow

  console.log(`machine: ${availableParallelism()} cores, node ${process.version}`)
  const perThread = await measureRecoveryCeiling({ timeMs: 1500 })

  const makers = freshMakers(MAKERS)
  const makerAddrs = makers.map(m => m.address)
  const now = Date.now()
  const mkRfqs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `rfq_b${i}_${randomBytes(4).toString('hex')}`, taker: makerAddrs[i % MAKERS]!, expiry: Math.floor(now / 1000) + 3000, createdAt: now }))
  // the paced phase runs at half the max, unknown yet: sign for half the ceiling on every core, at most
  const pacedCap = Math.ceil((process.env.BENCH_PACED_RATE ? Number(process.env.BENCH_PACED_RATE) : perThread * availableParallelism() / 2) * pacedSecs)
  const rfqsA = mkRfqs(Math.ceil(total / MAKERS)), rfqsB = mkRfqs(Math.ceil(pacedCap / MAKERS))
  const t0 = performance.now()
  const loadA = signAll(rfqsA, makers).slice(0, total)
  const allB = signAll(rfqsB, makers).slice(0, pacedCap)
  console.log(`pre-signed ${loadA.length + allB.length} quotes in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  await checkAgainstViem(domain, { rfqId: '', maker: '', frame: loadA[0]!.frame })   // our digest and signature, checked once against viem

  // a fresh database each run: RFQs live from an earlier run would be restored into this one
  const db = await benchDatabase('relay', { max: 1 })
  const child = fork(fileURLToPath(import.meta.url), ['--engine'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, DATABASE_URL: db.url } })
  const ready = await new Promise<{ port: number; threads: number }>((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', code => reject(new Error(`engine exited ${code}`)))
  })
  const ceiling = perThread * ready.threads
  const url = `ws://127.0.0.1:${ready.port}`
  const observer = await connect(url)
  const submitters = await Promise.all(Array.from({ length: CLIENTS - 1 }, () => connect(`${url}/?channels=rfqs`)))

  const sentAt = new Map<string, number>()
  const latencies: number[] = []
  let accepted = 0, errors = 0, busy = 0, pausedUntil = 0, lastHalved = 0
  let onAccepted: () => void = () => {}
  observer.on('message', raw => {
    const text = (raw as Buffer).toString()        // a Buffer: ws's default binaryType
    if (!text.startsWith('{"type":"QUOTE_BROADCAST"')) return
    const m = JSON.parse(text)
    const key = `${m.data.rfqId}:${m.data.quote.maker}`
    const t = sentAt.get(key)
    if (t !== undefined) { latencies.push(performance.now() - t); sentAt.delete(key) }
    accepted++
    if (window < maxWindow) window += 1 / Math.max(1, window) * 64   // grows back while quotes are taken
    onAccepted()
  })
  for (const s of submitters) s.on('message', raw => {
    const text = (raw as Buffer).toString()        // a Buffer: ws's default binaryType
    if (!text.startsWith('{"type":"ERROR"')) return
    errors++
    if (text.includes('"code":"BUSY"')) {
      // admission control refused it: counted, not shown; the makers back off as told, as a real one would
      busy++
      const hint = Number(/"retryAfterMs":(\d+)/.exec(text)?.[1] ?? 1)
      pausedUntil = Math.max(pausedUntil, performance.now() + hint)
      // and send less at once, halving at most once per hint (AIMD, as TCP halves once per round trip)
      if (performance.now() - lastHalved >= hint) { window = Math.max(64, window / 2); lastHalved = performance.now() }
    }
    else if (errors - busy <= 3) console.error('ERROR', text)
    onAccepted()
  })

  await request(child, { cmd: 'create', rfqs: [...rfqsA, ...rfqsB] }, 'created')
  await new Promise(r => setTimeout(r, 500))   // let the RFQ broadcasts drain

  // phase 1: throughput with a bounded window in flight
  child.send({ cmd: 'profile-start' })
  let next = 0
  const started = performance.now()
  await new Promise<void>(resolve => {
    let resume: NodeJS.Timeout | undefined
    const pump = () => {
      const wait = pausedUntil - performance.now()
      if (wait > 0) { resume ??= setTimeout(() => { resume = undefined; pump() }, wait); return }
      while (next < loadA.length && next - (accepted + errors) < window) {
        const s = loadA[next]!
        sentAt.set(s.key, performance.now())
        submitters[next % submitters.length]!.send(s.frame)
        next++
      }
      if (accepted + errors >= loadA.length) resolve()
    }
    onAccepted = pump
    pump()
  })
  const elapsed = (performance.now() - started) / 1000
  const rate = accepted / elapsed
  const burst = percentiles(latencies)
  const phase1 = { accepted, errors, busy }
  child.send({ cmd: 'profile-stop' })
  await new Promise(r => setTimeout(r, 200))      // the heap sampling stops on profile-stop
  const { commits, allocBytes } = await request<{ commits: number; allocBytes: number }>(child, { cmd: 'stats' }, 'stats')

  // phase 2: paced at half the max just measured
  const pacedRate = process.env.BENCH_PACED_RATE ? Number(process.env.BENCH_PACED_RATE) : Math.floor(rate / 2)
  const loadB = allB.slice(0, pacedRate * pacedSecs)
  latencies.length = 0
  accepted = 0; errors = 0; busy = 0
  onAccepted = () => {}
  const pacedStart = performance.now()
  let sent = 0
  await new Promise<void>(resolve => {
    const tick = () => {
      const due = Math.min(loadB.length, Math.floor((performance.now() - pacedStart) / 1000 * pacedRate))
      while (sent < due) {
        const s = loadB[sent]!
        sentAt.set(s.key, performance.now())
        submitters[sent % submitters.length]!.send(s.frame)
        sent++
      }
      if (sent < loadB.length) setTimeout(tick, 1)   // a timer, not a spin: the engine shares these cores
      else resolve()
    }
    tick()
  })
  const drainDeadline = performance.now() + 10_000
  while (accepted + errors < loadB.length && performance.now() < drainDeadline) await new Promise(r => setTimeout(r, 10))
  const paced = percentiles(latencies)

  await Promise.all([observer, ...submitters].map(ws => new Promise(r => { ws.once('close', r); ws.close() })))
  await new Promise(resolve => { child.once('exit', resolve); child.send({ cmd: 'stop' }) })
  await db.drop()

  console.table([
    { measure: 'signer-recovery ceiling (1-thread native x pool threads)', value: `${Math.round(perThread)}/s x ${ready.threads} = ${Math.round(ceiling)}/s` },
    { measure: `validated quotes/s (${loadA.length} quotes, ${CLIENTS} clients, ${MAKERS} makers, ${rfqsA.length} RFQs)`, value: `${Math.round(rate)}/s (${(rate / ceiling * 100).toFixed(0)}% of ceiling); accepted ${phase1.accepted}, errors ${phase1.errors}` },
    { measure: `full offered load (window ${maxWindow}, halved on BUSY): refused BUSY by admission control`, value: `${(phase1.busy / loadA.length * 100).toFixed(1)}% (${phase1.busy} of ${loadA.length}); accepted p99 ${burst.p99.toFixed(2)} ms` },
    { measure: 'bytes allocated per accepted quote (engine main thread, throughput phase)', value: `${Math.round(allocBytes / phase1.accepted)} B (${(allocBytes / 2 ** 20).toFixed(0)} MiB sampled for ${phase1.accepted} quotes)` },
    { measure: 'group commits during the throughput phase', value: `${commits} transactions, ${(phase1.accepted / commits).toFixed(0)} quotes per commit` },
    { measure: 'broadcast latency at full load (window ' + maxWindow + ')', value: `p50 ${burst.p50.toFixed(2)} ms, p99 ${burst.p99.toFixed(2)} ms` },
    { measure: `broadcast latency paced at ${process.env.BENCH_PACED_RATE ? 'BENCH_PACED_RATE' : 'half the max'} (${pacedRate}/s, ${loadB.length} quotes)`, value: `p50 ${paced.p50.toFixed(2)} ms, p99 ${paced.p99.toFixed(2)} ms; accepted ${accepted}, errors ${errors} (BUSY ${busy})` },
  ])
  return rate
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values: cli } = parseCli('relay.js', benchUsage('relay', 'Relay throughput and latency over real WebSockets against the same-run signer-recovery ceiling.',
    { BENCH_QUOTES: 'quotes in the throughput phase (60000)', BENCH_PACED_RATE: 'paced phase rate (half the measured max)', BENCH_PACED_SECS: 'paced phase seconds (3)',
      BENCH_POOL_THREADS: 'pool threads (cores - 1)', BENCH_COMPARE_THREADS: 'set: run with 1 then 2 pool threads and compare', BENCH_WINDOW: 'quotes in flight (2048)', BENCH_PROFILE: 'dir for a CPU profile' }), { engine: { type: 'boolean' } })
  if (cli.engine) await engineMain()
  else if (process.env.BENCH_COMPARE_THREADS) {
    // the same bench with 1 and then 2 pool threads, in this one run: does a second thread pay on this machine?
    const rates: number[] = []
    for (const threads of ['1', '2']) { process.env.BENCH_POOL_THREADS = threads; rates.push(await main()) }
    console.log(`validated quotes/s with POOL_THREADS=2 vs 1, same run: ${Math.round(rates[1]!)}/s vs ${Math.round(rates[0]!)}/s (${(rates[1]! / rates[0]! * 100).toFixed(0)}%)`)
  } else await main()
}
