// A maker bot: quotes every RFQ it sees at a fixed price less a spread. `node dist/examples/maker-bot.js --help`.
// It outlives a relay restart (the SDK reconnects and restores its subscriptions) and logs both edges, with
// the cause, and every fault the SDK reports (unreadable frames, a listener that threw, a dropped connection).
import { pathToFileURL } from 'node:url'
import { privateKeyToAccount } from 'viem/accounts'
import { parseCli } from '../engine/ops/cli.js'
import { MakerClient, describeFault } from '../sdk/maker.js'
import type { ClientFault, Hex, SubmitResult } from '../sdk/types.js'
import { quoteAmounts, type PriceRule } from '../sdk/pricing.js'

export { quoteAmounts, type PriceRule } from '../sdk/pricing.js'

export async function startMakerBot(opts: {
  url: string
  privateKey: Hex
  rule: PriceRule
  onResult?: (rfqId: string, r: SubmitResult) => void
  reconnect?: ConstructorParameters<typeof MakerClient>[0]['reconnect']
  onFault?: (f: ClientFault) => void
}): Promise<MakerClient> {
  const fault = opts.onFault ?? ((f: ClientFault) => console.error(`maker-bot: ${describeFault(f)}`))
  // a comma-separated list: the nodes of one venue, tried in turn when the connection drops
  const [url, ...fallbackUrls] = opts.url
    .split(',')
    .map(u => u.trim())
    .filter(Boolean)
  const client = new MakerClient({ url: url!, fallbackUrls, privateKey: opts.privateKey, reconnect: opts.reconnect })
  if (opts.onFault) client.on('fault', opts.onFault)
  client.on('rfq', b => {
    const amounts = quoteAmounts(b, opts.rule)
    if (!amounts) return
    // quote() resolves with the relay's answer; it rejects only when signing fails, which is a fault too
    client.quote(b.rfqId, client.quoteFor(b, amounts)).then(
      r => opts.onResult?.(b.rfqId, r),
      (error: unknown) => fault({ kind: 'listener', event: 'rfq', error }),
    )
  })
  await client.connect()
  await client.domain()
  return client
}

const HELP = `Usage: node dist/examples/maker-bot.js [options]

Quotes every RFQ the relay announces at a fixed price less a spread, and keeps quoting across relay
restarts. Options (each also read from the environment variable in brackets):
  --relay URL[,URL...]    relay WebSocket; several: a cluster's nodes,  [RELAY_URL]   (default ws://127.0.0.1:8080)
                          tried in turn when the connection drops
  --key 0x...             the maker's private key (required)           [MAKER_PRIVATE_KEY]
  --price-num N           price numerator, raw tokenOut per tokenIn    [PRICE_NUM]   (default 1)
  --price-den N           price denominator                            [PRICE_DEN]   (default 1)
  --spread-bps N          spread taken off the price, in bps           [SPREAD_BPS]  (default 5)
  --reconnect-initial-ms  first reconnect delay, doubling to 30 s      (default 1000)
  --max-reconnects N      give up after N attempts and exit 1          (default: never)
  -h, --help              this text`

async function main(): Promise<void> {
  const { values: a } = parseCli('maker-bot.js', HELP, {
    relay: { type: 'string' },
    key: { type: 'string' },
    'price-num': { type: 'string' },
    'price-den': { type: 'string' },
    'spread-bps': { type: 'string' },
    'reconnect-initial-ms': { type: 'string' },
    'max-reconnects': { type: 'string' },
  })
  const key = (a.key ?? process.env.MAKER_PRIVATE_KEY) as Hex | undefined
  if (!key) {
    console.error('maker-bot: a maker key is required: --key 0x... or MAKER_PRIVATE_KEY (see --help)')
    process.exit(2)
  }
  // a bad key is the caller's, said before any connection (it used to surface as a relay failure); never echoed
  const from = a.key ? '--key' : 'MAKER_PRIVATE_KEY'
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
    console.error(`maker-bot: ${from} is not a private key: 0x and 64 hex digits (see --help)`)
    process.exit(2)
  }
  try {
    privateKeyToAccount(key)
  } catch {
    console.error(`maker-bot: ${from} is not a valid secp256k1 private key (zero, or not below the curve order)`)
    process.exit(2)
  }
  const count = (v: string | undefined, name: string) => {
    if (v === undefined) return undefined
    if (!/^\d+$/.test(v)) {
      console.error(`maker-bot: ${name} must be a whole number, not ${JSON.stringify(v)}`)
      process.exit(2)
    }
    return Number(v)
  }
  const big = (v: string | undefined, d: string) => {
    try {
      return BigInt(v ?? d)
    } catch {
      console.error(`maker-bot: not an integer: ${v}`)
      process.exit(2)
    }
  }
  const rule = {
    num: big(a['price-num'] ?? process.env.PRICE_NUM, '1'),
    den: big(a['price-den'] ?? process.env.PRICE_DEN, '1'),
    spreadBps: big(a['spread-bps'] ?? process.env.SPREAD_BPS, '5'),
  }
  const maxAttempts = count(a['max-reconnects'], '--max-reconnects')
  const reconnect = {
    initialDelayMs: count(a['reconnect-initial-ms'], '--reconnect-initial-ms') ?? 1000,
    ...(maxAttempts !== undefined ? { maxAttempts } : {}),
  }
  const url = a.relay ?? process.env.RELAY_URL ?? 'ws://127.0.0.1:8080'
  const bad = url
    .split(',')
    .map(u => u.trim())
    .find(u => !/^wss?:\/\/[^\s/]+/.test(u))
  if (bad !== undefined) {
    console.error(`maker-bot: --relay must be ws:// or wss:// URLs, not ${JSON.stringify(bad)}`)
    process.exit(2)
  }
  const bot = await startMakerBot({
    url,
    privateKey: key,
    rule,
    reconnect,
    onResult: (rfqId, r) =>
      console.log(rfqId, r.ok ? `quoted ${r.broadcast.quote.amountOut}` : `refused: ${r.message}`),
    onFault: f => console.error(`maker-bot: ${describeFault(f)}`),
  }).catch((e: unknown) => {
    console.error(`maker-bot: cannot reach the relay at ${url}: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  })
  bot.on('close', code => console.log(`relay connection closed (${code})`))
  bot.on('reconnecting', (attempt, delay, cause) =>
    console.log(`reconnecting: attempt ${attempt} in ${delay} ms (${cause})`),
  )
  bot.on('reconnected', attempts => console.log(`reconnected after ${attempts} attempt(s); subscriptions restored`))
  bot.on('giveup', attempts => {
    console.error(`maker-bot: gave up after ${attempts} reconnect attempts to ${url}`)
    process.exit(1)
  })
  console.log(`maker ${bot.address} quoting`)
  process.on('SIGINT', () => {
    void bot.close().then(() => process.exit(0))
  })
  process.on('SIGTERM', () => {
    void bot.close().then(() => process.exit(0))
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
