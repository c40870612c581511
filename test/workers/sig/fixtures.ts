// Shared test material: fixed keys, a domain, quote builders and the viem/ethers typed-data shapes.
import type { Address, Domain, QuoteJson, QuoteMessage } from '../../../workers/sig/types.js'

export const MAKER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const
export const OTHER_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' as const

export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

export const domain: Domain = {
  name: 'SpotRFQ',
  version: '1',
  chainId: 31337,
  verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
}

/** The spec's field order. */
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

/** amountOut before amountIn: same fields, different typehash. */
export const swappedTypes = {
  Quote: [
    { name: 'maker', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenIn', type: 'address' },
    { name: 'tokenOut', type: 'address' },
    { name: 'amountOut', type: 'uint256' },
    { name: 'amountIn', type: 'uint256' },
    { name: 'expiry', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const

export function makeQuote(maker: Address, over: Partial<QuoteMessage> = {}): QuoteMessage {
  return {
    maker: maker.toLowerCase() as Address,
    taker: '0x0000000000000000000000000000000000000000',
    tokenIn: '0x1111111111111111111111111111111111111111',
    tokenOut: '0x2222222222222222222222222222222222222222',
    amountIn: 1_000_000_000_000_000_000n,
    amountOut: 2_500_000_000n,
    expiry: 1_900_000_000n,
    nonce: 7n,
    deadline: 1_900_000_060n,
    ...over,
  }
}

/** The wire form: amounts and nonce as strings, times as numbers. */
export function toJson(q: QuoteMessage): QuoteJson {
  return {
    maker: q.maker,
    taker: q.taker,
    tokenIn: q.tokenIn,
    tokenOut: q.tokenOut,
    amountIn: q.amountIn.toString(),
    amountOut: q.amountOut.toString(),
    expiry: Number(q.expiry),
    nonce: q.nonce.toString(),
    deadline: Number(q.deadline),
  }
}

/** Flip a 65-byte signature to its high-S twin (s -> n - s, v -> the other parity): same signer, malleated bytes. */
export function toHighS(signature: `0x${string}`): `0x${string}` {
  const r = signature.slice(2, 66)
  const s = BigInt('0x' + signature.slice(66, 130))
  const v = parseInt(signature.slice(130, 132), 16)
  const flippedV = v === 27 ? 28 : v === 28 ? 27 : v ^ 1
  return `0x${r}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${flippedV.toString(16).padStart(2, '0')}`
}
