// A maker bot: quotes every RFQ it sees at a fixed price less a spread. Run against a relay:
//   RELAY_URL=ws://127.0.0.1:8080 MAKER_PRIVATE_KEY=0x... PRICE_NUM=2500 PRICE_DEN=1000000000000 SPREAD_BPS=5 \
//     node dist/examples/maker-bot.js
// PRICE_NUM/PRICE_DEN is the price in raw units: tokenOut units per tokenIn unit.
import { pathToFileURL } from 'node:url'
import { MakerClient } from '../sdk/maker.js'
import type { Hex, SubmitResult } from '../sdk/types.js'
import { quoteAmounts, type PriceRule } from '../sdk/pricing.js'

export { quoteAmounts, type PriceRule } from '../sdk/pricing.js'

export async function startMakerBot(opts: { url: string; privateKey: Hex; rule: PriceRule; onResult?: (rfqId: string, r: SubmitResult) => void }): Promise<MakerClient> {
  const client = new MakerClient({ url: opts.url, privateKey: opts.privateKey })
  client.on('rfq', b => {
    const amounts = quoteAmounts(b, opts.rule)
    if (!amounts) return
    client.quote(b.rfqId, client.quoteFor(b, amounts)).then(r => opts.onResult?.(b.rfqId, r), () => {})
  })
  await client.connect()
  await client.domain()
  return client
}

async function main(): Promise<void> {
  const key = process.env.MAKER_PRIVATE_KEY as Hex | undefined
  if (!key) { console.error('MAKER_PRIVATE_KEY is required'); process.exit(2) }
  const rule = { num: BigInt(process.env.PRICE_NUM ?? '1'), den: BigInt(process.env.PRICE_DEN ?? '1'), spreadBps: BigInt(process.env.SPREAD_BPS ?? '5') }
  const bot = await startMakerBot({
    url: process.env.RELAY_URL ?? 'ws://127.0.0.1:8080', privateKey: key, rule,
    onResult: (rfqId, r) => console.log(rfqId, r.ok ? `quoted ${r.broadcast.quote.amountOut}` : `refused: ${r.message}`),
  })
  console.log(`maker ${bot.address} quoting`)
  process.on('SIGINT', () => { void bot.close().then(() => process.exit(0)) })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
