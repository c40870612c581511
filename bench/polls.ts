// Held long polls cost in proportion to what they may see: the engine's CPU for 300 private quotes (on a private
// RFQ nobody polling may see) with one held poll, then with BENCH_POLLS (10,000) held from 12 client addresses,
// in the same run and the same engine process; and the engine's RSS per held poll. The polls are outsiders'
// relay `/rfqs?since=&wait=30` and `/quotes?rfqId=<public>&since=&wait=30`, half each. CPU is the engine
// process's, every thread's, read from /proc/<pid>/task/*/schedstat (nanoseconds on CPU). The quotes go in
// batches of 50, each waited for, so admission control never refuses one. Lines to grep start `polls:`.
// Run: node dist/bench/polls.js   (BENCH_POLLS, BENCH_QUOTES)
import http from 'node:http'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import WebSocket from 'ws'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { repoRoot } from '../engine/paths.js'
import { startEngineProcess } from './lib/engineProcess.js'
import { registerTaker, tokenPair, relayDomain } from './lib/venueClient.js'
import { freshMakers, presignQuotes, checkAgainstViem } from './lib/presign.js'

parseCli(
  'polls.js',
  benchUsage(
    'polls',
    'Engine CPU for private quotes with 1 and with 10,000 held outsider polls, and RSS per held poll.',
    { BENCH_POLLS: 'held polls in the big case (10000)', BENCH_QUOTES: 'private quotes per case (300)' },
  ),
  {},
)

const POLLS = Number(process.env.BENCH_POLLS ?? 10_000),
  QUOTES = Number(process.env.BENCH_QUOTES ?? 300)
const ADDRESSES = Array.from({ length: 12 }, (_, i) => `127.0.0.${i + 2}`)

const engine = await startEngineProcess({
  RATE_LIMIT_PER_MIN: '1000000000',
  AGENT_RATE_PER_MIN: '1000',
  AGENT_RATE_PER_HOUR: '100000',
  POOL_THREADS: '1',
  RFQ_TTL_SECS: '600',
  SOR_FOLLOW_INTERVAL_MS: '0',
  DATA_DIR: process.env.DATA_DIR ?? join(repoRoot, '.data/bench-polls'),
})
const pid = engine.child.pid!
const api = `http://127.0.0.1:${engine.ports.api}`,
  relay = `http://127.0.0.1:${engine.ports.relay}`,
  relayWs = `ws://127.0.0.1:${engine.ports.relay}`
