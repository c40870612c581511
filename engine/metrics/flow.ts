// The quote flow's own metrics: what an operator of an RFQ venue watches (docs/operations.md). Each is one small
// call at the place it measures, so the place can move without the metric changing. The per-quote counters are plain
// numbers, one cell per label value looked up in a Map, handed to prom-client when /metrics is read (its `collect`):
// a label child's inc() hashes its labels into a new string, checks them and returns a fresh object on every call,
// ~270 bytes and two of them a quote on the relay's path (issue 29). No label carries client data: outcomes, states
// and frame types come from fixed sets, and anything else is counted as `other`; buckets are fixed, so memory is
// bounded whatever clients send.
import type { Registry } from 'prom-client'
import { scrapedCounterBy } from './scraped.js'
import { countedHistogram } from './countedHistogram.js'

/** the quote outcomes counted apart: ACCEPTED and every code the relay answers a quote with */
export const QUOTE_OUTCOMES = [
  'ACCEPTED',
  'BUSY',
  'DUPLICATE_QUOTE',
  'RFQ_NOT_FOUND',
  'MISSING_FIELDS',
  'INVALID_MAKER',
  'TOKEN_IN_MISMATCH',
  'TOKEN_OUT_MISMATCH',
  'TAKER_MISMATCH',
  'DEADLINE_PAST',
  'AMOUNT_IN_ZERO',
  'AMOUNT_OUT_ZERO',
  'INVALID_SIGNATURE',
  'INVALID_QUOTE_FIELD',
  'MAKER_NOT_ALLOWED',
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
  'other',
] as const
export const RFQ_END_STATES = ['FILLED', 'CANCELLED', 'EXPIRED'] as const
/** the relay's inbound frame types, and what could not be read as one */
export const FRAME_TYPES = ['QUOTE_SUBMIT', 'CANCEL_REQUEST', 'PING', 'PONG', 'SUBSCRIBE', 'invalid'] as const

// from a loopback half-millisecond to a database that stalls for seconds
const LATENCY = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
const BATCH = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]

export interface FlowMetrics {
  /** a quote's verdict, `startedMs` from performance.now() when it was submitted */
  quote(code: string | undefined, startedMs: number): void
  /** one group commit of accepted quotes */
  commit(seconds: number, quotes: number): void
  /** one signature batch: how long its first quote waited for the pool, and its size */
  signBatch(waitSeconds: number, quotes: number): void
  routeSearch(seconds: number): void
  rfqEnded(state: string): void
  frame(type: string): void
  /** a cluster node's (made when it joins, so a single node has none): an event from another node applied here,
   *  `originMs` when that node received it */
  clusterApplyLag(): (originMs: number) => void
}

export function createFlowMetrics(registry: Registry): FlowMetrics {
  const registers = [registry]
  const counterOf = <T extends string>(name: string, help: string, label: string, values: readonly T[]) => {
    const cells = new Map(values.map(v => [v as string, { n: 0 }]))
    // every series exists from the start, at 0, and carries its cell's count at each scrape
    scrapedCounterBy(registers, name, help, label, function* () {
      for (const [v, c] of cells) yield [v, c.n] as const
    })
    return cells
  }
  // the histograms likewise (countedHistogram.ts): prom-client's observe allocates ~176 bytes a call
  const histogram = (name: string, help: string, buckets: number[]) => countedHistogram(registers, name, help, buckets)

  const quoteLatency = histogram(
    'relay_quote_duration_seconds',
    "a quote's submission to its verdict; accepted quotes: verified, committed and broadcast",
    LATENCY,
  )
  const outcomes = counterOf(
    'relay_quotes_total',
    "quote submissions by outcome (ACCEPTED or the refusal's code)",
    'outcome',
    QUOTE_OUTCOMES,
  )
  const commitTime = histogram(
    'relay_quote_commit_duration_seconds',
    'one group commit of accepted quotes (a transaction, an fsync)',
    LATENCY,
  )
  const commitSize = histogram('relay_quote_commit_quotes', 'accepted quotes per group commit', BATCH)
  const signWait = histogram(
    'relay_signer_queue_wait_seconds',
    "a signature batch's wait for a signer pool thread, and its trip there",
    LATENCY,
  )
  const signSize = histogram('relay_signer_batch_quotes', 'quotes per signature batch sent to the signer pool', BATCH)
  const routeTime = histogram(
    'sor_route_search_duration_seconds',
    'one route search on a route thread, queue wait included',
    LATENCY,
  )
  const ends = counterOf('rfq_ends_total', 'RFQs ended on this node, by end state', 'state', RFQ_END_STATES)
  const frames = counterOf('relay_frames_total', 'WebSocket frames received by the relay, by type', 'type', FRAME_TYPES)

  return {
    quote(code, startedMs) {
      const outcome = code ?? 'ACCEPTED'
      ;(outcomes.get(outcome) ?? outcomes.get('other')!).n++
      if (code === undefined) quoteLatency.observe((performance.now() - startedMs) / 1000)
    },
    commit(seconds, quotes) {
      commitTime.observe(seconds)
      commitSize.observe(quotes)
    },
    signBatch(waitSeconds, quotes) {
      signWait.observe(waitSeconds)
      signSize.observe(quotes)
    },
    routeSearch(seconds) {
      routeTime.observe(seconds)
    },
    rfqEnded(state) {
      const cell = ends.get(state)
      if (cell) cell.n++
    },
    frame(type) {
      ;(frames.get(type) ?? frames.get('invalid')!).n++
    },
    clusterApplyLag() {
      const lag = histogram(
        'cluster_apply_lag_seconds',
        'a quote from another node: its receipt there to its apply here (commit, wire and apply; clocks in sync)',
        LATENCY,
      )
      // a time that is no number never reaches observe (prom-client throws on NaN)
      return originMs => {
        if (Number.isFinite(originMs)) lag.observe(Math.max(0, Date.now() - originMs) / 1000)
      }
    },
  }
}
