// Hostile values for the hostile-input suite: wrong types, huge and negative numbers, bad hex, deep
// nesting, control characters, unicode edge cases, and query/path/body shapes built from them.
import fc from 'fast-check'

/** Query parameter names the routes read, plus nonsense. */
export const PARAM_NAMES = [
  'limit',
  'offset',
  'cursor',
  'status',
  'source',
  'role',
  'period',
  'minUsd',
  'search',
  'address',
  'rfqId',
  'window',
  'tokenIn',
  'tokenOut',
  'amountIn',
  'maxHops',
  'maxRoutes',
  'maxSplit',
  'slugs',
  'explain',
  'underlying',
  'expiry',
  'strike',
  'isCall',
  'venue',
  'liquidityGuess',
  'sellToken',
  'buyToken',
  'sellAmount',
  'shareToken',
  'since',
  'wait',
  'x',
  '',
]

/** RFQ ids of the form that carries a creation time (workers/values/rfqId.ts), at any time: past year 9999 too */
const timedRfqIds = fc.oneof(
  fc.constantFrom(`rfq_ffffffffffff${'0'.repeat(32)}`, `rfq_e677d21fdc00${'0'.repeat(32)}`),
  fc.stringMatching(/^rfq_[0-9a-f]{44}$/),
)

export const nasty = fc.oneof(
  timedRfqIds,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 30 }), // any code point, lone surrogates included
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '%00',
    '\u0007',
    '\u001f',
    '\u007f',
    '\ud800',
    '\uffff',
    '\u202e',
    '..',
    '../..',
    '%',
    '%zz',
    '\\',
  ),
  fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }).map(String),
  fc.double().map(String),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e308', '1.7e308', '-0', '0x', '0x0', '1e-400'),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxg'.split('')), maxLength: 140 }).map(h => '0x' + h),
  fc.constantFrom(
    '0000-01-01T00:00Z',
    '9999-99-99',
    '20301399',
    'BTC',
    'ETH',
    'WETH',
    'all',
    'open',
    'maker',
    '7d',
    '24h',
  ),
  fc.constant('A'.repeat(5000)),
)

/** Every byte percent-encoded (lone surrogates arrive as U+FFFD); `raw` adds bytes that are not UTF-8 at all. */
export function pct(s: string, raw = false): string {
  const hex = Buffer.from(s, 'utf8').toString('hex').replace(/../g, '%$&')
  return raw ? hex + '%FF%FE%C0' : hex
}

export const query = fc
  .array(fc.tuple(fc.constantFrom(...PARAM_NAMES), nasty, fc.boolean()), { maxLength: 5 })
  .map(pairs => pairs.map(([k, v, raw]) => `${pct(k)}=${pct(v, raw)}`).join('&'))

/** JSON values with wrong types everywhere, and a body nested thousands deep. */
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nasty,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.dictionary(
    fc.constantFrom(
      'txHash',
      'taker',
      'maker',
      'tokenIn',
      'tokenOut',
      'amountIn',
      'amountOut',
      'amountInUsd',
      'rfqId',
      'quote',
      'signature',
      'timestamp',
      'name',
      'ownerWallet',
      'agentWallet',
      'roles',
      'kind',
      'ttlSeconds',
      'visibility',
      'allowedMakers',
      'baselineAmountOut',
      'baselineTimestamp',
      'baselineEffectivePrice',
      'baselinePriceImpactBps',
      'shareToken',
    ),
    fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 }), fc.double()),
  ),
)

export const body = fc.oneof(
  jsonish.map(v => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.integer({ min: 100, max: 20_000 }).map(n => Buffer.from('['.repeat(n) + ']'.repeat(n))), // deep nesting
  fc
    .uint8Array({ maxLength: 64 })
    .map(b => Buffer.concat([Buffer.from('{"name":"'), Buffer.from(b), Buffer.from('"}')])), // invalid UTF-8
  fc.constant(Buffer.alloc(70 * 1024, 'a')), // over the body cap
  fc.string({ maxLength: 100 }).map(s => Buffer.from(s)), // not JSON
)

/** Values for a route's path parameter. */
export const pathParam = fc.oneof(
  nasty,
  fc.constantFrom('rfq_00000000000000000000000000000000', '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'),
  timedRfqIds,
)
