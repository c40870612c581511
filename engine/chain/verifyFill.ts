// Fills verified on chain (beyond the spec, which trusts whatever is posted): with RPC_URL and
// SPOT_RFQ_ADDRESS set, a fill is accepted only if its txHash has a successful receipt whose
// SpotRFQ `QuoteFilled` event names the same maker, taker, tokens and amounts. Points and the
// league cannot then be farmed with invented fills. Answers an outcome: the block time the fill was
// mined at (the fill rule's clock), or why not; the surfaces choose status and text.
import { parseEventLogs, type PublicClient } from 'viem'
import type { FillInput } from '../../actors/rfqTypes.js'
import { spotRfqArtifact } from './spotRfq.js'
import type { Outcome, Refused } from '../../workers/outcome.js'

export type Verified = Outcome<
  { minedAt: number },
  Refused<'FILL_UNVERIFIED' | 'CHAIN_UNAVAILABLE'> & { reason: string }
>

export type FillVerifier = (fill: FillInput) => Promise<Verified>

export const VerifyErrors = {
  notFound: 'Fill not verified on chain: transaction not found',
  reverted: 'Fill not verified on chain: transaction reverted',
  noEvent: (contract: string) =>
    `Fill not verified on chain: no QuoteFilled event from SpotRFQ ${contract} in this transaction`,
  mismatch: (fields: string[]) =>
    `Fill not verified on chain: QuoteFilled does not match the fill (${fields.join(', ')})`,
  rpc: (reason: string) => `Chain RPC failed: ${reason}`,
} as const

interface QuoteFilledArgs {
  maker: string
  taker: string
  tokenIn: string
  tokenOut: string
  amountIn: bigint
  amountOut: bigint
}

export function createFillVerifier(client: PublicClient, spotRfq: `0x${string}`): FillVerifier {
  const { abi } = spotRfqArtifact()
  const contract = spotRfq.toLowerCase()
  const unverified = (reason: string): Verified => ({ ok: false, code: 'FILL_UNVERIFIED', reason })
  const rpcDown = (e: unknown): Verified => ({
    ok: false,
    code: 'CHAIN_UNAVAILABLE',
    reason: VerifyErrors.rpc((e as Error).message.split('\n')[0]!),
  })
  return async fill => {
    let receipt
    try {
      receipt = await client.getTransactionReceipt({ hash: fill.txHash })
    } catch (e) {
      if ((e as { name?: string }).name === 'TransactionReceiptNotFoundError') return unverified(VerifyErrors.notFound)
      return rpcDown(e)
    }
    if (receipt.status !== 'success') return unverified(VerifyErrors.reverted)
    const events = parseEventLogs({
      abi,
      logs: receipt.logs.filter(l => l.address.toLowerCase() === contract),
      eventName: 'QuoteFilled',
    }) as unknown as { args: QuoteFilledArgs }[]
    if (!events.length) return unverified(VerifyErrors.noEvent(contract))
    // One transaction may settle several quotes (a batch filler): any one matching event suffices.
    let best: string[] | null = null
    for (const { args } of events) {
      const wrong = mismatches(args, fill)
      if (!wrong.length) {
        best = null
        break
      }
      if (!best || wrong.length < best.length) best = wrong
    }
    if (best) return unverified(VerifyErrors.mismatch(best))
    try {
      const block = await client.getBlock({ blockNumber: receipt.blockNumber })
      return { ok: true, minedAt: Number(block.timestamp) }
    } catch (e) {
      return rpcDown(e)
    }
  }
}

function mismatches(e: QuoteFilledArgs, f: FillInput): string[] {
  const wrong: string[] = []
  if (e.maker.toLowerCase() !== f.maker.toLowerCase()) wrong.push('maker')
  if (e.taker.toLowerCase() !== f.taker.toLowerCase()) wrong.push('taker')
  if (e.tokenIn.toLowerCase() !== f.tokenIn.toLowerCase()) wrong.push('tokenIn')
  if (e.tokenOut.toLowerCase() !== f.tokenOut.toLowerCase()) wrong.push('tokenOut')
  if (e.amountIn !== f.amountIn) wrong.push('amountIn')
  if (e.amountOut !== f.amountOut) wrong.push('amountOut')
  return wrong
}
