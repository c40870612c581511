// Load-tests a running deployment's relay: `node dist/bench/loadtest.js --help`.
// RFQs are created through the API with a taker agent's key; quotes are pre-signed with fresh maker
// keys under the domain the relay's /health announces, sent at a fixed rate over WebSockets, and
// timed from submit to QUOTE_BROADCAST. One progress line per second; DIR/report.json and a
// self-contained DIR/report.html at the end. With --ramp it raises the rate step by step and reports
// the highest rate whose p99 holds the target with errors under 1%.
// Traffic goes only where you point it. The relay's per-IP message limit (RATE_LIMIT_PER_MIN, 30 by
// default) applies to the generator like any client: raise it on the target for a load test.
import { parseCli } from '../engine/ops/cli.js'
import { createHistogram } from 'node:perf_hooks'
import { freshMakers, presignQuotes, checkAgainstViem } from './lib/presign.js'
import { runStep, pct, type StepResult } from './lib/relayLoad.js'
import { buildReport, writeReport } from './lib/loadReport.js'
import { relayDomain, agentWallet, registerTaker, tokenPair, createRfqs, cancelRfqs, VenueError, type LiveRfq } from './lib/venueClient.js'

const HELP = `Usage: node dist/bench/loadtest.js [options]

Load-tests a running engine's relay with signed quotes and writes DIR/report.json and DIR/report.html.

Options:
  --relay URL         relay WebSocket, e.g. ws://127.0.0.1:8080            (default ws://127.0.0.1:8080)
  --api URL           RFQ API, e.g. http://127.0.0.1:3000                   (default http://127.0.0.1:3000)
  --key KEY           a taker agent's API key (rfq_live_...); without it a throw-away taker agent is
                      registered with a fresh owner key
  --rate N            quotes per second to offer                            (default 500)
  --seconds S         how long to send                                      (default 10)
  --out DIR           where report.json and report.html go                  (default loadtest-out)
  --connections N     submitting WebSocket connections                      (default 16)
  --rfqs N            RFQs per step (bounded by the taker's active-RFQ cap)  (default 10)
  --ramp              raise the rate each step until the p99 target fails
  --p99-target MS     ramp: the p99 submit-to-broadcast target              (default 10)
  --start-rate N      ramp: the first step's rate                           (default 250)
  --max-rate N        ramp: never offer more than this                      (default 100000)
  --step-seconds S    ramp: seconds per step                                (default 5)
  -h, --help          this text

The relay limits messages per IP (RATE_LIMIT_PER_MIN, default 30/min): raise it on the target, or the
report will show RATE_LIMITED errors. A step lasts at most 30 s, and RFQs are renewed after 45 s, so they stay live under the
relay's default RFQ_TTL_SECS of 60.`

const MAX_STEP_SECS = 30
/** RFQs older than this are renewed before a step: well inside the relay's default 60 s lifetime */
const RFQ_REUSE_MS = 45_000

