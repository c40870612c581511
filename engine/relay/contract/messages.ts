// The relay's WebSocket messages as JSON Schemas (TypeBox builds plain JSON Schema objects): the one source
// of truth. The codec validates every inbound frame with these (compiled by ajv, validate.ts), the AsyncAPI
// document (asyncapi.ts) publishes them, and the conformance tests check every frame the relay sends
// against the published copy. Inbound shapes accept extra properties (ignored, as before); outbound shapes
// are closed, so a field the relay starts sending without documenting it fails the conformance tests.
import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { LOWER_ADDRESS_PATTERN } from '../../../workers/values/address.js'
import {
  ADDRESS_PATTERN,
  CANONICAL_UINT_PATTERN,
  POSITIVE_UINT_PATTERN,
  SIGNATURE_PATTERN,
  UNIX_SECONDS_STRING_PATTERN,
} from '../../../workers/values/index.js'

const LOWER_SIGNATURE = '^0x[0-9a-f]{130}$'

export const Address = Type.String({ pattern: ADDRESS_PATTERN, description: '0x + 40 hex digits (any case)' })
export const LowerAddress = Type.String({ pattern: LOWER_ADDRESS_PATTERN, description: '0x + 40 lowercase hex digits' })
export const Uint256 = Type.String({
  pattern: CANONICAL_UINT_PATTERN,
  description: 'uint256 as a canonical decimal string (no sign, no leading zero); at most 2^256 - 1',
})
export const PositiveUint256 = Type.String({
  pattern: POSITIVE_UINT_PATTERN,
  description: 'a uint256 greater than 0, canonical decimal; at most 2^256 - 1',
})
export const UnixSeconds = Type.Union(
  [
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    Type.String({
      pattern: UNIX_SECONDS_STRING_PATTERN,
      description: 'the same as a canonical decimal string; at most 2^53 - 1',
    }),
  ],
  { description: 'unix seconds' },
)
export const Signature = Type.String({
  pattern: SIGNATURE_PATTERN,
  description: '65 bytes r || s || v as 0x + 130 hex digits; v 27/28 or 0/1; low s',
})

/** The EIP-712 Quote as a maker sends it. */
export const QuoteIn = Type.Object(
  {
    maker: Address,
    taker: Address,
    tokenIn: Address,
    tokenOut: Address,
    amountIn: PositiveUint256,
    amountOut: PositiveUint256,
    expiry: UnixSeconds,
    nonce: Uint256,
    deadline: UnixSeconds,
  },
  { description: 'The EIP-712 Quote: signed over these nine fields in this order (see x-eip712)' },
)

/** The Quote as the relay broadcasts it: normalised (lowercase addresses, times as numbers). */
export const QuoteOut = Type.Object(
  {
    maker: LowerAddress,
    taker: LowerAddress,
    tokenIn: LowerAddress,
    tokenOut: LowerAddress,
    amountIn: PositiveUint256,
    amountOut: PositiveUint256,
    expiry: Type.Integer({ minimum: 0 }),
    nonce: Uint256,
    deadline: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
)

/** One of fixed values, as a plain `enum` (clearer to read, and a clearer refusal, than anyOf of consts). */
const oneOf = <T extends string | number>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ enum: [...values], ...(description ? { description } : {}) })
const channel = oneOf(['rfqs', 'quotes'] as const)

const nothing = Type.Object({}, { additionalProperties: false, description: 'always {}' })
const ignored = Type.Unknown({ description: 'ignored by the relay; send {}' })

// ---- client to relay ----
export const QuoteSubmitData = Type.Object({
  rfqId: Type.String({ minLength: 1 }),
  quote: QuoteIn,
  signature: Signature,
  shareToken: Type.Optional(
    Type.String({ description: "the private RFQ's share token (or present it at connect or by SUBSCRIBE)" }),
  ),
})
export const CancelRequestData = Type.Object({
  rfqId: Type.String({ minLength: 1 }),
  signature: Type.Optional(
    Type.String({ description: 'RELAY_CANCEL_AUTH=signature: the taker\'s EIP-191 signature of "Cancel RFQ <rfqId>"' }),
  ),
  shareToken: Type.Optional(
    Type.String({ description: "a private RFQ's share token: makes this socket a viewer of it" }),
  ),
})
export const SubscribeData = Type.Object({
  shareToken: Type.Optional(Type.String({ description: "join this private RFQ's broadcasts; empty is ignored" })),
  channels: Type.Optional(Type.Array(channel, { description: 'the public broadcasts to receive from now on' })),
})

