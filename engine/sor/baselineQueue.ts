// Server-side baselines, under load. When an RFQ is created the route finder quotes its pair at that moment and
// the quote is stored as the RFQ's AMM baseline (source 'sor'), so every RFQ, not only those whose client posted
// a baseline, is benchmarked when its fill is recorded; a client's own baseline later replaces it.
//
// A burst of RFQ creations must never starve the relay, so the searches wait in a bounded queue:
//   - RFQs on one pair within SOR_BASELINE_COALESCE_MS share one route task (one search per distinct amount);
//   - tasks start at most SOR_BASELINE_RATE a second, and no more at once than there are route threads;
//   - past SOR_BASELINE_QUEUE waiting, or not started within SOR_BASELINE_MAX_WAIT_MS of its creation, an RFQ's
//     baseline is stored missing with its reason (baseline_misses), as is one the route finder cannot give
//     (exact output, no route, a refusal). Nothing is dropped silently.
import type { Logger } from 'pino'
import type { EventBus } from '../../actors/events.js'
import type { Rfq, RfqEvent } from '../../actors/rfqTypes.js'
import type { Sql } from '../store/db.js'
import { storeBaseline, baselineFromSorQuote } from '../baseline/storeBaseline.js'
import { recordBaselineMiss } from '../store/baselines.js'
import { describe, type SorOutcome, type SorRefusal } from './errors.js'
import type { RouteFinder } from './service.js'
import type { SorQuote } from './quote.js'

export type MissCode = 'EXACT_OUT' | 'QUEUE_FULL' | 'DEADLINE' | 'NO_ROUTE' | 'SHUTDOWN' | 'ERROR' | SorRefusal['code']

export const MissReasons = {
  exactOut: () => 'the RFQ is exact-output: the route finder quotes an exact input',
  queueFull: (bound: number) => `the baseline queue was full (${bound} RFQs waiting)`,
  deadline: (ms: number) => `not started within ${ms} ms of the RFQ's creation (the baseline queue was behind)`,
  noRoute: (warning: string | undefined) => warning ?? 'no route through the tracked pools',
  shutdown: () => 'the engine stopped before the baseline was searched',
} as const

export interface BaselinePolicy {
  /** route tasks started per second */
  ratePerSec: number
  /** RFQs waiting at most */
  queue: number
  coalesceMs: number
  maxWaitMs: number
  /** route tasks at once: the route threads */
  inFlight: number
}

export interface ServerBaselines {
  /** resolves when every RFQ received so far has its baseline, or its miss, stored (tests, shutdown) */
  settled(): Promise<void>
  /** no more RFQs; those still waiting are stored missing (SHUTDOWN), those searching finish */
  stop(): void
  readonly stats: {
    waiting: number
    searching: number
    searches: number
    coalesced: number
    stored: number
    missing: Partial<Record<MissCode, number>>
  }
}

interface Job {
  rfqId: string
  amountIn: bigint
  at: number
}
interface Group {
  key: string
  tokenIn: Rfq['tokenIn']
  tokenOut: Rfq['tokenOut']
  jobs: Job[]
}

export interface BaselineDeps {
  events: EventBus<RfqEvent>
  routeFinder: RouteFinder
  sql: Sql
  log: Logger
  policy: BaselinePolicy
  now?: () => number
}

