// The relay's wire shapes, as a maker sees them (see the spec's Events section).

export type Address = `0x${string}`
export type Hex = `0x${string}`

export interface Eip712Domain {
  name: string
  version: string
  chainId: number
  verifyingContract: Address
}

/** A Quote as signed and sent: amounts and nonce as decimal strings, times as unix seconds. The relay's
 *  GET /asyncapi.json is the contract these types follow (a test holds them equal to its schemas). */
export interface Quote {
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

export type SubmitResult = { ok: true; broadcast: QuoteBroadcast } | { ok: false; code: string; message: string }

/** The client's own troubles, never dropped silently (the `fault` event; without a listener, console.warn). */
export type ClientFault =
  /** a frame from the relay that is not JSON/msgpack `{type, data}` */
  | { kind: 'frame'; message: string }
  /** one of your listeners threw; the client goes on */
  | { kind: 'listener'; event: string; error: unknown }
  /** why a connection ended or a connection attempt failed (the cause of the next reconnect) */
  | { kind: 'connection'; message: string; url: string; code?: number; error?: unknown }

/** The events a MakerClient emits (`client.on(name, fn)`). */
export interface MakerEvents {
  rfq: (b: RfqBroadcast) => void
  quote: (b: QuoteBroadcast) => void
  error: (e: RelayErrorData) => void
  open: () => void
  close: (code: number) => void
  /** `cause`: why the connection ended, or why the last attempt failed */
  reconnecting: (attempt: number, delayMs: number, cause: string) => void
  /** open again after `attempts` reconnect attempts; subscriptions are restored */
  reconnected: (attempts: number) => void
  /** the opt-in cap was reached: the client stops trying (an `error` with code RECONNECT_FAILED is emitted too) */
  giveup: (attempts: number) => void
  message: (type: string, data: unknown) => void
  /** the client's own troubles (see ClientFault); without a listener they go to console.warn */
  fault: (f: ClientFault) => void
}
