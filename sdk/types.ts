// The relay's wire shapes, as a maker sees them (see the spec's Events section).

export type Address = `0x${string}`
export type Hex = `0x${string}`

export interface Eip712Domain {
  name: string
  version: string
  chainId: number
  verifyingContract: Address
}

/** A Quote as signed and sent: amounts and nonce as decimal strings, times as unix seconds (the relay's own type). */
import type { QuoteJson } from '../actors/rfqTypes.js'
export type Quote = QuoteJson

export interface RfqBroadcast {
  rfqId: string
  rfq: {
    taker: Address
    tokenIn: Address
    tokenOut: Address
    amountIn: string | null
    amountOut: string | null
    kind: 0 | 1
    expiry: number
    visibility: 'public' | 'private'
  }
}

export interface QuoteBroadcast {
  rfqId: string
  quote: Quote
  signature: Hex
}

export interface RelayErrorData {
  message: string
  code?: string
  rfqId?: string
}

export type SubmitResult =
  | { ok: true; broadcast: QuoteBroadcast }
  | { ok: false; code: string; message: string }