export function storeServerBaselines(d: BaselineDeps): ServerBaselines {
  const { events, routeFinder, sql, log, policy, now = Date.now } = d
  const open = new Map<string, Group>() // pairs still collecting RFQs, closed by a timer
  const ready: Group[] = [] // closed, waiting for the rate and a thread
  const work = new Set<Promise<void>>() // searches and writes under way
  const stats: ServerBaselines['stats'] = {
    waiting: 0,
    searching: 0,
    searches: 0,
    coalesced: 0,
    stored: 0,
    missing: {},
  }
  const timers = new Set<NodeJS.Timeout>()
  let inFlight = 0,
    nextStart = 0,
    pumpTimer: NodeJS.Timeout | null = null,
    stopped = false

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    t.unref()
    timers.add(t)
  }
  const track = (p: Promise<void>) => {
    work.add(p)
    void p.finally(() => work.delete(p))
  }
  const miss = (rfqId: string, code: MissCode, reason: string) => {
    stats.missing[code] = (stats.missing[code] ?? 0) + 1
    const stored = recordBaselineMiss(sql, { rfqId, code, reason })
    track(stored.catch((err: unknown) => log.warn({ err, rfqId, code }, 'baseline miss not stored')))
  }

  const received = (rfq: Rfq) => {
    // the route finder quotes exact input; an EXACT_OUT RFQ has no input amount to quote
    if (rfq.kind !== 0 || rfq.amountIn === null) return miss(rfq.id, 'EXACT_OUT', MissReasons.exactOut())
    if (stats.waiting >= policy.queue) return miss(rfq.id, 'QUEUE_FULL', MissReasons.queueFull(policy.queue))
    const key = `${rfq.tokenIn}>${rfq.tokenOut}`
    let group = open.get(key)
    if (group) stats.coalesced++
    else {
      open.set(key, (group = { key, tokenIn: rfq.tokenIn, tokenOut: rfq.tokenOut, jobs: [] }))
      const closing = group
      later(policy.coalesceMs, () => close(closing))
    }
    group.jobs.push({ rfqId: rfq.id, amountIn: rfq.amountIn, at: now() })
    stats.waiting++
  }

  const close = (group: Group) => {
    if (open.get(group.key) === group) open.delete(group.key)
    ready.push(group)
    pump()
  }

  /** Starts ready groups while the rate and the threads allow; comes back when the rate does. */
  const pump = () => {
    while (ready.length && inFlight < policy.inFlight) {
      const wait = nextStart - now()
      if (wait > 0) {
        if (!pumpTimer) {
          pumpTimer = setTimeout(() => {
            pumpTimer = null
            pump()
          }, wait)
          pumpTimer.unref()
        }
        return
      }
      nextStart = Math.max(nextStart, now()) + 1000 / policy.ratePerSec
      start(ready.shift()!)
    }
  }

  const start = (group: Group) => {
    stats.waiting -= group.jobs.length
    const t = now()
    const fresh = group.jobs.filter(j => t - j.at <= policy.maxWaitMs)
    for (const j of group.jobs) {
      if (t - j.at > policy.maxWaitMs) miss(j.rfqId, 'DEADLINE', MissReasons.deadline(policy.maxWaitMs))
    }
    if (!fresh.length) return
    const amounts = [...new Set(fresh.map(j => j.amountIn))]
    inFlight++
    stats.searching = inFlight
    stats.searches++
    track(
      routeFinder
        .quoteAmounts({ tokenIn: group.tokenIn, tokenOut: group.tokenOut, explain: false }, amounts)
        .then(outcomes => Promise.all(fresh.map(j => store(j, outcomes[amounts.indexOf(j.amountIn)]!))).then(() => {}))
        .catch((err: unknown) => {
          const context = { tokenIn: group.tokenIn, tokenOut: group.tokenOut, rfqs: fresh.map(j => j.rfqId) }
          log.error({ err, ...context }, 'server-side baseline search failed')
          for (const j of fresh) miss(j.rfqId, 'ERROR', err instanceof Error ? err.message : String(err))
        })
        .finally(() => {
          inFlight--
          stats.searching = inFlight
          pump()
        }),
    )
  }

  const store = async (job: Job, o: SorOutcome<SorQuote>): Promise<void> => {
    if (!o.ok) return miss(job.rfqId, o.code, describe(o))
    const q = o.value
    if (!q.routes.length || q.summary.amountOut <= 0n) {
      return miss(job.rfqId, 'NO_ROUTE', MissReasons.noRoute(q.warnings[0]))
    }
    // the pools could route only part of it: kept, marked partial, never a benchmark for the whole
    await storeBaseline(sql, { ...baselineFromSorQuote(job.rfqId, q), partial: q.summary.amountIn < job.amountIn })
    stats.stored++
  }

  const unsubscribe = events.subscribe(e => {
    // in a cluster, the node that created the RFQ stores its baseline
    if (e.type === 'rfq.created' && !e.remote && !stopped) received(e.rfq)
  })

  return {
    stats,
    async settled() {
      while (open.size || ready.length || inFlight || work.size) {
        // what is under way, or a turn of the timers (a pair's window, the rate) when nothing is
        await (work.size ? Promise.allSettled([...work]) : new Promise(r => setTimeout(r, 10)))
      }
    },
    stop() {
      stopped = true
      unsubscribe()
      for (const t of timers) clearTimeout(t)
      timers.clear()
      if (pumpTimer) clearTimeout(pumpTimer)
      const left = [...open.values(), ...ready.splice(0)]
      open.clear()
      for (const g of left) {
        for (const j of g.jobs) {
          stats.waiting--
          miss(j.rfqId, 'SHUTDOWN', MissReasons.shutdown())
        }
      }
    },
  }
}