// ---- relay to client ----
const nullableUint = Type.Union([Uint256, Type.Null()])
export const RfqBroadcastData = Type.Object(
  {
    rfqId: Type.String({ minLength: 1 }),
    rfq: Type.Object(
      {
        taker: LowerAddress,
        tokenIn: LowerAddress,
        tokenOut: LowerAddress,
        amountIn: nullableUint,
        amountOut: nullableUint,
        kind: oneOf([0, 1] as const, '0 EXACT_IN (amountIn set), 1 EXACT_OUT (amountOut set)'),
        expiry: Type.Integer({ minimum: 0, description: 'unix seconds' }),
        visibility: oneOf(['public', 'private'] as const),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)
export const QuoteBroadcastData = Type.Object(
  {
    rfqId: Type.String({ minLength: 1 }),
    quote: QuoteOut,
    signature: Type.String({ pattern: LOWER_SIGNATURE }),
  },
  { additionalProperties: false },
)
export const SubscribedData = Type.Object(
  {
    channels: Type.Array(channel),
    rfqIds: Type.Array(Type.String(), {
      description: 'the live private RFQ the token opened, if any (announced to this socket)',
    }),
  },
  { additionalProperties: false },
)
export const errorData = (codes: readonly string[]) =>
  Type.Object(
    {
      message: Type.String({ description: "the spec's text" }),
      code: oneOf(codes, 'stable and machine-readable; see x-codes'),
      rfqId: Type.Optional(Type.String({ description: 'the submission or cancel that failed' })),
      retryAfterMs: Type.Optional(
        Type.Integer({ minimum: 1, description: 'BUSY only: when to send the same signed quote again' }),
      ),
    },
    { additionalProperties: false },
  )

export type Direction = 'in' | 'out'

/** One message of the protocol: its frame `{type, data}` and what its data must be. */
export interface MessageSpec {
  name: string
  type: string
  direction: Direction
  data: TSchema
  dataRequired: boolean
  summary: string
}

const m = (
  name: string,
  type: string,
  direction: Direction,
  data: TSchema,
  summary: string,
  dataRequired = true,
): MessageSpec => ({ name, type, direction, data, summary, dataRequired })

/** Every message, both directions. PING and PONG go both ways, with a looser shape inbound. */
export function messageSpecs(errorCodes: readonly string[]): MessageSpec[] {
  return [
    m(
      'QuoteSubmit',
      'QUOTE_SUBMIT',
      'in',
      QuoteSubmitData,
      'A maker submits a signed quote; accepted quotes get no direct reply (the QUOTE_BROADCAST reaches the submitter too)',
    ),
    m('CancelRequest', 'CANCEL_REQUEST', 'in', CancelRequestData, 'The taker cancels an RFQ; success sends no reply'),
    m(
      'ClientPing',
      'PING',
      'in',
      ignored,
      'Keepalive; answered with PONG. Counted by the rate limit like every message',
      false,
    ),
    m('ClientPong', 'PONG', 'in', ignored, "The answer to the relay's PING", false),
    m(
      'Subscribe',
      'SUBSCRIBE',
      'in',
      SubscribeData,
      'Join a private RFQ by its share token, or choose the public channels; answered by SUBSCRIBED',
      false,
    ),
    m(
      'RfqBroadcast',
      'RFQ_BROADCAST',
      'out',
      RfqBroadcastData,
      'A new RFQ (public ones to the rfqs channel, private ones to their share-token holders)',
    ),
    m('QuoteBroadcast', 'QUOTE_BROADCAST', 'out', QuoteBroadcastData, 'A quote passed every rule and was stored'),
    m(
      'RelayPing',
      'PING',
      'out',
      nothing,
      'Sent to a client idle for a whole ping interval; one that stays silent another interval is closed (4000)',
    ),
    m('RelayPong', 'PONG', 'out', nothing, 'The answer to PING'),
    m('Subscribed', 'SUBSCRIBED', 'out', SubscribedData, 'The answer to SUBSCRIBE'),
    m('Error', 'ERROR', 'out', errorData(errorCodes), 'A refusal, to the sender only'),
  ]
}

/** The frame of one message: `{type, data}`; inbound frames may carry more (ignored). */
export function frameSchema(spec: MessageSpec): TSchema {
  const props = { type: Type.Literal(spec.type), data: spec.dataRequired ? spec.data : Type.Optional(spec.data) }
  return Type.Object(props, spec.direction === 'out' ? { additionalProperties: false } : {})
}

export type QuoteSubmit = Static<typeof QuoteSubmitData>
export type RfqBroadcast = Static<typeof RfqBroadcastData>
export type QuoteBroadcast = Static<typeof QuoteBroadcastData>
