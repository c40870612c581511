// Signing for makers (EIP-712 Quote) and takers (the relay's EIP-191 cancel text), with viem.
import type { LocalAccount } from 'viem/accounts'
import type { Eip712Domain, Hex, Quote } from './types.js'

/** The spec's field order; any other order is a different typehash and every signature fails. */
export const quoteTypes = {
  Quote: [
    { name: 'maker', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenIn', type: 'address' },
    { name: 'tokenOut', type: 'address' },
    { name: 'amountIn', type: 'uint256' },
    { name: 'amountOut', type: 'uint256' },
    { name: 'expiry', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export function signQuote(account: LocalAccount, domain: Eip712Domain, quote: Quote): Promise<Hex> {
  return account.signTypedData({
    domain: { ...domain, chainId: BigInt(domain.chainId) },
    types: quoteTypes,
    primaryType: 'Quote',
    message: {
      maker: quote.maker,
      taker: quote.taker,
      tokenIn: quote.tokenIn,
      tokenOut: quote.tokenOut,
      amountIn: BigInt(quote.amountIn),
      amountOut: BigInt(quote.amountOut),
      expiry: BigInt(quote.expiry),
      nonce: BigInt(quote.nonce),
      deadline: BigInt(quote.deadline),
    },
  })
}

/** What a taker personal_signs to cancel over the relay when RELAY_CANCEL_AUTH=signature. */
export function relayCancelMessage(rfqId: string): string {
  return `Cancel RFQ ${rfqId}`
}

export function signCancel(account: LocalAccount, rfqId: string): Promise<Hex> {
  return account.signMessage({ message: relayCancelMessage(rfqId) })
}
