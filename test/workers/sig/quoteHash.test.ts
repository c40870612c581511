import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { hashDomain, hashTypedData, keccak256, toHex as viemToHex } from 'viem'
import { domainSeparator, quoteDigest, QUOTE_TYPEHASH } from '../../../workers/sig/quoteHash.js'
import { toHex } from '../../../workers/sig/keccak.js'
import type { Address } from '../../../workers/sig/types.js'
import { domain, makeQuote, quoteTypes, swappedTypes } from './fixtures.js'

const MAX = (1n << 256n) - 1n
const sep = domainSeparator(domain)

test('the Quote typehash is keccak of the spec type string', () => {
  assert.equal(
    toHex(QUOTE_TYPEHASH),
    keccak256(
      viemToHex(
        'Quote(address maker,address taker,address tokenIn,address tokenOut,uint256 amountIn,uint256 amountOut,uint256 expiry,uint256 nonce,uint256 deadline)',
      ),
    ),
  )
})

test('domain separator equals viem hashDomain', () => {
  const viemSep = hashDomain({
    domain: { ...domain, chainId: BigInt(domain.chainId) },
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
    },
  })
  assert.equal(toHex(sep), viemSep)
})

test('quote digest equals viem hashTypedData', () => {
  const quote = makeQuote('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
  assert.equal(
    toHex(quoteDigest(sep, quote)),
    hashTypedData({ domain, types: quoteTypes, primaryType: 'Quote', message: quote }),
  )
})

test('digest equals viem hashTypedData for arbitrary fields, including 0 and 2^256-1', () => {
  const addr = fc
    .uint8Array({ minLength: 20, maxLength: 20 })
    .map((b): Address => `0x${Buffer.from(b).toString('hex')}`)
  // both ways a word is written: 64 bits and under (and either side of 2^32 and 2^64), and wider
  const uint = fc.oneof(
    fc.constantFrom(0n, 1n, (1n << 32n) - 1n, 1n << 32n, (1n << 64n) - 1n, 1n << 64n, MAX),
    fc.bigInt({ min: 0n, max: (1n << 64n) + 1n }),
    fc.bigInt({ min: 0n, max: MAX }),
  )
  fc.assert(
    fc.property(
      addr,
      addr,
      addr,
      addr,
      uint,
      uint,
      uint,
      uint,
      uint,
      (maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline) => {
        const quote = { maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline }
        assert.equal(
          toHex(quoteDigest(sep, quote)),
          hashTypedData({ domain, types: quoteTypes, primaryType: 'Quote', message: quote }),
        )
      },
    ),
    { numRuns: 200 },
  )
})

test('a different field order is a different digest', () => {
  const quote = makeQuote('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
  assert.notEqual(
    toHex(quoteDigest(sep, quote)),
    hashTypedData({ domain, types: swappedTypes, primaryType: 'Quote', message: quote }),
  )
})

test('each domain field changes the separator', () => {
  const others = [
    { ...domain, name: 'SpotRFQ2' },
    { ...domain, version: '2' },
    { ...domain, chainId: 999 },
    { ...domain, verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa4' as Address },
  ]
  for (const d of others) assert.notEqual(toHex(domainSeparator(d)), toHex(sep))
})

test('consecutive digests do not share a buffer', () => {
  const a = quoteDigest(sep, makeQuote('0x70997970c51812dc3a010c7d01b50e0d17dc79c8', { nonce: 1n }))
  const aHex = toHex(a)
  quoteDigest(sep, makeQuote('0x70997970c51812dc3a010c7d01b50e0d17dc79c8', { nonce: 2n }))
  assert.equal(toHex(a), aHex)
})

test('a domain with a bad chainId or contract address is refused', () => {
  assert.throws(() => domainSeparator({ ...domain, chainId: -1 }), /not a uint256/)
  assert.throws(() => domainSeparator({ ...domain, verifyingContract: '0x1234' }), /not an address/)
})
