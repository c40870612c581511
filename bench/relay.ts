// Relay throughput and latency over real WebSockets on loopback. Run: node dist/bench/relay.js
//
// The engine runs in a child process (this file with --engine; embedded Postgres unless
// DATABASE_URL is set) so the load generator does not share its event loop. The parent opens 200
// clients, pre-signs quotes from 50 makers across many RFQs (native secp256k1 over our own EIP-712
// digest, checked once against viem), and measures:
//   1. the signer-recovery ceiling: single-thread native recoveries/s (bench/sig.ts) x pool threads, the mean of a
//      reading before the run and one right after the throughput phase
//   2. validated quotes/s: 199 submitting clients, a bounded window in flight, as fast as accepted
//   3. p50/p99 broadcast latency, submit at one client -> QUOTE_BROADCAST at another (the observer)
//   4. at full offered load (a window of 2,048 in flight): the share refused BUSY by admission control
//      and the p99 of the accepted quotes
//   5. the same latency paced at half the maximum just measured (BENCH_PACED_RATE overrides)
//   6. the same paced phase again while RFQs are created at BENCH_ROUTE_RFQS_PER_SEC (50), each with its
//      server-side baseline searched on the route graph of BENCH_GRAPH_POOLS (10,000) pools the database holds:
//      the ratio of the two paced p99s (route searches must not slow the relay's quote validation), after a second
//      of route load that is not counted (its code warmed, its baselines searched); the windows alternate, and each
//      window's own p99 is printed: a major GC of the engine's heap (the book's accepted quotes) falls in one of
//      them, a few hundred ms long, whichever kind it is. After each window with route searches, the searches still
//      queued finish before the next window starts; a third kind of window, the control, creates the same RFQs on a
//      pair the graph does not hold (no search), so what a creation costs by itself is told from what its search
//      adds (bench/lib/routeWindows.ts)
// Before phase 2, BENCH_WARMUP_QUOTES (5,000) quotes on RFQs of their own go the same way and are not counted: a
// relay runs for days, and a fresh engine's first seconds are V8 compiling its hot path (the interpreter's code on the
// main thread, TurboFan's compiles on the helper threads) and PostgreSQL planning and caching. Counted, that one-time
// cost was in every per-quote figure of a 6-second phase; the warm-up's own figures are printed, so it is not hidden.
// Its RFQs are then cancelled and the engine's heap collected once, so the phases after it start from what they
// would have held without one (a major GC of the warm-up's quotes had fallen in the paced windows).
// The 199 submitters connect with ?channels=rfqs (RFQ broadcasts only); one observer receives every
// QUOTE_BROADCAST. Delivering every quote to all 200 Node `ws` clients would measure the load
// generator (15k/s x 200 = 3M frames/s to parse), not the relay.
// Env: BENCH_GRAPH_POOLS (10000; 0: no graph, no phase 6), BENCH_ROUTE_RFQS_PER_SEC (50), BENCH_QUOTES (default
// 60000), BENCH_PACED_RATE (half the max), BENCH_PACED_SECS (3), BENCH_POOL_THREADS
// (default: the engine's, cores - 1), BENCH_COMPARE_THREADS=1 (the whole bench with 1, then 2 threads, compared),
// BENCH_WARMUP_QUOTES (5000; 0: none), BENCH_WINDOW (quotes in flight, default 2048),
// BENCH_PACED_WINDOWS (3: the paced windows of each kind), BENCH_CONTROL_SPIN
// (ms in 10 that a SCHED_IDLE spinner burns during the control windows; 0, none, by default), BENCH_QUOTE_ORDER
// (maker: each maker quotes every RFQ in turn, the default; rfq: every maker answers an RFQ in turn), BENCH_PROFILE=<dir>, BENCH_PROFILE_PHASE=routes
// (a CPU profile of the engine's main thread during the throughput phase, written to <dir>), BENCH_HEAP_SNAPSHOT=<file>
// (the engine's heap as the run leaves it), BENCH_HEAP_PROFILE=<file> (where the throughput phase's allocation comes
// from: V8's sampling heap profiler, whose stack traces add to the main thread's CPU), BENCH_ENGINE_FLAGS (node/V8
// flags for the engine's process only).
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { fork, type ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { measureRecoveryCeiling } from './sig.js'
import { recoveryLibrary } from '../workers/sig/recover.js'
import { closeSocket, openSocket } from './lib/openSocket.js'
import { FrameTape, type Frames } from './lib/frameTape.js'
import { refusalOf, SendWindow } from './lib/sendWindow.js'
import { percentiles } from './lib/load.js'
import { benchDatabase } from './lib/benchDb.js'
import { freshMakers, presignQuotes, checkAgainstViem, type Maker, type QuoteOrder } from './lib/presign.js'
import { watchStalls, type Stalls } from './lib/stalls.js'
import type { Domain } from '../workers/sig/types.js'
import { engineMain, wireTerms, TOKEN_IN, TOKEN_OUT, type RoutePair, type WireRfq } from './lib/relayEngine.js'
import { syntheticGraph, HUBS } from './lib/syntheticGraph.js'
import { seedGraph } from './lib/seedGraph.js'
import { cpuSnapshot, cpuPerQuoteLines, cpuBrief } from './lib/relayCpu.js'
import { postmasterPid, processTree, treeUsSince, threadRoles } from './lib/procCpu.js'
import { rolesSince, sumThreads } from './lib/windowThreads.js'
import { routeWindowLines } from './lib/routeWindows.js'
import { startIdleSpinner } from './lib/idleSpinner.js'
import { profileParts } from './lib/profileParts.js'
import { gcLine, type HeapCount } from './lib/allocCount.js'
import { rfqIdAt } from '../workers/values/rfqId.js'
import { broadcastKey } from './lib/broadcastKey.js'

const CLIENTS = 200
const MAKERS = 50
const env = (k: string, d: number) => Number(process.env[k] ?? d)
const domain: Domain & { chainId: number } = {
  name: 'SpotRFQ',
  version: '1',
  chainId: 31337,
  verifyingContract: '0x0000000000000000000000000000000000000000',
}

// ---------------------------------------------------------------- load side (parent)
/** Every maker quotes every RFQ: `${rfqId}:${maker}` keys the broadcast back to its send time. */
/** BENCH_QUOTE_ORDER: maker-major (the default, and every figure before 0.11.1) or RFQ-major (bench/lib/presign.ts) */
const quoteOrder: QuoteOrder = process.env.BENCH_QUOTE_ORDER === 'rfq' ? 'rfq' : 'maker'

function signAll(rfqs: WireRfq[], makers: Maker[], count: number): FrameTape {
  const deadline = Math.floor(Date.now() / 1000) + 3600
  const terms = wireTerms(rfqs)
  return new FrameTape(
    presignQuotes(domain, terms, makers, rfqs.length * makers.length, deadline, quoteOrder).slice(0, count),
  )
}

/** A message to the engine's process and its reply, `T` being what the reply carries besides its cmd */
function request<T>(child: ChildProcess, msg: object, reply: string): Promise<T> {
  return new Promise(resolve => {
    const on = (m: { cmd?: string }) => {
      if (m.cmd === reply) {
        child.off('message', on)
        resolve(m as T)
      }
    }
    child.on('message', on)
    child.send(msg)
  })
}

async function main(): Promise<number> {
  const total = env('BENCH_QUOTES', 60_000)
  const pacedSecs = env('BENCH_PACED_SECS', 3)
  const maxWindow = env('BENCH_WINDOW', 2048)
  const window = new SendWindow(maxWindow, 64, 64)

  console.log(`machine: ${availableParallelism()} cores, node ${process.version}`)
  const perThread = await measureRecoveryCeiling({ timeMs: 1500 })

  const makers = freshMakers(MAKERS)
  const makerAddrs = makers.map(m => m.address)
  const now = Date.now()
  const mkRfqs = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: rfqIdAt(now, randomBytes(16).toString('hex')), // as the engine makes them: its day found from the id
      taker: makerAddrs[i % MAKERS]!,
      expiry: Math.floor(now / 1000) + 3000,
      createdAt: now,
    }))
  // the paced phase runs at half the max, unknown yet: sign for half the ceiling on every core, at most
  const pacedCap = Math.ceil(
    (process.env.BENCH_PACED_RATE ? Number(process.env.BENCH_PACED_RATE) : (perThread * availableParallelism()) / 2) *
      pacedSecs,
  )
  const graphPools = env('BENCH_GRAPH_POOLS', 10_000)
  const graph = graphPools > 0 ? syntheticGraph(graphPools) : null
  // with a graph the paced phase alternates without and with route load (6 windows), so a drift of the machine's
  // load falls on both: twice the quotes for each
  const windows = graph ? env('BENCH_PACED_WINDOWS', 3) : 1
  const warmupQuotes = env('BENCH_WARMUP_QUOTES', 5_000)
  const rfqsW = mkRfqs(Math.ceil(warmupQuotes / MAKERS)),
    rfqsA = mkRfqs(Math.ceil(total / MAKERS)),
    rfqsB = mkRfqs(Math.ceil((pacedCap * windows) / MAKERS)),
    rfqsC = graph ? mkRfqs(Math.ceil((pacedCap * windows) / MAKERS)) : [],
    rfqsD = graph ? mkRfqs(Math.ceil((pacedCap * windows) / MAKERS)) : []
  const t0 = performance.now()
  const loadW = signAll(rfqsW, makers, warmupQuotes)
  const loadA = signAll(rfqsA, makers, total)
  const allB = signAll(rfqsB, makers, pacedCap * windows),
    allC = graph ? signAll(rfqsC, makers, pacedCap * windows) : null,
    allD = graph ? signAll(rfqsD, makers, pacedCap * windows) : null
  console.log(
    `pre-signed ${loadW.length + loadA.length + allB.length + (allC?.length ?? 0) + (allD?.length ?? 0)} quotes in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
  await checkAgainstViem(domain, { rfqId: '', maker: '', frame: loadA.frame(0).toString() }) // our digest and signature, checked once against viem

  // a fresh database each run: RFQs live from an earlier run would be restored into this one
  const db = await benchDatabase('relay', { max: 1 })
  const postmaster = await postmasterPid(db.sql)
  if (graph) await seedGraph(db.sql, graph) // the route finder loads it at start
  const child = fork(fileURLToPath(import.meta.url), ['--engine'], {
    execArgv: [...process.execArgv, ...(process.env.BENCH_ENGINE_FLAGS?.split(' ').filter(Boolean) ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, DATABASE_URL: db.url },
  })
  const ready = await new Promise<{ port: number; threads: number }>((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', code => reject(new Error(`engine exited ${code}`)))
  })
  const url = `ws://127.0.0.1:${ready.port}`
  const observer = await openSocket(url)
  // the bench's 50 makers hear every RFQ (a route load's 50/s too) on 50 sockets, one each, as a maker quoting over
  // several connections listens on one; the other sockets only submit. All 199 listening was four copies of each RFQ
  // per maker for this process to read on the engine's two cores, a fan-out no venue of 50 makers has.
  // BENCH_MAKER_CHANNELS= (none) spares this process even that, to tell its share of a route load's cost apart
  const makerChannels = process.env.BENCH_MAKER_CHANNELS ?? 'rfqs'
  const submitters = await Promise.all(
    Array.from({ length: CLIENTS - 1 }, (_, i) => openSocket(`${url}/?channels=${i < MAKERS ? makerChannels : ''}`)),
  )

  // a socket the relay closes before the end (a client too slow to read its frames, or to answer a PING) is named at
  // the end of the run: the answers it would have carried are lost, and the run's figures with them
  let ending = false
  const closedByRelay: string[] = []
  ;[observer, ...submitters].forEach((ws, i) =>
    ws.once('close', (code: number, reason: Buffer) => {
      if (!ending) closedByRelay.push(`${i === 0 ? 'the observer' : `submitter ${i}`} (${code} ${reason.toString()})`)
    }),
  )

  const QUOTE_PREFIX = Buffer.from('{"type":"QUOTE_BROADCAST"')
  const generatorStalls = watchStalls() // this process's own stalls, window by window
  const sentAt = new Map<string, number>()
  const latencies: number[] = []
  let accepted = 0,
    errors = 0,
    busy = 0
  let onAccepted: () => void = () => {}
  observer.on('message', raw => {
    if (QUOTE_PREFIX.compare(raw as Buffer, 0, QUOTE_PREFIX.length) !== 0) return // a Buffer: ws's default binaryType
    const key = broadcastKey(raw as Buffer)
    const t = sentAt.get(key)
    if (t !== undefined) {
      latencies.push(performance.now() - t)
      sentAt.delete(key)
    }
    accepted++
    window.taken()
    onAccepted()
  })
  // the makers hear every RFQ broadcast (a route load's 50/s, on 199 sockets): a frame that is no ERROR is let go by
  // its first bytes, without being made a string
  const ERROR_PREFIX = Buffer.from('{"type":"ERROR"')
  for (const s of submitters)
    s.on('message', raw => {
      if (ERROR_PREFIX.compare(raw as Buffer, 0, ERROR_PREFIX.length) !== 0) return // a Buffer: ws's default binaryType
      const text = (raw as Buffer).toString()
      const refusal = refusalOf(text)
      if (refusal === 'none') return
      errors++
      if (refusal === 'busy') {
        // admission control refused it: counted, not shown; the makers back off as told, as a real one would
        busy++
        window.busy(text)
      } else if (errors - busy <= 3) console.error('ERROR', text)
      onAccepted()
    })

  await request(child, { cmd: 'create', rfqs: [...rfqsW, ...rfqsA, ...rfqsB, ...rfqsC, ...rfqsD] }, 'created')
  await new Promise(r => setTimeout(r, 500)) // let the RFQ broadcasts drain

  // phase 1: throughput with a bounded window in flight, as fast as the relay takes the quotes
  const windowed = async (load: Frames) => {
    latencies.length = 0
    accepted = errors = busy = 0
    let next = 0
    const started = performance.now()
    await new Promise<void>(resolve => {
      const pump = () => {
        if (window.paused(pump)) return
        while (next < load.length && next - (accepted + errors) < window.size) {
          sentAt.set(load.key(next), performance.now())
          submitters[next % submitters.length]!.send(load.frame(next), { binary: false })
          next++
        }
        if (accepted + errors >= load.length) resolve()
      }
      onAccepted = pump
      pump()
    })
    return (performance.now() - started) / 1000
  }
  // the warm-up first, on its own RFQs (the header): its figures are printed, not counted
  const warmCpu0 = cpuSnapshot(child.pid!, postmaster)
  const warmSecs = loadW.length ? await windowed(loadW) : 0
  const warmup = { accepted, secs: warmSecs, cpu: cpuBrief(warmCpu0, cpuSnapshot(child.pid!, postmaster), accepted) }
  if (loadW.length) {
    // its RFQs cancelled: the book then holds what it would have held without a warm-up
    await request(child, { cmd: 'cancel', ids: rfqsW.map(r => r.id) }, 'cancelled')
    await new Promise(r => setTimeout(r, 500)) // let the cancels' broadcasts drain
  }
  const profileRoutes = process.env.BENCH_PROFILE_PHASE === 'routes' // profile the paced phase with route searches instead
  if (!profileRoutes) child.send({ cmd: 'profile-start' })
  const cpu0 = cpuSnapshot(child.pid!, postmaster)
  const elapsed = await windowed(loadA)
  const cpu1 = cpuSnapshot(child.pid!, postmaster)
  const rate = accepted / elapsed
  const burst = percentiles(latencies)
  const phase1 = { accepted, errors, busy }
  if (!profileRoutes) child.send({ cmd: 'profile-stop' })
  await new Promise(r => setTimeout(r, 200)) // the allocation count (and a heap sampling) stops on profile-stop
  const { commits, signBatches, signQuotes, heap, allocSampled } = await request<{
    commits: number
    signBatches: number
    signQuotes: number
    heap: HeapCount | null
    allocSampled: number | null // NaN travels as null
  }>(child, { cmd: 'stats' }, 'stats')
  const allocBytes = heap?.allocated ?? NaN
  // the ceiling again, the engine idle: the share is of the mean of the two readings. This VM's speed drifts by tens
  // of percent over a run's minutes, and one reading at the start, on a quiet machine, moved the share by as much
  // (46-77% for the same engine in four runs)
  const perThreadAfter = await measureRecoveryCeiling({ timeMs: 1500 })
  const ceiling = ((perThread + perThreadAfter) / 2) * ready.threads

  // phase 2: paced at half the max just measured; phase 3: the same while RFQs are created with their baselines
  const pacedRate = process.env.BENCH_PACED_RATE ? Number(process.env.BENCH_PACED_RATE) : Math.floor(rate / 2)
  const pacedPhase = async (load: Frames) => {
    latencies.length = 0
    accepted = 0
    errors = 0
    busy = 0
    onAccepted = () => {}
    generatorStalls() // from here: this window's
    const pacedStart = performance.now(),
      cpu0 = await request<{ us: number }>(child, { cmd: 'cpu' }, 'cpu'),
      roles0 = threadRoles(child.pid!),
      pg0 = processTree(postmaster),
      load0 = process.cpuUsage()
    let sent = 0
    await new Promise<void>(resolve => {
      const tick = () => {
        const due = Math.min(load.length, Math.floor(((performance.now() - pacedStart) / 1000) * pacedRate))
        while (sent < due) {
          sentAt.set(load.key(sent), performance.now())
          submitters[sent % submitters.length]!.send(load.frame(sent), { binary: false })
          sent++
        }
        if (sent < load.length)
          setTimeout(tick, 1) // a timer, not a spin: the engine shares these cores
        else resolve()
      }
      tick()
    })
    const drainDeadline = performance.now() + 10_000
    while (accepted + errors < load.length && performance.now() < drainDeadline)
      await new Promise(r => setTimeout(r, 10))
    const cpu1 = await request<{ us: number; stalls: Stalls }>(child, { cmd: 'cpu' }, 'cpu')
    const { stalls } = cpu1 // since cpu0's read: this window's
    const ownStalls = generatorStalls()
    const generator = process.cpuUsage(load0)
    const threads = rolesSince(
      roles0,
      threadRoles(child.pid!),
      treeUsSince(pg0, processTree(postmaster)),
      generator.user + generator.system,
    )
    return {
      latencies: [...latencies],
      accepted,
      errors,
      busy,
      quotes: load.length,
      cpuMs: (cpu1.us - cpu0.us) / 1000,
      stalls,
      ownStalls,
      threads,
    }
  }
  type Window = Awaited<ReturnType<typeof pacedPhase>>
  const pooled = (ws: Window[]) => ({
    ...percentiles(ws.flatMap(w => w.latencies)),
    accepted: sum(ws, w => w.accepted),
    errors: sum(ws, w => w.errors),
    busy: sum(ws, w => w.busy),
    quotes: sum(ws, w => w.quotes),
    cpuMs: sum(ws, w => w.cpuMs),
    loopP99: Math.max(...ws.map(w => w.stalls.loopP99)),
    loopMax: Math.max(...ws.map(w => w.stalls.loopMax)),
    gcMs: sum(ws, w => w.stalls.gcMs),
    gcMax: Math.max(...ws.map(w => w.stalls.gcMax)),
    minorMs: sum(ws, w => w.stalls.minorMs),
    majorMs: sum(ws, w => w.stalls.majorMs),
    majorMax: Math.max(...ws.map(w => w.stalls.majorMax)),
    threads: sumThreads(ws.map(w => w.threads)),
  })
  const per = pacedRate * pacedSecs,
    off: Window[] = [],
    on: Window[] = []
  const routeRate = env('BENCH_ROUTE_RFQS_PER_SEC', 50)
  type RouteLoad = { created: number; refused: number; baselines: unknown; drainMs: number }
  const routeLoad: RouteLoad = { created: 0, refused: 0, baselines: null, drainMs: 0 }
  const bare: Window[] = []
  // the control windows with a SCHED_IDLE spinner busy this many ms in 10 (0: none): CPU taken with nothing else
  const controlSpin = env('BENCH_CONTROL_SPIN', 0)
  let spinMs = 0
  // a route load before the windows, not counted: its code paths (the creation's, the baseline's, the route lane's)
  // warmed as the quotes' are by the throughput phase, and its searches done, so the first window with route
  // searches does not carry a cold start that the windows without them never pay
  const warm = graph ? await warmRoutes(child, routePairs(graph, routeRate), routeRate) : null
  for (let w = 0; w < windows; w++) {
    off.push(await pacedPhase(allB.range(w * per, (w + 1) * per)))
    if (!graph) continue
    const loaded = request<RouteLoad>(
      child,
      { cmd: 'routeLoad', pairs: routePairs(graph, routeRate * pacedSecs), ratePerSec: routeRate },
      'routeLoaded',
    )
    if (profileRoutes && w === 0) child.send({ cmd: 'profile-start' })
    on.push(await pacedPhase(allC!.range(w * per, (w + 1) * per)))
    if (profileRoutes && w === 0) child.send({ cmd: 'profile-stop' })
    const r = await loaded
    // the searches still queued when the creations end finish before the next window without route load, so that
    // window measures the relay alone (they once ran into it: ~1.3 s of route CPU in the windows "without")
    routeLoad.drainMs += await baselinesSettled(child, 20_000)
    routeLoad.created += r.created
    routeLoad.refused += r.refused
    routeLoad.baselines = r.baselines
    // the control: the same creations, on a pair the graph does not hold (no search; the baseline stored missing)
    const created = request<RouteLoad>(
      child,
      { cmd: 'routeLoad', pairs: unroutable(routePairs(graph, routeRate * pacedSecs)), ratePerSec: routeRate },
      'routeLoaded',
    )
    const spinner = controlSpin > 0 ? startIdleSpinner(controlSpin) : null
    bare.push(await pacedPhase(allD!.range(w * per, (w + 1) * per)))
    spinMs += spinner?.stop() ?? 0
    await created
    await baselinesSettled(child, 20_000)
  }
  const paced = pooled(off),
    withRoutes = graph ? pooled(on) : null

  ending = true
  await Promise.all([observer, ...submitters].map(closeSocket))
  await new Promise(resolve => {
    child.once('exit', resolve)
    child.send({ cmd: 'stop' })
  })
  await db.drop()

  console.table([
    {
      measure: 'signer-recovery ceiling (1-thread native x pool threads)',
      value: `(${Math.round(perThread)}/s before, ${Math.round(perThreadAfter)}/s after the throughput phase) / 2 x ${ready.threads} = ${Math.round(ceiling)}/s; ${recoveryLibrary}`,
    },
    ...(loadW.length
      ? [
          {
            measure: `warm-up before the throughput phase, not counted (${loadW.length} quotes on RFQs of their own)`,
            value: `${Math.round(warmup.accepted / warmup.secs)}/s; ${warmup.cpu}`,
          },
        ]
      : []),
    {
      measure: `validated quotes/s (${loadA.length} quotes, ${CLIENTS} clients, ${MAKERS} makers, ${rfqsA.length} RFQs, ${quoteOrder}-major)`,
      value: `${Math.round(rate)}/s (${((rate / ceiling) * 100).toFixed(0)}% of ceiling); accepted ${phase1.accepted}, errors ${phase1.errors}`,
    },
    {
      measure: `full offered load (window ${maxWindow}, halved on BUSY): refused BUSY by admission control`,
      value: `${((phase1.busy / loadA.length) * 100).toFixed(1)}% (${phase1.busy} of ${loadA.length}); accepted p99 ${burst.p99.toFixed(2)} ms`,
    },
    {
      measure: 'bytes allocated per accepted quote (engine main thread, throughput phase)',
      value: `${Math.round(allocBytes / phase1.accepted)} B (${(allocBytes / 2 ** 20).toFixed(0)} MiB between collections for ${phase1.accepted} quotes${!Number.isFinite(allocSampled) ? '' : `; the heap profile sampled ${Math.round(allocSampled! / phase1.accepted)} B a quote`})`,
    },
    {
      measure: 'group commits during the throughput phase',
      value: `${commits} transactions, ${(phase1.accepted / commits).toFixed(0)} quotes per commit`,
    },
    {
      measure: 'signature batches to the pool, since the engine started',
      value: `${signBatches} batches, ${(signQuotes / signBatches).toFixed(1)} quotes per batch`,
    },
    {
      measure: 'broadcast latency at full load (window ' + maxWindow + ')',
      value: `p50 ${burst.p50.toFixed(2)} ms, p99 ${burst.p99.toFixed(2)} ms`,
    },
    {
      measure: `broadcast latency paced at ${process.env.BENCH_PACED_RATE ? 'BENCH_PACED_RATE' : 'half the max'} (${pacedRate}/s, ${paced.quotes} quotes)`,
      value: pacedText(paced),
    },
    ...(withRoutes
      ? [
          {
            measure: `the same, while ${routeRate} RFQs/s are created with server-side baselines on ${graph!.pools.length} pools (windows alternating with the above)`,
            value: pacedText(withRoutes),
          },
          {
            measure: 'route warm-up before the windows (not counted): RFQs created, baselines settled in',
            value: `${warm!.created}; ${(warm!.ms / 1000).toFixed(1)} s`,
          },
          {
            measure: 'route load: RFQs created, baselines',
            value: `${routeLoad.created} created (${routeLoad.refused} refused); ${JSON.stringify(routeLoad.baselines)}; searches left after the windows' creations settled in ${(routeLoad.drainMs / 1000).toFixed(1)} s`,
          },
        ]
      : []),
  ])
  for (const line of cpuPerQuoteLines(cpu0, cpu1, phase1.accepted, ceiling, rate)) console.log(line)
  console.log(`bytes allocated per accepted quote: ${Math.round(allocBytes / phase1.accepted)} B`)
  if (heap) console.log(gcLine(heap, phase1.accepted))
  if (process.env.BENCH_PROFILE && !profileRoutes) {
    const parts = profileParts(join(process.env.BENCH_PROFILE, 'relay-main.cpuprofile'))
    const text = parts.map(p => `${p.part} ${(p.share * 100).toFixed(1)}%`).join(', ')
    // V8's profiler samples on a wall-clock timer and takes each sample when the thread next runs: time the thread
    // waited for a core is charged to where it was stopped, most often just after it woke another thread (a post to
    // the writer's or the signature pool's thread). So this says where the thread's time went, not its CPU; perf on
    // the thread (docs/benchmarks.md 0.14.1) charged the writer's postMessage 3.9% of the CPU where this shows 15%.
    console.log(`main-thread time by part (profiled throughput phase, wall-clock samples): ${text}`)
  }
  console.log(`paced at half the max (${pacedRate}/s): p50 ${paced.p50.toFixed(2)} ms, p99 ${paced.p99.toFixed(2)} ms`)
  if (closedByRelay.length)
    console.log(
      `sockets the relay closed during the run: ${closedByRelay.length} (${closedByRelay.slice(0, 3).join(', ')}${closedByRelay.length > 3 ? ', ...' : ''})`,
    )
  if (withRoutes) {
    const kind = (ws: Window[]) => ({ windows: ws, pooled: pooled(ws) })
    const control = controlSpin > 0 ? `creations alone and a SCHED_IDLE spinner ${controlSpin} ms in 10` : null
    if (control) console.log(`SCHED_IDLE spinner's CPU in the control windows: ${spinMs.toFixed(0)} ms`)
    for (const line of routeWindowLines(kind(off), kind(on), bare.length ? kind(bare) : null, control))
      console.log(line)
  }
  return rate
}

