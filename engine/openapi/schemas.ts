// Reusable OpenAPI 3.1 schemas (JSON Schema 2020-12) for the documented shapes.
import { ADDRESS_PATTERN } from '../../workers/values/index.js'
const str = { type: 'string' } as const
const num = { type: 'number' } as const
const int = { type: 'integer' } as const
const bool = { type: 'boolean' } as const
const address = { type: 'string', pattern: ADDRESS_PATTERN } as const
const bigint = {
  type: 'string',
  pattern: '^[0-9]+$',
  description: 'uint256 as a decimal string, raw token units',
} as const
const iso = { type: 'string', format: 'date-time' } as const
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
})
const nullable = (s: object) => ({ oneOf: [s, { type: 'null' }] })

/** An RFQ's terms, first in every REST shape of it (engine/rfqApi/views.ts builds them the same way). */
const rfqTerms = {
  id: str,
  taker: address,
  tokenIn: ref('Token'),
  tokenOut: ref('Token'),
  kind: { enum: [0, 1] },
  amountIn: nullable(bigint),
  amountOut: nullable(bigint),
  expiry: int,
  visibility: { enum: ['public', 'private'] },
}

export const schemas = {
  Error: {
    ...obj({ error: str }),
    additionalProperties: true,
    description: 'Some errors add debug fields (expected, recovered, activeCount, status, code)',
  },
  Token: obj({ address, symbol: nullable(str), decimals: nullable(int) }),
  RegistryToken: obj({
    address,
    symbol: str,
    decimals: int,
    name: nullable(str),
    source: { enum: ['list', 'chain'] },
    label: {
      type: 'string',
      description:
        'what to show: no two tokens share one; the bare symbol exactly when the symbol resolves to this token',
    },
  }),
  RfqStatus: { type: 'string', enum: ['OPEN', 'QUOTED', 'FILLED', 'CANCELLED', 'EXPIRED'] },
  RfqEndedBy: {
    oneOf: [{ type: 'string', enum: ['taker', 'expiry', 'engine'] }, { type: 'null' }],
    description:
      'who ended it: its taker (cancel, fill), its own expiry, or the engine (an actor failure, or an expiry ' +
      'the venue could not serve); null while open',
  },
  RfqListItem: obj({
    ...rfqTerms,
    status: ref('RfqStatus'),
    endedAt: nullable(iso),
    endedBy: ref('RfqEndedBy'),
    quoteCount: int,
    createdAt: iso,
  }),
  RfqPage: obj({ items: { type: 'array', items: ref('RfqListItem') }, nextCursor: nullable(str) }),
  RfqLiveDetail: obj({
    rfq: obj({
      ...rfqTerms,
    }),
    quotes: { type: 'array', items: obj({ maker: address, amountOut: bigint, signature: str }) },
    status: ref('RfqStatus'),
    endedAt: nullable(iso),
    endedBy: ref('RfqEndedBy'),
    quoteCount: int,
  }),
  RfqPersistedDetail: obj({
    rfq: obj({
      ...rfqTerms,
      createdAt: iso,
    }),
    status: ref('RfqStatus'),
    endedAt: nullable(iso),
    endedBy: ref('RfqEndedBy'),
    quoteCount: int,
    fillTxHash: nullable(str),
  }),
  RfqDetail: { oneOf: [ref('RfqLiveDetail'), ref('RfqPersistedDetail')] },
  Quote: obj({
    maker: address,
    taker: address,
    tokenIn: address,
    tokenOut: address,
    amountIn: bigint,
    amountOut: bigint,
    expiry: int,
    nonce: bigint,
    deadline: int,
  }),
  CreateRfq: obj(
    {
      tokenIn: { type: 'string', description: 'address or symbol' },
      tokenOut: { type: 'string', description: 'address or symbol' },
      amountIn: bigint,
      amountOut: bigint,
      kind: { enum: [0, 1], default: 0 },
      ttlSeconds: { type: 'integer', minimum: 10, maximum: 300, default: 30 },
      visibility: { enum: ['public', 'private'], default: 'public' },
      allowedMakers: { type: 'array', items: address },
    },
    ['tokenIn', 'tokenOut'],
  ),
  CreatedRfq: obj({ rfqId: str, shareToken: nullable(str), expiry: int, ttlSeconds: int, activeCount: int }),
  Register: obj({
    name: { type: 'string', maxLength: 64 },
    ownerWallet: address,
    agentWallet: address,
    roles: { type: 'array', minItems: 1, items: { enum: ['taker', 'maker', 'monitor'] } },
    signature: str,
    timestamp: int,
  }),
  Registered: obj({
    agentId: str,
    name: str,
    ownerWallet: address,
    agentWallet: address,
    roles: { type: 'array', items: str },
    apiKey: {
      type: 'string',
      description: 'rfq_live_ + 32 random bytes base64url; shown once, stored only as a sha256 hash',
    },
    createdAt: iso,
  }),
  AgentAuth: obj({
    authenticated: bool,
    agentId: str,
    name: str,
    ownerWallet: address,
    agentWallet: address,
    roles: { type: 'array', items: str },
    createdAt: iso,
    rateLimit: obj({ perMinute: int, perHour: int }),
  }),
  AgentFill: obj({
    txHash: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' },
    maker: address,
    amountIn: bigint,
    amountOut: bigint,
    amountInUsd: num,
  }),
  AgentFillResult: obj({
    success: { const: true },
    rfqId: str,
    txHash: str,
    fill: obj({ id: str, improvementBps: num, takerPoints: num, makerPoints: num }),
  }),
  Fill: obj(
    {
      txHash: str,
      rfqId: str,
      taker: address,
      maker: address,
      tokenIn: str,
      tokenOut: str,
      amountIn: bigint,
      amountOut: bigint,
      amountInUsd: num,
      visibility: { enum: ['public', 'private'] },
    },
    ['txHash', 'taker', 'maker', 'tokenIn', 'tokenOut', 'amountIn', 'amountOut', 'amountInUsd'],
  ),
  FillRecord: obj({ id: str, txHash: str, improvementBps: num, takerPoints: num, makerPoints: num, version: str }),
  Badge: obj({ id: str, name: str, description: str }),
  FillStats: obj({
    fills: int,
    makerFills: int,
    takerFills: int,
    notionalUsd: num,
    privateFills: int,
    benchmarkedFills: int,
    avgImprovementBps: nullable(num),
    firstFillAt: nullable(iso),
    lastFillAt: nullable(iso),
  }),
  RoleTotals: obj({ fills: int, notionalUsd: num, avgImprovementBps: nullable(num), privateFills: int, points: num }),
  LeagueEntry: obj({
    rank: int,
    address,
    score: num,
    rawScore: num,
    filledNotional: num,
    avgImprovementBps: num,
    privateShare: num,
    fills: int,
    reliability: nullable(num),
    cancelRate: nullable(num),
    boostMultiplier: num,
    points: num,
  }),
} as const

export const s = { str, num, int, bool, address, bigint, iso, ref, obj, nullable }
