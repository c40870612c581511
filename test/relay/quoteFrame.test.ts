// The relay reads a canonical QUOTE_SUBMIT by one expression (engine/relay/quoteFrame.ts) instead of JSON.parse and
// the schema. It must never decide a frame differently: every frame it reads must be what the full path makes of it,
// field for field and type for type, and any frame it declines is parsed in full as before. Checked on frames as the
// SDK writes them, on every one-byte change of them, and on the bounds the grammars draw.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { decodeInbound } from '../../engine/relay/codec.js'
import { checkInbound, type Inbound } from '../../engine/relay/contract/validate.js'
import { readQuoteSubmit } from '../../engine/relay/quoteFrame.js'
import { rfqIdAt } from '../../workers/values/rfqId.js'

/** The full path, as the relay took it for every frame before: JSON.parse, then the schema. */
function parsedInFull(text: string): Inbound | 'unparsable' {
  let msg: unknown
  try {
    msg = JSON.parse(text)
  } catch {
    return 'unparsable'
  }
  return checkInbound(msg)
}

const decoded = (text: string) => {
  const bytes = Buffer.from(text, 'utf8')
  return decodeInbound('json', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), false)
}

/** The relay's verdict on `text` is the full path's, whether or not the one-expression read took it. */
function assertSameVerdict(text: string): boolean {
  const full = parsedInFull(text)
  const got = decoded(text)
  if (full === 'unparsable') {
    assert.equal(got.ok, false, text)
    assert.equal(!got.ok && got.error.code, 'PARSE_ERROR', text)
  } else assert.deepStrictEqual(got, full, text)
  const read = readQuoteSubmit(Buffer.from(text, 'utf8').toString('latin1'))
  if (read !== undefined) {
    // what it reads is exactly what the full path accepts as well formed, the same values of the same types
    assert.notEqual(full, 'unparsable', text)
    assert.deepStrictEqual(full, { ok: true, type: 'QUOTE_SUBMIT', data: read, wellFormed: true }, text)
  }
  return read !== undefined
}

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${n}}$`))
const address = hex(40).map(h => `0x${h}`)
const positive = fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }).map(String)
const seconds = fc.integer({ min: 0, max: 4_000_000_000 })
const quoteFrame = fc.record({
  rfqId: fc.oneof(
    fc
      .tuple(fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }), fc.stringMatching(/^[0-9a-f]{32}$/))
      .map(([ms, random]) => rfqIdAt(ms, random)),
    fc.string({ minLength: 1 }),
  ),
  maker: address,
  taker: address,
  tokenIn: address,
  tokenOut: address,
  amountIn: positive,
  amountOut: positive,
  expiry: fc.oneof(seconds, seconds.map(String)),
  nonce: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
  deadline: fc.oneof(seconds, seconds.map(String)),
  signature: hex(130).map(h => `0x${h}`),
  shareToken: fc.option(fc.string(), { nil: undefined }),
})

/** JSON.stringify of the SDK's message (sdk/maker.ts `send`): the shape makers send */
function sdkText(f: typeof quoteFrame extends fc.Arbitrary<infer T> ? T : never): string {
  const { rfqId, signature, shareToken, ...quote } = f
  return JSON.stringify({
    type: 'QUOTE_SUBMIT',
    data: { rfqId, quote, signature, ...(shareToken !== undefined ? { shareToken } : {}) },
  })
}

test('a frame as the SDK writes it gets the verdict JSON.parse and the schema give it, and engine ids are read in one pass', () => {
  let read = 0
  let engineIds = 0
  fc.assert(
    fc.property(quoteFrame, f => {
      const took = assertSameVerdict(sdkText(f))
      const plain = /^[\x20-\x7e]+$/.test(f.rfqId) && !/["\\]/.test(f.rfqId)
      const plainToken =
        f.shareToken === undefined || (/^[\x20-\x7e]*$/.test(f.shareToken) && !/["\\]/.test(f.shareToken))
      // it declines only what it must: an id or token with an escape or a non-ASCII character
      assert.equal(took, plain && plainToken)
      if (took) read++
      if (took && f.rfqId.startsWith('rfq_')) engineIds++
    }),
    { numRuns: 400 },
  )
  assert.ok(read > 100 && engineIds > 50, `read ${read}, engine ids ${engineIds}`)
})

test('every one-byte change of a real frame gets the full path verdict', () => {
  const frames = [
    sdkText({
      rfqId: rfqIdAt(1_795_858_200_123, '0123456789abcdef'.repeat(2)),
      maker: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01',
      taker: '0x00000000000000000000000000000000000000aa',
      tokenIn: '0x1111111111111111111111111111111111111111',
      tokenOut: '0x2222222222222222222222222222222222222222',
      amountIn: '1000000000000000000',
      amountOut: '2999123456789000000000',
      expiry: 1795858260,
      nonce: '0',
      deadline: 1795858230,
      signature: `0x${'a1'.repeat(32)}${'B2'.repeat(32)}1b`,
      shareToken: undefined,
    }),
    sdkText({
      rfqId: 'r',
      maker: '0x1234567890123456789012345678901234567890',
      taker: '0x0000000000000000000000000000000000000000',
      tokenIn: '0x3333333333333333333333333333333333333333',
      tokenOut: '0x4444444444444444444444444444444444444444',
      amountIn: '9',
      amountOut: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      expiry: '9007199254740991',
      nonce: '42',
      deadline: '0',
      signature: `0x${'0'.repeat(128)}1c`,
      shareToken: 'tok_abc',
    }),
  ]
  const replacements = [
    ' ',
    '"',
    '\\',
    '0',
    '1',
    '9',
    'a',
    'F',
    'g',
    'x',
    '-',
    '.',
    'e',
    ',',
    ':',
    '}',
    '{',
    'é',
    '\u0000',
    '\u007f',
  ]
  let read = 0
  let declined = 0
  for (const frame of frames) {
    assert.ok(assertSameVerdict(frame), 'the unchanged frame is read in one pass')
    for (let i = 0; i < frame.length; i++) {
      const changed = [frame.slice(0, i) + frame.slice(i + 1), frame.slice(0, i) + frame[i] + frame.slice(i)]
      for (const r of replacements) changed.push(frame.slice(0, i) + r + frame.slice(i + 1))
      for (const text of changed) {
        if (assertSameVerdict(text)) read++
        else declined++
      }
    }
  }
  // both ways are exercised: a hex digit for a hex digit is still read, a space anywhere is not
  assert.ok(read > 1000 && declined > 10_000, `read ${read}, declined ${declined}`)
})

test('the bounds the grammars draw: 2^53 - 1 seconds, 78 digits, leading zeros, JSON numbers written otherwise', () => {
  const base = {
    rfqId: rfqIdAt(1_795_858_200_000, 'fedcba9876543210'.repeat(2)),
    maker: '0x1234567890123456789012345678901234567890',
    taker: '0x0000000000000000000000000000000000000000',
    tokenIn: '0x3333333333333333333333333333333333333333',
    tokenOut: '0x4444444444444444444444444444444444444444',
    amountIn: '1',
    amountOut: '1',
    expiry: 1795858260 as number | string,
    nonce: '0',
    deadline: 1795858230 as number | string,
    signature: `0x${'0'.repeat(128)}1b`,
    shareToken: undefined as string | undefined,
  }
  const text = (o: Partial<typeof base>) => sdkText({ ...base, ...o })
  const reads = (t: string) => assertSameVerdict(t)
  assert.ok(reads(text({ expiry: Number.MAX_SAFE_INTEGER })))
  assert.ok(!reads(text({ expiry: Number.MAX_SAFE_INTEGER + 1 }))) // the schema's maximum refuses it
  assert.ok(!reads(text({ deadline: 1e21 }))) // JSON writes it 1e+21
  assert.ok(reads(text({ expiry: '9999999999999999' }))) // 16 digits as text: the schema's pattern (the bound is a rule's)
  assert.ok(!reads(text({ expiry: '12345678901234567' })))
  assert.ok(!reads(text({ maker: '0x12345678901234567890123456789012345678901' })))
  // shorter by two: the character 42 places in is then the next key's opening quote
  assert.ok(!reads(text({ maker: '0x12345678901234567890123456789012345678' })))
  assert.ok(!reads(text({ tokenOut: '0x' })))
  assert.ok(!reads(text({ signature: `0x${'0'.repeat(126)}1b` })))
  assert.ok(!reads(text({ amountIn: '1'.repeat(79) })))
  assert.ok(reads(text({ amountIn: '1'.repeat(78) })))
  assert.ok(!reads(text({ amountIn: '0' })))
  assert.ok(reads(text({ nonce: '0' })))
  assert.ok(!reads(text({ nonce: '01' })))
  assert.ok(!reads(text({ rfqId: '' })))
  assert.ok(reads(text({ shareToken: '' })))
  assert.ok(!reads(text({}).replace('"deadline":1795858230', '"deadline":1795858230.0')))
  assert.ok(!reads(text({}).replace('"maker"', '"maker" ')))
  // a duplicate key: JSON.parse keeps the last, the one-pass read declines the frame
  assert.ok(!reads(text({}).replace('"nonce":"0"', '"nonce":"0","nonce":"7"')))
  // long runs are refused in one pass, the way the full path refuses them (no backtracking blow-up)
  assert.ok(!reads(text({ amountIn: '7'.repeat(200_000) })))
  assert.ok(
    !reads(
      text({ rfqId: 'r'.repeat(200_000) }).replace(
        /"maker":"0x[0-9a-fA-F]+"/,
        '"maker":"0x' + 'a'.repeat(100_000) + '"',
      ),
    ),
  )
  // the schema's verdicts on what it declines are the full path's, refusals included
  const refused = decoded(text({ expiry: Number.MAX_SAFE_INTEGER + 1 }))
  assert.ok(refused.ok && refused.type === 'QUOTE_SUBMIT' && !refused.wellFormed)
})