const sum = <T>(xs: T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0)

function pacedText(p: {
  p50: number
  p99: number
  accepted: number
  errors: number
  busy: number
  cpuMs: number
}): string {
  return `p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms; accepted ${p.accepted}, errors ${p.errors} (BUSY ${p.busy}); engine CPU ${p.cpuMs.toFixed(0)} ms`
}

/** An uncounted route load of `pairs`, then until its baselines are all searched (at most 20 s). */
async function warmRoutes(
  child: ChildProcess,
  pairs: RoutePair[],
  ratePerSec: number,
): Promise<{ created: number; ms: number }> {
  const t0 = performance.now()
  const r = await request<{ created: number }>(child, { cmd: 'routeLoad', pairs, ratePerSec }, 'routeLoaded')
  await baselinesSettled(child, 20_000)
  return { created: r.created, ms: performance.now() - t0 }
}

/** Waits (at most `withinMs`) until the engine has no baseline waiting or searching; answers how long it waited. */
async function baselinesSettled(child: ChildProcess, withinMs: number): Promise<number> {
  const t0 = performance.now()
  for (;;) {
    const b = await request<{ waiting: number; searching: number }>(child, { cmd: 'baselines' }, 'baselines')
    if ((b.waiting === 0 && b.searching === 0) || performance.now() - t0 > withinMs) break
    await new Promise(res => setTimeout(res, 50))
  }
  return performance.now() - t0
}

