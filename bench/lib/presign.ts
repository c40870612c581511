// Quotes signed ahead of a load run, so the load generator spends its time sending, not signing:
// native secp256k1 over our own EIP-712 digest (workers/sig), about 20x faster than viem. The first
// quote is checked once against viem, the reference, so a wrong domain fails before the run.
import { createRequire } from 'node:module'
import { randomBytes } from 'node:crypto'
import { privateKeyToAccount } from 'viem/accounts'
import { recoverTypedDataAddress } from 'viem'
import { domainSeparator, quoteDigest } from '../../workers/sig/quoteHash.js'
import type { Domain } from '../../workers/sig/types.js'
import { quoteTypes } from '../../sdk/sign.js'
import type { Quote } from '../../sdk/types.js'

type Secp = { ecdsaSign(m: Uint8Array, k: Uint8Array): { signature: Uint8Array; recid: number } }
const secp = createRequire(import.meta.url)('secp256k1/bindings') as Secp

export interface Maker {
  key: Uint8Array
  address: `0x${string}`
}
export interface PresignedQuote {
  rfqId: string
  maker: string
  frame: string
}
export interface QuoteTerms {
  rfqId: string
  taker: string
  tokenIn: string
  tokenOut: string
  amountIn: bigint
  expiry: number
}

/** Fresh maker keys: a load test never uses anyone's real key. */
export function freshMakers(n: number): Maker[] {
  return Array.from({ length: n }, () => {
    const key = randomBytes(32)
    return { key, address: privateKeyToAccount(`0x${key.toString('hex')}`).address.toLowerCase() as `0x${string}` }
  })
}

/**
 * The order of a load's quotes. `maker`: each maker quotes every RFQ in turn, then the next maker, so a group commit's
 * quotes are each for a different RFQ (the store's worst case: one RFQ row locked and bumped per quote). `rfq`: every
 * maker answers an RFQ before the next RFQ's quotes, as makers answer a broadcast, so a commit's quotes share RFQs.
 */
export type QuoteOrder = 'maker' | 'rfq'

/** One QUOTE_SUBMIT frame (JSON) for each (RFQ, maker) pair, in `order` (maker-major by default), `count` at most. */
export function presignQuotes(
  domain: Domain,
  rfqs: QuoteTerms[],
  makers: Maker[],
  count: number,
  deadline: number,
  order: QuoteOrder = 'maker',
): PresignedQuote[] {
  const sep = domainSeparator(domain)
  const out: PresignedQuote[] = []
  const [outer, inner] = order === 'maker' ? [makers.length, rfqs.length] : [rfqs.length, makers.length]
  for (let i = 0; i < outer && out.length < count; i++) {
    for (let j = 0; j < inner && out.length < count; j++) {
      const m = order === 'maker' ? i : j
      const r = rfqs[order === 'maker' ? j : i]!
      const maker = makers[m]!
      const quote: Quote = {
        maker: maker.address,
        taker: r.taker as `0x${string}`,
        tokenIn: r.tokenIn as `0x${string}`,
        tokenOut: r.tokenOut as `0x${string}`,
        amountIn: r.amountIn.toString(),
        amountOut: String(1_000_000 + m),
        expiry: r.expiry,
        nonce: String(out.length),
        deadline,
      }
      const digest = quoteDigest(sep, {
        ...quote,
        amountIn: r.amountIn,
        amountOut: BigInt(quote.amountOut),
        expiry: BigInt(quote.expiry),
        nonce: BigInt(quote.nonce),
        deadline: BigInt(deadline),
      })
      const { signature, recid } = secp.ecdsaSign(digest, maker.key)
      const sig = `0x${Buffer.from(signature).toString('hex')}${(27 + recid).toString(16)}`
      out.push({
        rfqId: r.rfqId,
        maker: maker.address,
        frame: JSON.stringify({ type: 'QUOTE_SUBMIT', data: { rfqId: r.rfqId, quote, signature: sig } }),
      })
    }
  }
  return out
}

/** Throws unless viem recovers the maker from the first pre-signed quote under `domain`. */
export async function checkAgainstViem(domain: Domain & { chainId: number }, sample: PresignedQuote): Promise<void> {
  const { quote: q, signature } = JSON.parse(sample.frame).data
  const signer = await recoverTypedDataAddress({
    domain: { ...domain, chainId: BigInt(domain.chainId), verifyingContract: domain.verifyingContract },
    types: quoteTypes,
    primaryType: 'Quote',
    message: {
      ...q,
      amountIn: BigInt(q.amountIn),
      amountOut: BigInt(q.amountOut),
      expiry: BigInt(q.expiry),
      nonce: BigInt(q.nonce),
      deadline: BigInt(q.deadline),
    },
    signature,
  })
  if (signer.toLowerCase() !== q.maker)
    throw new Error('pre-signed quotes do not recover under viem: wrong EIP-712 domain?')
}
