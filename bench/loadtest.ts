// Load-tests a running deployment's relay: `node dist/bench/loadtest.js --help`.
// RFQs are created through the API with a taker agent's key; quotes are pre-signed with fresh maker
// keys under the domain the relay's /health announces, sent at a fixed rate over WebSockets, and
// timed from submit to QUOTE_BROADCAST. One progress line per second; DIR/report.json and a
// self-contained DIR/report.html at the end. With --ramp it searches (up, down, then bisecting) for the
// highest rate whose p99 holds the target with errors under 1%, and says why when none does.
// Traffic goes only where you point it. The relay's per-IP message limit (RATE_LIMIT_PER_MIN, 30 by
// default) applies to the generator like any client: when most quotes are refused, one line names the code
// and the setting to raise, with a value that fits the rate.
import { parseCli } from '../engine/ops/cli.js'
import { createHistogram } from 'node:perf_hooks'
import { freshMakers, presignQuotes, checkAgainstViem } from './lib/presign.js'
import { runStep, pct, type StepResult } from './lib/relayLoad.js'
import { buildReport, writeReport } from './lib/loadReport.js'
import { rampSearch } from './lib/rampSearch.js'
import { explainRefusals, fittingLimit } from './lib/refusals.js'
import {
  relayDomain,
  agentWallet,
  registerTaker,
  tokenPair,
  createRfqs,
  cancelRfqs,
  VenueError,
  type LiveRfq,
} from './lib/venueClient.js'

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
  --ramp              search for the highest rate that holds the p99 target: double from
                      --start-rate while steps hold, halve while they fail, then bisect
  --p99-target MS     ramp: the p99 submit-to-broadcast target              (default 10)
  --start-rate N      ramp: the first step's rate                           (default 250)
  --min-rate N        ramp: never offer less than this                      (default 1)
  --max-rate N        ramp: never offer more than this                      (default 100000)
  --step-seconds S    ramp: seconds per step                                (default 5)
  -h, --help          this text

The relay limits messages per IP (RATE_LIMIT_PER_MIN, default 30/min): start the target with it above
60 x the rate (--rate 2000: RATE_LIMIT_PER_MIN=${fittingLimit(2000)}), or most quotes are refused; the tool then
says so in one line, with the value to set. A step lasts at most 30 s, and RFQs are renewed after 45 s, so
they stay live under the relay's default RFQ_TTL_SECS of 60.`

const MAX_STEP_SECS = 30
/** RFQs older than this are renewed before a step: well inside the relay's default 60 s lifetime */
const RFQ_REUSE_MS = 45_000

async function main(): Promise<number> {
  const { values: a } = parseCli('loadtest.js', HELP, {
    relay: { type: 'string', default: 'ws://127.0.0.1:8080' },
    api: { type: 'string', default: 'http://127.0.0.1:3000' },
    key: { type: 'string' },
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '10' },
    out: { type: 'string', default: 'loadtest-out' },
    connections: { type: 'string', default: '16' },
    rfqs: { type: 'string', default: '10' },
    ramp: { type: 'boolean', default: false },
    'p99-target': { type: 'string', default: '10' },
    'start-rate': { type: 'string', default: '250' },
    'max-rate': { type: 'string', default: '100000' },
    'min-rate': { type: 'string', default: '1' },
    'step-seconds': { type: 'string', default: '5' },
  })
  // a count or rate must be positive (a rate of 0 or -5 sends nothing: named, not run)
  const num = (name: keyof typeof a, min: number) => {
    const v = Number(a[name])
    if (!Number.isFinite(v)) throw new VenueError(`--${name} must be a number (got ${String(a[name])})`)
    if (v <= 0) throw new VenueError(`--${name} must be above 0 (got ${String(a[name])})`)
    if (v < min) throw new VenueError(`--${name} must be at least ${min} (got ${String(a[name])})`)
    return v
  }
  const relay = a.relay!.replace(/\/$/, ''),
    api = a.api!.replace(/\/$/, '')
  const relayHttp = relay.replace(/^ws/, 'http')
  const opts = {
    rate: num('rate', 1),
    seconds: num('seconds', 1),
    connections: Math.floor(num('connections', 1)),
    rfqs: Math.floor(num('rfqs', 1)),
    p99: num('p99-target', 0.01),
    startRate: num('start-rate', 1),
    minRate: num('min-rate', 1),
    maxRate: num('max-rate', 1),
    stepSecs: Math.min(MAX_STEP_SECS, num('step-seconds', 1)),
  }
  if (opts.minRate > opts.maxRate)
    throw new VenueError(`--min-rate (${opts.minRate}) is above --max-rate (${opts.maxRate})`)

  const domain = await relayDomain(relayHttp)
  const key = a.key ?? (await registerTaker(api))
  const taker = await agentWallet(api, key)
  const [tokenIn, tokenOut] = await tokenPair(api)
  console.log(
    `target relay ${relay} (chain ${domain.chainId}, contract ${domain.verifyingContract}), api ${api}, taker ${taker}`,
  )

  const steps: StepResult[] = [],
    holds: boolean[] = []
  const total = createHistogram()
  const startedAt = new Date()
  // RFQs are reused across steps (every step quotes with fresh makers, so one quote per maker per RFQ
  // still holds) and renewed before the relay's RFQ lifetime ends: the agent's own rate limit counts
  // every create and cancel.
  let rfqs: LiveRfq[] = [],
    madeAt = 0
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
    const quotes = presignQuotes(
      domain,
      rfqs.map(r => ({ ...r, taker, tokenIn, tokenOut, amountIn: 10n ** 18n })),
      makers,
      count,
      deadline,
    )
    await checkAgainstViem(domain, quotes[0]!)
    console.log(
      `step: ${rate}/s for ${secs} s, ${quotes.length} quotes over ${rfqs.length} RFQs and ${makers.length} makers`,
    )
    const r = await runStep({
      relayUrl: relay,
      quotes,
      rate,
      connections: opts.connections,
      onSecond: (s, t) => console.log(progress(s.t, rate, t, s)),
    })
    total.add(r.latency)
    steps.push(r)
    return r
  }

  if (!a.ramp) {
    for (let left = opts.seconds; left > 0; left -= MAX_STEP_SECS) await step(opts.rate, Math.min(left, MAX_STEP_SECS))
    await cancelRfqs(api, key, rfqs)
    return finish(
      a.out!,
      buildReport({ relay, api, startedAt, mode: 'fixed', steps, total, diagnosis: diagnose(steps) }),
    )
  }
  const target = `p99 <= ${opts.p99} ms with errors under 1%`
  const found = await rampSearch({ ...opts, maxSteps: 16, target }, async rate => {
    const verdict = judge(await step(rate, opts.stepSecs), opts.p99)
    holds.push(verdict.holds)
    return verdict
  })
  console.log(`ramp: ${found.summary}`)
  const report = buildReport({
    relay,
    api,
    startedAt,
    mode: 'ramp',
    steps,
    total,
    holds,
    diagnosis: diagnose(steps),
    ramp: { p99TargetMs: opts.p99, highestHoldingRate: found.highest, summary: found.summary },
  })
  await cancelRfqs(api, key, rfqs)
  return finish(a.out!, report)
}