/** The same pairs' amounts on the bench's own token pair, which the graph does not hold: a creation with no search. */
function unroutable(pairs: RoutePair[]): RoutePair[] {
  return pairs.map(p => ({ ...p, tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT }))
}

/** RFQs a busy venue's takers create: pairs of the graph (a hub to a hub, or a token to a hub), $1k to $100k each. */
function routePairs(g: NonNullable<ReturnType<typeof syntheticGraph>>, n: number): RoutePair[] {
  return Array.from({ length: n }, () => {
    const a =
      g.rand() < 0.5 ? g.tokens[Math.floor(g.rand() * HUBS)]! : g.tokens[Math.floor(g.rand() * g.tokens.length)]!
    let b = g.tokens[Math.floor(g.rand() * HUBS)]!
    if (b === a) b = g.tokens[(g.tokens.indexOf(a) + 1) % HUBS]!
    return {
      tokenIn: a.address,
      tokenOut: b.address,
      amountIn: String(g.raw((1000 * 100 ** g.rand()) / a.usd, a.decimals) || 1n),
    }
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values: cli } = parseCli(
    'relay.js',
    benchUsage(
      'relay',
      'Relay throughput and latency over real WebSockets against the same-run signer-recovery ceiling.',
      {
        BENCH_QUOTES: 'quotes in the throughput phase (60000)',
        BENCH_WARMUP_QUOTES: 'quotes sent before the throughput phase and not counted (5000; 0: none)',
        BENCH_PACED_RATE: 'paced phase rate (half the measured max)',
        BENCH_PACED_SECS: 'paced phase seconds (3)',
        BENCH_POOL_THREADS: 'pool threads (cores - 1)',
        BENCH_COMPARE_THREADS: 'set: run with 1 then 2 pool threads and compare',
        BENCH_WINDOW: 'quotes in flight (2048)',
        BENCH_PACED_WINDOWS:
          'paced windows without, with route searches, with creations alone (the control), in turn (3 of each)',
        BENCH_CONTROL_SPIN: 'ms in 10 a SCHED_IDLE spinner burns during the control windows (0: none)',
        BENCH_QUOTE_ORDER:
          'maker (default: each maker quotes every RFQ in turn) or rfq (every maker answers an RFQ in turn)',
        BENCH_PROFILE: 'dir for a CPU profile',
        BENCH_HEAP_SNAPSHOT: "file: the engine's heap snapshot at the end of the run",
        BENCH_HEAP_PROFILE:
          "file: V8's sampling heap profile of the throughput phase (its stack traces add ~2.5 µs a quote to the main thread)",
        BENCH_ENGINE_FLAGS: "node/V8 flags for the engine's process only (e.g. '--trace-gc-nvp')",
      },
    ),
    { engine: { type: 'boolean' } },
  )
  const order = process.env.BENCH_QUOTE_ORDER
  if (order !== undefined && order !== 'maker' && order !== 'rfq') {
    console.error(`relay.js: BENCH_QUOTE_ORDER is '${order}'; set it to maker or rfq (or leave it unset: maker)`)
    process.exit(2)
  }
  if (cli.engine) await engineMain()
  else if (process.env.BENCH_COMPARE_THREADS) {
    // the same bench with 1 and then 2 pool threads, in this one run: does a second thread pay on this machine?
    const rates: number[] = []
    for (const threads of ['1', '2']) {
      process.env.BENCH_POOL_THREADS = threads
      rates.push(await main())
    }
    console.log(
      `validated quotes/s with POOL_THREADS=2 vs 1, same run: ${Math.round(rates[1]!)}/s vs ${Math.round(rates[0]!)}/s (${((rates[1]! / rates[0]!) * 100).toFixed(0)}%)`,
    )
  } else await main()
}