try {
  const key = await registerTaker(api)
  const [tokenIn, tokenOut] = await tokenPair(api)
  const domain = await relayDomain(relay)
  const create = async (visibility: 'public' | 'private') => {
    const res = await fetch(`${api}/api/v1/agent/rfqs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ tokenIn, tokenOut, amountIn: '1000000000000000000', ttlSeconds: 300, visibility }),
    })
    const body = (await res.json()) as { rfqId: string; shareToken: string | null; expiry: number }
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(body)}`)
    const taker = (
      (await (
        await fetch(`${api}/api/v1/rfqs/${body.rfqId}`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { rfq: { taker: string } }
    ).rfq.taker
    return { ...body, taker }
  }
  const publicRfq = await create('public')

  /** Sends `QUOTES` private quotes to a fresh private RFQ; the engine's CPU seconds they cost. */
  const privateQuotes = async () => {
    const rfq = await create('private')
    const quotes = presignQuotes(
      domain,
      [{ rfqId: rfq.rfqId, taker: rfq.taker, tokenIn, tokenOut, amountIn: 10n ** 18n, expiry: rfq.expiry }],
      freshMakers(QUOTES),
      QUOTES,
      Math.floor(Date.now() / 1000) + 600,
    )
    await checkAgainstViem(domain, quotes[0]!)
    const ws = new WebSocket(`${relayWs}/?shareToken=${encodeURIComponent(rfq.shareToken!)}&channels=quotes`)
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    let answered = 0,
      refused = 0
    let onAnswer = () => {}
    ws.on('message', raw => {
      const f = JSON.parse((raw as Buffer).toString()) as { type: string; data: { rfqId?: string } }
      if (f.data?.rfqId !== rfq.rfqId) return
      if (f.type === 'ERROR') refused++
      if (f.type === 'QUOTE_BROADCAST' || f.type === 'ERROR') {
        answered++
        onAnswer()
      }
    })
    const before = cpuSeconds(pid)
    for (let i = 0; i < quotes.length; i += 50) {
      const batch = quotes.slice(i, i + 50)
      const done = new Promise<void>(resolve => {
        onAnswer = () => {
          if (answered >= i + batch.length) resolve()
        }
      })
      for (const q of batch) ws.send(q.frame)
      await done
    }
    const cpu = cpuSeconds(pid) - before
    ws.close()
    if (refused) throw new Error(`${refused} of ${QUOTES} private quotes were refused`)
    return cpu
  }

  const held: http.ClientRequest[] = []
  /** Holds `n` outsider long polls, spread over the 12 addresses; resolves once the engine holds them all. */
  const hold = async (n: number) => {
    const listCursor = ((await (await fetch(`${relay}/rfqs`)).json()) as { cursor: string }).cursor
    const quoteCursor = ((await (await fetch(`${relay}/quotes?rfqId=${publicRfq.rfqId}`)).json()) as { cursor: string })
      .cursor
    const start = held.length
    for (let i = 0; i < n; i++) {
      const path =
        i % 2 === 0
          ? `/rfqs?since=${listCursor}&wait=30`
          : `/quotes?rfqId=${publicRfq.rfqId}&since=${quoteCursor}&wait=30`
      const req = http.get(
        `${relay}${path}`,
        { agent: false, localAddress: ADDRESSES[(start + i) % ADDRESSES.length] },
        res => res.resume(),
      )
      req.on('error', () => {})
      held.push(req)
      if (i % 500 === 499) await new Promise(r => setImmediate(r)) // let the sockets connect as we go
    }
    const deadline = Date.now() + 20_000
    while ((await metric('relay_held_polls')) < held.length) {
      if (Date.now() > deadline)
        throw new Error(`only ${await metric('relay_held_polls')} of ${held.length} polls held after 20 s`)
      await new Promise(r => setTimeout(r, 100))
    }
  }

  await privateQuotes() // warm-up: JIT, pool thread, connections
  await hold(1)
  const wake0 = await metric('relay_poll_wakeups_total')
  const cpuOne = await privateQuotes()
  await settle()
  const rssBefore = rssKb(pid)
  const t0 = Date.now()
  await hold(POLLS - 1)
  const openedMs = Date.now() - t0
  await settle()
  const rssAfter = rssKb(pid)
  const cpuMany = await privateQuotes()
  const stillHeld = await metric('relay_held_polls')
  const woken = (await metric('relay_poll_wakeups_total')) - wake0
  for (const r of held) r.destroy()

  console.log(
    `bench/polls: ${QUOTES} private quotes on a private RFQ, engine CPU from /proc (all threads), 1 pool thread, loopback`,
  )
  console.log(`polls: cpu_one_held_poll_ms ${(cpuOne * 1000).toFixed(1)}`)
  console.log(
    `polls: cpu_${POLLS}_held_polls_ms ${(cpuMany * 1000).toFixed(1)}  (${stillHeld} held during the quotes, opened in ${openedMs} ms from ${ADDRESSES.length} addresses)`,
  )
  console.log(`polls: cpu_ratio ${(cpuMany / cpuOne).toFixed(2)}  (held polls woken by the private quotes: ${woken})`)
  console.log(
    `polls: rss_per_held_poll_kb ${((rssAfter - rssBefore) / (POLLS - 1)).toFixed(2)}  (engine RSS ${(rssBefore / 1024).toFixed(0)} -> ${(rssAfter / 1024).toFixed(0)} MB)`,
  )
} finally {
  await engine.stop()
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${api}/metrics`)).text()
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN)
}

/** CPU seconds the process's threads have spent on a CPU: schedstat's first field, in nanoseconds. */
function cpuSeconds(p: number): number {
  let ns = 0
  for (const tid of readdirSync(`/proc/${p}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${p}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      /* a thread that just ended */
    }
  }
  return ns / 1e9
}

function rssKb(p: number): number {
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? NaN)
}

/** A moment for the engine to finish what the last step started (GC, late writes) before a reading. */
function settle(): Promise<void> {
  return new Promise(r => setTimeout(r, 500))
}
