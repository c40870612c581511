// The relay bench's engine (bench/relay.ts runs this file's engineMain in a child process, so the load generator
// does not share its event loop): RFQs made on request, the commit count and the main thread's allocations,
// and RFQ creations at a rate (each with its server-side baseline on the route graph the database holds); bench/store.ts
// also runs the engine's quote retention here on request.
import { Session } from 'node:inspector'
import { writeHeapSnapshot } from 'node:v8'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Engine } from '../../engine/app.js'
import { watchStalls } from './stalls.js'
import { countHeap, type HeapCount } from './allocCount.js'
import { childrenUs } from './procCpu.js'
import { randomBytes } from 'node:crypto'
import { rfqIdAt } from '../../workers/values/rfqId.js'
import { exposedGc } from './exposedGc.js'

export const TOKEN_IN = '0x1111111111111111111111111111111111111111'
export const TOKEN_OUT = '0x2222222222222222222222222222222222222222'

export interface WireRfq {
  id: string
  taker: string
  expiry: number
  createdAt: number
}
/** What a maker's quote for each of `rfqs` signs: the terms this engine gives the RFQs it makes (cmd 'create'). */
export const wireTerms = (rfqs: readonly WireRfq[]) =>
  rfqs.map(r => ({
    rfqId: r.id,
    taker: r.taker,
    tokenIn: TOKEN_IN,
    tokenOut: TOKEN_OUT,
    amountIn: 10n ** 18n,
    expiry: r.expiry,
  }))

/** an RFQ the route load creates: a pair of the graph and an input amount (decimal string) */
export interface RoutePair {
  tokenIn: string
  tokenOut: string
  amountIn: string
}

