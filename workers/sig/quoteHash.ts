// EIP-712 hashing of a Quote, encoded by hand: ten 32-byte words, no ABI library on the hot path.
// The field order is the spec's and SpotRFQ.sol's; any other order is a different typehash.
import { keccak256, keccak256Utf8 } from './keccak.js'
import type { Domain, QuoteMessage } from './types.js'
import { isAddress } from '../values/index.js'

export const QUOTE_TYPE =
  'Quote(address maker,address taker,address tokenIn,address tokenOut,uint256 amountIn,uint256 amountOut,uint256 expiry,uint256 nonce,uint256 deadline)'
export const EIP712_DOMAIN_TYPE = 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'
export const DEFAULT_DOMAIN_NAME = 'SpotRFQ'
export const DOMAIN_VERSION = '1'

export const QUOTE_TYPEHASH = keccak256Utf8(QUOTE_TYPE)
const DOMAIN_TYPEHASH = keccak256Utf8(EIP712_DOMAIN_TYPE)
const EIP191_TYPED_DATA_PREFIX = Uint8Array.of(0x19, 0x01)

// Scratch space for the struct; safe to share because hashing is synchronous.
const struct = Buffer.alloc(10 * 32)
struct.set(QUOTE_TYPEHASH, 0)

/** keccak256(abi.encode(DOMAIN_TYPEHASH, keccak(name), keccak(version), chainId, verifyingContract)). Compute once per domain. */
export function domainSeparator(domain: Domain): Uint8Array {
  const chainId = BigInt(domain.chainId) // throws on a fractional number, as it should: a domain is configuration
  if (chainId < 0n || chainId >> 256n !== 0n) throw new RangeError(`chainId ${chainId} is not a uint256`)
  if (!isAddress(domain.verifyingContract))
    throw new TypeError(`verifyingContract ${JSON.stringify(domain.verifyingContract)} is not an address`)
  const words = Buffer.alloc(5 * 32)
  words.set(DOMAIN_TYPEHASH, 0)
  words.set(keccak256Utf8(domain.name), 32)
  words.set(keccak256Utf8(domain.version), 64)
  writeUint(words, 96, chainId)
  writeAddress(words, 128, domain.verifyingContract)
  return keccak256(words)
}

/** keccak256(abi.encode(QUOTE_TYPEHASH, maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline)). */
export function quoteStructHash(quote: QuoteMessage): Uint8Array {
  writeAddress(struct, 32, quote.maker)
  writeAddress(struct, 64, quote.taker)
  writeAddress(struct, 96, quote.tokenIn)
  writeAddress(struct, 128, quote.tokenOut)
  writeUint(struct, 160, quote.amountIn)
  writeUint(struct, 192, quote.amountOut)
  writeUint(struct, 224, quote.expiry)
  writeUint(struct, 256, quote.nonce)
  writeUint(struct, 288, quote.deadline)
  return keccak256(struct)
}

// Scratch space for the digest's input, 0x1901 in place: one update of the hasher, not three.
const signed = Buffer.alloc(2 + 32 + 32)
signed.set(EIP191_TYPED_DATA_PREFIX, 0)

/** The digest a maker signs: keccak256(0x1901 || domainSeparator || structHash). */
export function quoteDigest(domainSeparator: Uint8Array, quote: QuoteMessage): Uint8Array {
  signed.set(domainSeparator, 2)
  signed.set(quoteStructHash(quote), 34)
  return keccak256(signed)
}

function writeAddress(buf: Buffer, offset: number, address: string): void {
  buf.fill(0, offset, offset + 12)
  buf.write(address.slice(2), offset + 12, 20, 'hex')
}

const MAX_UINT64 = 0xffffffffffffffffn

/**
 * Big-endian uint256; callers guarantee 0 <= value < 2^256 (parseQuote checks it). Times, nonces and most amounts
 * fit 64 bits: those are written as two 32-bit words after 24 zero bytes, without the hex text the general case
 * makes (0.45 against 1.35 µs for a quote's five words, a third of its digest's own work besides the two hashes).
 */
function writeUint(buf: Buffer, offset: number, value: bigint): void {
  if (value <= MAX_UINT64) {
    buf.fill(0, offset, offset + 24)
    buf.writeUInt32BE(Number(value >> 32n), offset + 24)
    buf.writeUInt32BE(Number(value & 0xffffffffn), offset + 28)
    return
  }
  buf.write(value.toString(16).padStart(64, '0'), offset, 32, 'hex')
}