/** whether a step holds the target, and if not, why (the first reason that applies) */
function judge(r: StepResult, p99: number): { holds: boolean; why: string } {
  const errs = Object.values(r.errors).reduce((x, y) => x + y, 0)
  const codes = Object.entries(r.errors)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  if (r.accepted === 0) return { holds: false, why: `nothing accepted of ${r.sent} (${codes || 'no answer'})` }
  if (errs > r.sent * 0.01)
    return { holds: false, why: `${((100 * errs) / r.sent).toFixed(1)}% not accepted (${codes})` }
  const p = pct(r.latency, 99)
  if (p > p99) return { holds: false, why: `p99 ${p.toFixed(3)} ms is above ${p99} ms` }
  return { holds: true, why: '' }
}

/** the one line saying why most quotes were refused, if they were, printed and kept in the report */
function diagnose(steps: StepResult[]): string | undefined {
  const sum = (f: (s: StepResult) => number) => steps.reduce((x, s) => x + f(s), 0)
  const errors: Record<string, number> = {}
  for (const s of steps) for (const [k, v] of Object.entries(s.errors)) errors[k] = (errors[k] ?? 0) + v
  const rate = Math.max(...steps.map(s => s.rate))
  const line = explainRefusals({ sent: sum(s => s.sent), accepted: sum(s => s.accepted), errors, rate })
  if (line) console.log(line)
  return line ?? undefined
}

function progress(
  t: number,
  rate: number,
  tot: { sent: number; accepted: number; errors: Record<string, number> },
  s: { p50Ms: number; p99Ms: number },
): string {
  const errs =
    Object.entries(tot.errors)
      .map(([k, v]) => `${k}:${v}`)
      .join(' ') || '0'
  const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-')
  return `[${String(t).padStart(4)}s] rate ${rate}/s  sent ${tot.sent}  accepted ${tot.accepted}  errors ${errs}  p50 ${ms(s.p50Ms)} ms  p99 ${ms(s.p99Ms)} ms`
}

function finish(out: string, report: ReturnType<typeof buildReport>): number {
  const files = writeReport(out, report)
  console.log(
    `sent ${report.sent}, accepted ${report.accepted}, p50 ${report.latencyMs.p50} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`,
  )
  console.log(`wrote ${files.json} and ${files.html}`)
  return 0
}

main().then(
  code => process.exit(code),
  (err: unknown) => {
    // one line that says what went wrong; the stack only with DEBUG=1
    console.error(`loadtest: ${err instanceof Error ? err.message : String(err)}`)
    if (process.env.DEBUG === '1' && err instanceof Error) console.error(err.stack)
    process.exit(err instanceof VenueError ? 2 : 1)
  },
)
