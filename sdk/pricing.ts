// A fixed-price quoting rule for makers (the example bot's and the sandbox's): the price in raw units
// (tokenOut units per tokenIn unit, num/den) less a spread in basis points.
import type { RfqBroadcast } from './types.js'

export interface PriceRule {
  num: bigint
  den: bigint
  spreadBps: bigint
}

/** The amounts this bot offers: EXACT_IN pays out amountIn * price less the spread; EXACT_OUT asks for amountOut / price plus it. */
export function quoteAmounts(b: RfqBroadcast, rule: PriceRule): { amountIn: bigint; amountOut: bigint } | null {
  if (b.rfq.kind === 0 && b.rfq.amountIn !== null) {
    const amountIn = BigInt(b.rfq.amountIn)
    const amountOut = (amountIn * rule.num * (10_000n - rule.spreadBps)) / (rule.den * 10_000n)
    return amountOut > 0n ? { amountIn, amountOut } : null
  }
  if (b.rfq.kind === 1 && b.rfq.amountOut !== null) {
    const amountOut = BigInt(b.rfq.amountOut)
    const amountIn =
      (amountOut * rule.den * (10_000n + rule.spreadBps) + rule.num * 10_000n - 1n) / (rule.num * 10_000n)
    return amountIn > 0n ? { amountIn, amountOut } : null
  }
  return null
}
