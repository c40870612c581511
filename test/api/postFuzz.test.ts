// Property: any body sent to any POST endpoint that takes one gets a 4xx JSON error, never a 5xx.
// Bodies are random JSON values, random objects over each endpoint's own field names, and raw
// strings that are often not JSON at all.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { post, newAgent } from './agentKit.js'

const FIELDS: Record<string, string[]> = {
  '/api/v1/agent/register': ['name', 'ownerWallet', 'agentWallet', 'roles', 'signature', 'timestamp'],
  '/api/v1/agent/rfqs': [
    'tokenIn',
    'tokenOut',
    'amountIn',
    'amountOut',
    'kind',
    'ttlSeconds',
    'visibility',
    'allowedMakers',
  ],
  '/api/v1/agent/rfqs/:id/fill': ['txHash', 'maker', 'amountIn', 'amountOut', 'amountInUsd'],
  '/api/v1/rfqs/:id/cancel': ['signature', 'timestamp'],
  '/api/v1/quotes': ['rfqId', 'quote', 'signature', 'shareToken'],
  '/api/v1/fills': [
    'txHash',
    'rfqId',
    'taker',
    'maker',
    'tokenIn',
    'tokenOut',
    'amountIn',
    'amountOut',
    'amountInUsd',
    'visibility',
  ],
  '/api/v1/rfq/baseline': [
    'rfqId',
    'tokenIn',
    'tokenOut',
    'amountIn',
    'baselineAmountOut',
    'baselineEffectivePrice',
    'baselinePriceImpactBps',
    'baselineBlockNumber',
    'baselineTimestamp',
    'baselineRouteSummary',
  ],
}

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }).map(String),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'.split('')), maxLength: 140 }).map(h => '0x' + h),
  fc.constantFrom(
    'WETH',
    'usdc',
    '0x',
    '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    'private',
    'public',
    '',
    ' ',
    '\n',
    '1e18',
    '-1',
    'taker',
  ),
)

const bodyFor = (fields: string[]) =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map(v => JSON.stringify(v)),
    fc.dictionary(fc.constantFrom(...fields), value).map(v => JSON.stringify(v)),
    fc.string({ maxLength: 200 }),
  )

describe('POST endpoints under random bodies', () => {
  let t: TestEngine
  let headers: Record<string, string>
  let rfqId: string
  before(async () => {
    t = await startTestEngine({
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      AGENT_RATE_PER_MIN: '1000000',
      AGENT_RATE_PER_HOUR: '1000000',
      AGENT_REGISTRATION_PER_HOUR: '1000000',
      AGENT_REGISTRATION_PER_DAY: '1000000',
    })
    const a = await newAgent(t.api, ['taker', 'maker', 'monitor'])
    headers = a.headers
    rfqId = (
      await post(
        t.api,
        '/api/v1/agent/rfqs',
        { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '5', ttlSeconds: 300 },
        headers,
      )
    ).body.rfqId
  })
  after(() => t.stop())

  for (const [pattern, fields] of Object.entries(FIELDS)) {
    test(`${pattern}: 4xx JSON {error}, never 5xx`, async () => {
      const path = pattern.replace(':id', () => rfqId)
      // the cancel endpoint is fuzzed without a key: with the taker's key any body would cancel
      const h: Record<string, string> = pattern.includes('cancel') ? {} : headers
      await fc.assert(
        fc.asyncProperty(bodyFor(fields), async raw => {
          const res = await fetch(t.api + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...h },
            body: raw,
          })
          const text = await res.text()
          assert.ok(res.status >= 400 && res.status < 500, `${res.status} ${text} for ${raw}`)
          assert.match(res.headers.get('content-type') ?? '', /application\/json/)
          assert.equal(typeof JSON.parse(text).error, 'string')
        }),
        { numRuns: 120 },
      )
    })
  }

  test('the fuzzed RFQ is still open: no random body changed it', async () => {
    const r = await fetch(`${t.api}/api/v1/rfqs/${rfqId}`)
    assert.equal(((await r.json()) as { status: string }).status, 'OPEN')
  })
})