export async function engineMain(): Promise<void> {
  const { loadConfig } = await import('../../engine/config.js')
  const { startEngine } = await import('../../engine/app.js')
  const engine = await startEngine(
    loadConfig({
      ...process.env,
      API_PORT: '0',
      TERMINAL_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MIN: '1000000000',
      RFQ_TTL_SECS: '3600',
      RELAY_MAX_CONNECTIONS_PER_IP: '1000',
      RELAY_REST_RATE_LIMIT_PER_MIN: '1000000000',
      ...(process.env.BENCH_POOL_THREADS ? { POOL_THREADS: process.env.BENCH_POOL_THREADS } : {}),
    }),
  )
  const book = engine.modules.book
  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((res, rej) => profiler!.post(method, params, (e, r) => (e ? rej(e) : res(r as T))))
  // bytes allocated and promoted on the main thread during the throughput phase, and its collections: from V8's
  // record of each collection (allocCount.ts); with BENCH_HEAP_PROFILE, also V8's sampling heap profiler, keeping
  // the samples of objects already collected too, so the sum is what was allocated, not what is still live (a sample
  // each 32 KiB on average, ~30k a run: its stack traces cost the main thread ~2.5 µs a quote, so only when a profile
  // is asked for)
  let stopCounting: (() => HeapCount) | undefined
  let allocSampled = NaN
  const heap = new Session()
  heap.connect()
  const heapPost = <T>(method: string, params?: object) =>
    new Promise<T>((res, rej) => heap.post(method, params, (e, r) => (e ? rej(e) : res(r as T))))
  let heapCount: HeapCount | null = null
  const stalls = watchStalls()
  // a failure here crashes this child (an unhandled rejection), which the parent sees as its exit
  process.on(
    'message',
    (m: { cmd: string; rfqs?: WireRfq[]; pairs?: RoutePair[]; ratePerSec?: number; days?: number; ids?: string[] }) =>
      void (async () => {
        if (m.cmd === 'profile-start') stopCounting = countHeap()
        else if (m.cmd === 'profile-stop') heapCount = stopCounting?.() ?? null
        if (m.cmd === 'profile-start' && process.env.BENCH_HEAP_PROFILE) {
          await heapPost('HeapProfiler.enable')
          await heapPost('HeapProfiler.startSampling', {
            samplingInterval: 32768,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          })
        } else if (m.cmd === 'profile-stop' && process.env.BENCH_HEAP_PROFILE) {
          const { profile } = await heapPost<{ profile: { samples: { size: number }[] } }>('HeapProfiler.stopSampling')
          allocSampled = profile.samples.reduce((n, x) => n + x.size, 0)
          writeFileSync(process.env.BENCH_HEAP_PROFILE, JSON.stringify(profile))
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
            await Promise.all(
              m.rfqs!.slice(i, i + 50).map(r =>
                book.create({
                  id: r.id,
                  taker: r.taker as `0x${string}`,
                  tokenIn: TOKEN_IN,
                  tokenOut: TOKEN_OUT,
                  kind: 0,
                  amountIn: 10n ** 18n,
                  amountOut: null,
                  expiry: r.expiry,
                  visibility: 'public',
                  allowedMakers: [],
                  shareToken: null,
                  createdAt: new Date(r.createdAt),
                  agentId: null,
                }),
              ),
            )
          }
          process.send!({ cmd: 'created' })
        } else if (m.cmd === 'cancel') {
          // the warm-up's RFQs, once it is over: their quotes leave the book, so the phases after it hold what they
          // would have held without one
          for (let i = 0; i < m.ids!.length; i += 50)
            await Promise.all(m.ids!.slice(i, i + 50).map(id => book.cancel(id)))
          // and what they held collected now, not by a major GC in a measured phase (a run's one mark-compact fell in
          // the paced windows, ~100 ms in their p99)
          exposedGc()()
          process.send!({ cmd: 'cancelled' })
        } else if (m.cmd === 'cpu') {
          // the engine process's CPU (every thread), read from /proc through process.cpuUsage, and its route process's
          const u = process.cpuUsage()
          process.send!({ cmd: 'cpu', us: u.user + u.system + childrenUs(process.pid), stalls: stalls() })
        } else if (m.cmd === 'routeLoad') {
          // RFQ creations at a rate, each with its server-side baseline, while the parent paces quotes
          const r = await createAtRate(book, m.pairs!, m.ratePerSec!)
          process.send!({ cmd: 'routeLoaded', ...r, baselines: { ...engine.modules.baselines.stats } })
        } else if (m.cmd === 'baselines') {
          process.send!({ cmd: 'baselines', ...engine.modules.baselines.stats })
        } else if (m.cmd === 'stats') {
          const metrics = await engine.ctx.metrics.registry.getSingleMetricAsString('relay_quote_commits_total')
          const signed = await engine.ctx.metrics.registry.getSingleMetricAsString('relay_signer_batch_quotes')
          process.send!({
            cmd: 'stats',
            commits: Number(/ (\d+)$/m.exec(metrics)?.[1] ?? NaN),
            signBatches: Number(/_count (\d+)$/m.exec(signed)?.[1] ?? NaN),
            signQuotes: Number(/_sum (\d+)$/m.exec(signed)?.[1] ?? NaN),
            heap: heapCount,
            allocSampled,
          })
        } else if (m.cmd === 'retention') {
          // the store bench's partition drop, by the engine's own retention path on its own pool (as its upkeep runs it)
          const { runRetention } = await import('../../engine/store/retention.js')
          const t0 = performance.now()
          const run = await runRetention(engine.ctx.sql, { days: m.days! })
          process.send!({ cmd: 'retained', dropped: run.dropped, skipped: run.skipped, ms: performance.now() - t0 })
        } else if (m.cmd === 'stop') {
          // the heap as the run leaves it (every live quote still in the book), for reading what a quote keeps
          if (process.env.BENCH_HEAP_SNAPSHOT) writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT)
          await engine.stop()
          process.exit(0)
        }
      })(),
  )
  process.send!({ cmd: 'ready', port: engine.ports.relay, api: engine.ports.api, threads: engine.ctx.sigPool.threads })
}

/** Creates an RFQ per pair at `ratePerSec`, on a timer: the load a busy venue's takers put on the route finder. */
async function createAtRate(
  book: Engine['modules']['book'],
  pairs: RoutePair[],
  ratePerSec: number,
): Promise<{ created: number; refused: number }> {
  let created = 0,
    refused = 0
  const started = Date.now()
  for (let i = 0; i < pairs.length; i++) {
    const wait = started + (i * 1000) / ratePerSec - Date.now()
    if (wait > 0) await new Promise(r => setTimeout(r, wait))
    const p = pairs[i]!,
      now = Date.now()
    const taker: `0x${string}` = `0x${(0xb0000000 + i).toString(16).padStart(40, '0')}`
    await book
      .create({
        id: rfqIdAt(now, randomBytes(16).toString('hex')),
        taker,
        tokenIn: p.tokenIn as `0x${string}`,
        tokenOut: p.tokenOut as `0x${string}`,
        kind: 0,
        amountIn: BigInt(p.amountIn),
        amountOut: null,
        expiry: Math.floor(now / 1000) + 600,
        visibility: 'public',
        allowedMakers: [],
        shareToken: null,
        createdAt: new Date(now),
        agentId: null,
      })
      .then(
        () => {
          created++
        },
        () => {
          refused++
        },
      )
  }
  return { created, refused }
}
