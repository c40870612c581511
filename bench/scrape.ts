// What a Prometheus scrape of /metrics once a second costs the relay. Run: node dist/bench/scrape.js
//
// One engine (a child process: bench/lib/relayEngine.ts), 50 clients submitting pre-signed quotes of 50 makers with
// a bounded window in flight, one observer counting QUOTE_BROADCASTs. The throughput windows alternate without and
// with a scraper (GET /metrics on the API port once a second, as Prometheus does), so a drift of the machine's load
// falls on both. Figures: quotes/s without and with the scraper, the engine's CPU per accepted quote in each (every
// thread, from /proc through process.cpuUsage: it holds under noise better than wall-clock rates), and one scrape's
// CPU and size on the same engine after the quotes (the per-code series all exist, histograms filled).
// Env: BENCH_SCRAPE_WINDOWS (pairs of windows, 3), BENCH_SCRAPE_SECS (seconds per window, 4), BENCH_SCRAPE_QUOTES
// (quotes pre-signed, 250000).
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { randomBytes } from 'node:crypto'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { benchDatabase } from './lib/benchDb.js'
import { freshMakers, presignQuotes } from './lib/presign.js'
import { engineMain, wireTerms } from './lib/relayEngine.js'
import type { Domain } from '../workers/sig/types.js'
import { rfqIdAt } from '../workers/values/rfqId.js'
import { openSocket } from './lib/openSocket.js'

const CLIENTS = 50
const MAKERS = 50
const IN_FLIGHT = 128 // quotes in flight; a BUSY refusal pauses the senders as it asks (a real maker's back-off)
const env = (k: string, d: number) => Number(process.env[k] ?? d)
const domain: Domain & { chainId: number } = {
  name: 'SpotRFQ',
  version: '1',
  chainId: 31337,
  verifyingContract: '0x0000000000000000000000000000000000000000',
}

const request = <T>(child: ChildProcess, msg: object, reply: string) =>
  new Promise<T>(resolve => {
    const on = (m: { cmd?: string }) => {
      if (m.cmd === reply) {
        child.off('message', on)
        resolve(m as T)
      }
    }
    child.on('message', on)
    child.send(msg)
  })
const cpu = async (child: ChildProcess) => (await request<{ us: number }>(child, { cmd: 'cpu' }, 'cpu')).us

