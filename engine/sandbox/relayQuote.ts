// A maker's signed quote as the relay's REST polling shows it, and the same quote as SpotRFQ's `fill` takes it
// (amounts and times as uint256). The agent client fills it; the chain checks simulate that fill first.
import type { Address, Hex } from 'viem'

export interface RelayQuote {
  quote: {
    maker: Address
    taker: Address
    tokenIn: Address
    tokenOut: Address
    amountIn: string
    amountOut: string
    expiry: number
    nonce: string
    deadline: number
  }
  signature: Hex
}

export function onChainQuote(q: RelayQuote) {
  return {
    ...q.quote,
    amountIn: BigInt(q.quote.amountIn),
    amountOut: BigInt(q.quote.amountOut),
    expiry: BigInt(q.quote.expiry),
    nonce: BigInt(q.quote.nonce),
    deadline: BigInt(q.quote.deadline),
  }
}
