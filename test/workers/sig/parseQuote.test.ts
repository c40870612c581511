import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { parseQuote, parseSignature } from '../../../workers/sig/parseQuote.js'
import { makeQuote, SECP256K1_N, toJson } from './fixtures.js'

const good = toJson(makeQuote('0x70997970C51812dc3A010C7d01b50e0d17dc79C8'))
const MAX = ((1n << 256n) - 1n).toString()

test('a wire quote parses to bigints and lowercase addresses', () => {
  const r = parseQuote({ ...good, maker: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', expiry: '1900000000' })
  assert.deepEqual(r, { ok: true, quote: makeQuote('0x70997970c51812dc3a010c7d01b50e0d17dc79c8') })
})

test('uint fields accept 0 and 2^256-1', () => {
  for (const field of ['amountIn', 'amountOut', 'nonce', 'expiry', 'deadline'] as const) {
    assert.equal(parseQuote({ ...good, [field]: '0' }).ok, true, field)
    assert.equal(parseQuote({ ...good, [field]: MAX }).ok, true, field)
  }
})

test('bad values are rejected with the field named', () => {
  const cases: [string, unknown][] = [
    ['maker', '0x1234'],
    ['maker', 42],
    ['taker', '70997970c51812dc3a010c7d01b50e0d17dc79c8'],
    ['tokenIn', '0xg0997970c51812dc3a010c7d01b50e0d17dc79c8'],
    ['tokenOut', undefined],
    ['amountIn', '-1'],
    ['amountIn', '1.5'],
    ['amountIn', '0x10'],
    ['amountIn', '1e18'],
    ['amountIn', ''],
    ['amountIn', ' 1'],
    ['amountIn', '01'],
    ['amountIn', 100],
    ['amountIn', (1n << 256n).toString()],
    ['amountOut', '9'.repeat(79)],
    ['nonce', null],
    ['expiry', -1],
    ['expiry', 1.5],
    ['expiry', 2 ** 60],
    ['expiry', '0x5'],
    ['expiry', NaN],
    ['deadline', Infinity],
    ['deadline', (1n << 256n).toString()],
    ['deadline', true],
  ]
  for (const [field, value] of cases) {
    const r = parseQuote({ ...good, [field]: value })
    assert.equal(r.ok, false, `${field}=${String(value)}`)
    if (!r.ok) assert.equal(r.field, field)
  }
})

test('non-objects are rejected as the quote itself', () => {
  for (const x of [null, undefined, 1, 'quote', [], [good]]) {
    const r = parseQuote(x)
    assert.equal(r.ok, false)
    if (!r.ok) assert.equal(r.field, 'quote')
  }
})

test('a hostile getter is a rejection, not a throw', () => {
  const evil = {
    ...good,
    get maker(): string {
      throw new Error('boom')
    },
  }
  assert.deepEqual(parseQuote(evil), { ok: false, field: 'quote', reason: 'could not be read' })
})

test('arbitrary JSON never throws, for quotes and signatures', () => {
  const fieldish = fc.oneof(fc.jsonValue(), fc.string(), fc.bigInt().map(String), fc.integer(), fc.double())
  const quoteish = fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        maker: fieldish,
        taker: fieldish,
        tokenIn: fieldish,
        tokenOut: fieldish,
        amountIn: fieldish,
        amountOut: fieldish,
        expiry: fieldish,
        nonce: fieldish,
        deadline: fieldish,
      },
      { requiredKeys: [] },
    ),
  )
  fc.assert(
    fc.property(quoteish, q => {
      parseQuote(q)
      parseQuote(JSON.parse(JSON.stringify(q ?? null)))
    }),
    { numRuns: 2000 },
  )
  fc.assert(
    fc.property(
      fc.oneof(fc.jsonValue(), fc.string(), fc.string({ unit: fc.constantFrom(...'0123456789abcdefx'.split('')) })),
      s => {
        parseSignature(s)
        if (typeof s === 'string') parseSignature('0x' + s)
      },
    ),
    { numRuns: 2000 },
  )
})

const r = '11'.repeat(32)
const s = '22'.repeat(32)
const hex = (n: bigint) => n.toString(16).padStart(64, '0')

test('signatures: v of 27/28 and 0/1 give recid 0/1', () => {
  for (const [v, recid] of [
    ['1b', 0],
    ['1c', 1],
    ['00', 0],
    ['01', 1],
  ] as const) {
    const p = parseSignature(`0x${r}${s}${v}`)
    assert.equal(p.ok && p.signature.recid, recid)
    assert.equal(p.ok && Buffer.from(p.signature.compact).toString('hex'), r + s)
  }
})

test('signatures: wrong length, bad hex, bad v, zero or out-of-range r/s and high-S are rejected', () => {
  const bad = [
    `0x${r}${s}`,
    `0x${r}${s}1b00`,
    `${r}${s}1b`,
    `0x${r}${s}1z`,
    `0x${r}${s}1d`,
    `0x${r}${s}02`,
    `0x${hex(0n)}${s}1b`,
    `0x${r}${hex(0n)}1b`,
    `0x${hex(SECP256K1_N)}${s}1b`,
    `0x${r}${hex(SECP256K1_N)}1b`,
    `0x${r}${hex(SECP256K1_N / 2n + 1n)}1b`,
    42,
    null,
  ]
  for (const b of bad) assert.equal(parseSignature(b).ok, false, String(b))
  assert.equal(parseSignature(`0x${r}${hex(SECP256K1_N / 2n)}1b`).ok, true, 's = n/2 is the highest low-S')
  assert.equal(parseSignature(`0x${r.toUpperCase()}${s}1B`).ok, true, 'hex digits in any case')
})
