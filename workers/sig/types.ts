// The shapes shared by every file in workers/sig. Amounts are bigint once parsed; the JSON form
// (what arrives on the wire and crosses into a Piscina worker) keeps them as decimal strings.

export type Address = `0x${string}`
export type Hex = `0x${string}`

/** The EIP-712 domain of the quote contract: name `SpotRFQ` unless set at deploy, version `1`. */
export interface Domain {
  name: string
  version: string
  chainId: number | bigint
  verifyingContract: Address
}

/** A parsed, range-checked Quote: addresses lowercase, every uint within 0..2^256-1. */
export interface QuoteMessage {
  maker: Address
  taker: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
  expiry: bigint
  nonce: bigint
  deadline: bigint
}

/** The Quote as the spec puts it on the wire: amounts and nonce as BigInt strings, times as Unix seconds. */
export interface QuoteJson {
  maker: string
  taker: string
  tokenIn: string
  tokenOut: string
  amountIn: string
  amountOut: string
  expiry: number | string
  nonce: string
  deadline: number | string
}

/** A signature split for `ecdsaRecover`: r||s as 64 bytes and the recovery id. */
export interface ParsedSignature {
  compact: Uint8Array
  recid: 0 | 1
}

export type QuoteField = keyof QuoteMessage | 'quote'

export type ParseQuoteResult = { ok: true; quote: QuoteMessage } | { ok: false; field: QuoteField; reason: string }

export type ParseSignatureResult = { ok: true; signature: ParsedSignature } | { ok: false; reason: string }