async function main(): Promise<number> {
  const { values: a } = parseCli('loadtest.js', HELP, {
    relay: { type: 'string', default: 'ws://127.0.0.1:8080' }, api: { type: 'string', default: 'http://127.0.0.1:3000' }, key: { type: 'string' },
    rate: { type: 'string', default: '500' }, seconds: { type: 'string', default: '10' }, out: { type: 'string', default: 'loadtest-out' },
    connections: { type: 'string', default: '16' }, rfqs: { type: 'string', default: '10' }, ramp: { type: 'boolean', default: false },
    'p99-target': { type: 'string', default: '10' }, 'start-rate': { type: 'string', default: '250' }, 'max-rate': { type: 'string', default: '100000' },
    'step-seconds': { type: 'string', default: '5' },
  })
  const num = (name: keyof typeof a, min: number) => {
    const v = Number(a[name])
    if (!Number.isFinite(v) || v < min) throw new VenueError(`--${name} must be a number >= ${min} (got ${String(a[name])})`)
    return v
  }
  const relay = a.relay!.replace(/\/$/, ''), api = a.api!.replace(/\/$/, '')
  const relayHttp = relay.replace(/^ws/, 'http')
  const opts = { rate: num('rate', 1), seconds: num('seconds', 1), connections: Math.floor(num('connections', 1)), rfqs: Math.floor(num('rfqs', 1)),
    p99: num('p99-target', 0.01), startRate: num('start-rate', 1), maxRate: num('max-rate', 1), stepSecs: Math.min(MAX_STEP_SECS, num('step-seconds', 1)) }

  const domain = await relayDomain(relayHttp)
  const key = a.key ?? await registerTaker(api)
  const taker = await agentWallet(api, key)
  const [tokenIn, tokenOut] = await tokenPair(api)
  console.log(`target relay ${relay} (chain ${domain.chainId}, contract ${domain.verifyingContract}), api ${api}, taker ${taker}`)

  const steps: StepResult[] = [], holds: boolean[] = []
  const total = createHistogram()
  const startedAt = new Date()
  // RFQs are reused across steps (every step quotes with fresh makers, so one quote per maker per RFQ
  // still holds) and renewed before the relay's RFQ lifetime ends: the agent's own rate limit counts
  // every create and cancel.
  let rfqs: LiveRfq[] = [], madeAt = 0
  const liveRfqs = async (secs: number) => {
    if (!rfqs.length || Date.now() - madeAt + secs * 1000 > RFQ_REUSE_MS) {
      await cancelRfqs(api, key, rfqs)
      rfqs = await createRfqs(api, key, opts.rfqs, { tokenIn, tokenOut, amountIn: 10n ** 18n, ttlSeconds: 300 })
      madeAt = Date.now()
    }
    return rfqs
  }
  const step = async (rate: number, secs: number): Promise<StepResult> => {
    const rfqs = await liveRfqs(secs)
    const count = Math.ceil(rate * secs)
    const makers = freshMakers(Math.ceil(count / rfqs.length))
    const deadline = Math.floor(Date.now() / 1000) + 3600
    const quotes = presignQuotes(domain, rfqs.map(r => ({ ...r, taker, tokenIn, tokenOut, amountIn: 10n ** 18n })), makers, count, deadline)
    await checkAgainstViem(domain, quotes[0]!)
    console.log(`step: ${rate}/s for ${secs} s, ${quotes.length} quotes over ${rfqs.length} RFQs and ${makers.length} makers`)
    const r = await runStep({ relayUrl: relay, quotes, rate, connections: opts.connections, onSecond: (s, t) => console.log(progress(s.t, rate, t, s)) })
    total.add(r.latency)
    steps.push(r)
    return r
  }

  if (!a.ramp) {
    for (let left = opts.seconds; left > 0; left -= MAX_STEP_SECS) await step(opts.rate, Math.min(left, MAX_STEP_SECS))
  } else {
    // double until a step fails, then bisect between the last good and the first bad rate
    let good: number | null = null, bad: number | null = null, rate = opts.startRate
    for (let i = 0; i < 12; i++) {
      const r = await step(rate, opts.stepSecs)
      const ok = holdsTarget(r, opts.p99)
      holds.push(ok)
      if (ok) good = rate; else bad = rate
      if (bad === null) { if (rate >= opts.maxRate) break; rate = Math.min(opts.maxRate, rate * 2) }
      else if (good === null || bad - good <= Math.max(50, good * 0.1)) break
      else rate = Math.round((good + bad) / 2)
    }
    console.log(`highest rate holding p99 <= ${opts.p99} ms: ${good ?? 'none'}/s`)
    const report = buildReport({ relay, api, startedAt, mode: 'ramp', steps, total, holds, ramp: { p99TargetMs: opts.p99, highestHoldingRate: good } })
    await cancelRfqs(api, key, rfqs)
    return finish(a.out!, report)
  }
  await cancelRfqs(api, key, rfqs)
  return finish(a.out!, buildReport({ relay, api, startedAt, mode: 'fixed', steps, total }))
}

function holdsTarget(r: StepResult, p99: number): boolean {
  const errs = Object.values(r.errors).reduce((x, y) => x + y, 0)
  return r.accepted > 0 && pct(r.latency, 99) <= p99 && errs <= r.sent * 0.01
}

function progress(t: number, rate: number, tot: { sent: number; accepted: number; errors: Record<string, number> }, s: { p50Ms: number; p99Ms: number }): string {
  const errs = Object.entries(tot.errors).map(([k, v]) => `${k}:${v}`).join(' ') || '0'
  const ms = (x: number) => Number.isFinite(x) ? x.toFixed(2) : '-'
  return `[${String(t).padStart(4)}s] rate ${rate}/s  sent ${tot.sent}  accepted ${tot.accepted}  errors ${errs}  p50 ${ms(s.p50Ms)} ms  p99 ${ms(s.p99Ms)} ms`
}

function finish(out: string, report: ReturnType<typeof buildReport>): number {
  const files = writeReport(out, report)
  console.log(`sent ${report.sent}, accepted ${report.accepted}, p50 ${report.latencyMs.p50} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`)
  console.log(`wrote ${files.json} and ${files.html}`)
  return 0
}

main().then(code => process.exit(code), err => {
  // one line that says what went wrong; the stack only with DEBUG=1
  console.error(`loadtest: ${err instanceof Error ? err.message : String(err)}`)
  if (process.env.DEBUG === '1' && err instanceof Error) console.error(err.stack)
  process.exit(err instanceof VenueError ? 2 : 1)
})