async function main(): Promise<void> {
  const pairs = env('BENCH_SCRAPE_WINDOWS', 3),
    secs = env('BENCH_SCRAPE_SECS', 4),
    total = env('BENCH_SCRAPE_QUOTES', 250_000)
  const makers = freshMakers(MAKERS)
  const now = Date.now()
  const rfqs = Array.from({ length: Math.ceil(total / MAKERS) }, (_, i) => ({
    id: rfqIdAt(now, randomBytes(16).toString('hex')), // as the engine makes them: its day found from the id
    taker: makers[i % MAKERS]!.address,
    expiry: Math.floor(now / 1000) + 3000,
    createdAt: now,
  }))
  const terms = wireTerms(rfqs)
  const frames = presignQuotes(domain, terms, makers, total, Math.floor(now / 1000) + 3600).map(q => q.frame)

  const db = await benchDatabase('scrape', { max: 1 })
  const child = fork(fileURLToPath(import.meta.url), ['--engine'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, DATABASE_URL: db.url },
  })
  const ready = await new Promise<{ port: number; api: number }>((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', code => reject(new Error(`engine exited ${code}`)))
  })
  const metricsUrl = `http://127.0.0.1:${ready.api}/metrics`
  const observer = await openSocket(`ws://127.0.0.1:${ready.port}`)
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, () => openSocket(`ws://127.0.0.1:${ready.port}/?channels=rfqs`)),
  )
  let done = 0,
    accepted = 0,
    errors = 0,
    pausedUntil = 0,
    onDone = () => {}
  observer.on('message', raw => {
    if (raw.toString().startsWith('{"type":"QUOTE_BROADCAST"')) {
      done++
      accepted++
      onDone()
    }
  })
  for (const c of clients)
    c.on('message', raw => {
      const text = raw.toString()
      if (!text.startsWith('{"type":"ERROR"')) return
      if (text.includes('"BUSY"'))
        pausedUntil = Math.max(pausedUntil, performance.now() + Number(/"retryAfterMs":(\d+)/.exec(text)?.[1] ?? 1))
      else if (errors < 2) console.error(text)
      errors++
      done++
      onDone()
    })
  await request(child, { cmd: 'create', rfqs }, 'created')
  await new Promise(r => setTimeout(r, 500))

  let next = 0
  const window = async (scrape: boolean) => {
    let scrapes = 0
    const once = () => {
      void fetch(metricsUrl)
        .then(r => r.text())
        .then(() => {
          scrapes++
        })
    }
    if (scrape) once()
    const scraper = scrape ? setInterval(once, 1000) : undefined
    const [from, cpu0, t0] = [accepted, await cpu(child), performance.now()]
    const end = t0 + secs * 1000
    await new Promise<void>(resolve => {
      let resume: NodeJS.Timeout | undefined
      const pump = () => {
        const now = performance.now(),
          wait = pausedUntil - now
        if (wait > 0 && now < end) {
          resume ??= setTimeout(() => {
            resume = undefined
            pump()
          }, wait)
          return
        }
        while (now < end && next < frames.length && next - done < IN_FLIGHT)
          clients[next % CLIENTS]!.send(frames[next++]!)
        if ((now >= end || next === frames.length) && done === next) resolve()
      }
      onDone = pump
      pump()
    })
    if (next === frames.length) console.error('the pre-signed quotes ran out: raise BENCH_SCRAPE_QUOTES')
    const seconds = (performance.now() - t0) / 1000,
      usPerQuote = ((await cpu(child)) - cpu0) / (accepted - from)
    clearInterval(scraper)
    return { rate: (accepted - from) / seconds, usPerQuote, scrapes, seconds }
  }
  const without: { rate: number; usPerQuote: number; scrapes: number; seconds: number }[] = [],
    withScraper: typeof without = []
  for (let i = 0; i < pairs; i++) {
    // alternate which comes first, so neither always runs on a warmer engine
    if (i % 2 === 0) {
      without.push(await window(false))
      withScraper.push(await window(true))
    } else {
      withScraper.push(await window(true))
      without.push(await window(false))
    }
  }
  // one scrape's own cost, on the engine as the quotes left it
  const c0 = await cpu(child)
  let bytes = 0
  for (let i = 0; i < 50; i++) bytes = (await (await fetch(metricsUrl)).text()).length
  const usPerScrape = ((await cpu(child)) - c0) / 50
  const sum = (xs: { rate: number; usPerQuote: number }[]) => ({
    rate: xs.reduce((n, x) => n + x.rate, 0) / xs.length,
    usPerQuote: xs.reduce((n, x) => n + x.usPerQuote, 0) / xs.length,
  })
  const a = sum(without),
    b = sum(withScraper)
  const rows = [
    ['quotes/s without a scraper', `${Math.round(a.rate)}/s (${without.map(x => Math.round(x.rate)).join(', ')})`],
    [
      'quotes/s scraped once a second',
      `${Math.round(b.rate)}/s (${withScraper.map(x => Math.round(x.rate)).join(', ')})`,
    ],
    ['throughput with the scraper', `${((b.rate / a.rate) * 100).toFixed(1)}% of without`],
    ['engine CPU per accepted quote, without / with', `${a.usPerQuote.toFixed(1)} us / ${b.usPerQuote.toFixed(1)} us`],
    ['one scrape: engine CPU, size', `${Math.round(usPerScrape)} us, ${bytes} bytes`],
    [
      "a scrape a second, as a share of the engine's CPU at full throughput",
      `${((usPerScrape / (a.rate * a.usPerQuote)) * 100).toFixed(2)}%`,
    ],
    [
      'scrapes during the scraped windows',
      `${withScraper.reduce((n, x) => n + x.scrapes, 0)} in ${withScraper
        .reduce((n, x) => n + x.seconds, 0)
        .toFixed(1)} s`,
    ],
    ['refusals (all windows; BUSY from admission control included)', `${errors}`],
  ]
  for (const [measure, value] of rows) console.log(`${measure!.padEnd(70)} ${value}`)
  observer.close()
  clients.forEach(c => c.close())
  const exited = new Promise(r => child.once('exit', r))
  child.send({ cmd: 'stop' })
  await exited
  await db.drop()
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values: cli } = parseCli(
    'scrape.js',
    benchUsage(
      'scrape',
      'What scraping /metrics once a second costs the relay: the same run with and without a scraper.',
      {
        BENCH_SCRAPE_WINDOWS: 'pairs of windows, without and with the scraper (3)',
        BENCH_SCRAPE_SECS: 'seconds per window (4)',
        BENCH_SCRAPE_QUOTES: 'quotes pre-signed (250000)',
      },
    ),
    { engine: { type: 'boolean' } },
  )
  if (cli.engine) await engineMain()
  else {
    await main()
    process.exit(0)
  }
}
