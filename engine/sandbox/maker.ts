// The sandbox's maker: quotes every RFQ between two sandbox tokens at the venue's reference prices
// less a small spread, which beats the AMM route (pool fee plus impact) as a real maker would.
import type { Hex } from 'viem'
import { MakerClient } from '../../sdk/maker.js'
import type { RfqBroadcast } from '../../sdk/types.js'
import { quoteAmounts } from '../../sdk/pricing.js'
import type { Venue } from './venue.js'

/** tokenOut raw units per tokenIn raw unit, as an exact fraction, from the venue's USD prices. */
export function referencePrice(venue: Venue, tokenIn: string, tokenOut: string): { num: bigint; den: bigint } | null {
  const byAddress = new Map(Object.values(venue.tokens).map(t => [t.address, t]))
  const tin = byAddress.get(tokenIn.toLowerCase() as `0x${string}`),
    tout = byAddress.get(tokenOut.toLowerCase() as `0x${string}`)
  if (!tin || !tout) return null
  // usdIn/usdOut scaled by 1e6 keeps cents exact for the sandbox's round prices
  return {
    num: BigInt(Math.round(tin.usd * 1e6)) * 10n ** BigInt(tout.decimals),
    den: BigInt(Math.round(tout.usd * 1e6)) * 10n ** BigInt(tin.decimals),
  }
}

export async function startSandboxMaker(
  venue: Venue,
  relayWs: string,
  privateKey: Hex,
  spreadBps = 5n,
  onQuote?: (rfqId: string, ok: boolean, detail: string) => void,
): Promise<MakerClient> {
  const bot = new MakerClient({ url: relayWs, privateKey })
  bot.on('rfq', (b: RfqBroadcast) => {
    const price = referencePrice(venue, b.rfq.tokenIn, b.rfq.tokenOut)
    if (!price) return
    const amounts = quoteAmounts(b, { ...price, spreadBps })
    if (!amounts) return
    bot.quote(b.rfqId, bot.quoteFor(b, { ...amounts, ttlSecs: 300 })).then(
      r => onQuote?.(b.rfqId, r.ok, r.ok ? r.broadcast.quote.amountOut : r.message),
      () => {},
    )
  })
  await bot.connect()
  await bot.domain()
  return bot
}
