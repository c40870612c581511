// Untrusted quote JSON in, a typed result out. Never throws: a maker's malformed frame must cost
// the relay one ERROR reply, not a crashed actor.
import { isPlainObject, parseAddress, parseCanonicalU256 } from '../values/index.js'
import type { Address, ParseQuoteResult, ParseSignatureResult, QuoteField, QuoteMessage } from './types.js'

export { MAX_UINT256 } from '../values/index.js'
/** secp256k1 group order n and n/2, as 64 lowercase hex digits so bounds compare as strings. */
const N_HEX = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'
const HALF_N_HEX = '7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0'
const ZERO_HEX = '0'.repeat(64)

// Canonical decimal only: no sign, no '0x', no exponent, no leading zeros. 2^256-1 has 78 digits.
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string }

export function parseQuote(input: unknown): ParseQuoteResult {
  try {
    if (!isPlainObject(input)) return fail('quote', 'must be an object')
    const q = input
    const maker = address(q.maker)
    if (!maker.ok) return fail('maker', maker.reason)
    const taker = address(q.taker)
    if (!taker.ok) return fail('taker', taker.reason)
    const tokenIn = address(q.tokenIn)
    if (!tokenIn.ok) return fail('tokenIn', tokenIn.reason)
    const tokenOut = address(q.tokenOut)
    if (!tokenOut.ok) return fail('tokenOut', tokenOut.reason)
    const amountIn = uintString(q.amountIn)
    if (!amountIn.ok) return fail('amountIn', amountIn.reason)
    const amountOut = uintString(q.amountOut)
    if (!amountOut.ok) return fail('amountOut', amountOut.reason)
    const expiry = uintTime(q.expiry)
    if (!expiry.ok) return fail('expiry', expiry.reason)
    const nonce = uintString(q.nonce)
    if (!nonce.ok) return fail('nonce', nonce.reason)
    const deadline = uintTime(q.deadline)
    if (!deadline.ok) return fail('deadline', deadline.reason)
    const quote: QuoteMessage = {
      maker: maker.value,
      taker: taker.value,
      tokenIn: tokenIn.value,
      tokenOut: tokenOut.value,
      amountIn: amountIn.value,
      amountOut: amountOut.value,
      expiry: expiry.value,
      nonce: nonce.value,
      deadline: deadline.value,
    }
    return { ok: true, quote }
  } catch {
    return fail('quote', 'could not be read') // a hostile getter or proxy; JSON.parse output never gets here
  }
}

/**
 * A 65-byte r||s||v signature. v may be 27/28 or 0/1. High-S is rejected (as OpenZeppelin's ECDSA
 * does on-chain), so each quote has exactly one accepted signature and its hash cannot be malleated.
 */
export function parseSignature(hex: unknown): ParseSignatureResult {
  if (typeof hex !== 'string' || !SIGNATURE.test(hex))
    return { ok: false, reason: 'must be 0x + 130 hex digits (65 bytes)' }
  const lower = hex.toLowerCase()
  const r = lower.slice(2, 66)
  const s = lower.slice(66, 130)
  const v = parseInt(lower.slice(130, 132), 16)
  const recid = v === 27 || v === 0 ? 0 : v === 28 || v === 1 ? 1 : -1
  if (recid < 0) return { ok: false, reason: 'v must be 27, 28, 0 or 1' }
  if (r === ZERO_HEX || r >= N_HEX) return { ok: false, reason: 'r out of range' }
  if (s === ZERO_HEX || s >= N_HEX) return { ok: false, reason: 's out of range' }
  if (s > HALF_N_HEX) return { ok: false, reason: 'high s' }
  return { ok: true, signature: { compact: hexBytes(lower.slice(2, 130)), recid: recid as 0 | 1 } }
}

/** Even-length hex without '0x' to bytes; callers have already checked the digits. */
export function hexBytes(hex: string): Uint8Array {
  return Buffer.from(hex, 'hex')
}

function address(x: unknown): Parsed<Address> {
  if (typeof x !== 'string') return { ok: false, reason: 'must be a string' }
  const value = parseAddress(x)
  return value ? { ok: true, value } : { ok: false, reason: 'must be 0x + 40 hex digits' }
}

function uintString(x: unknown): Parsed<bigint> {
  const value = parseCanonicalU256(x)
  return typeof value === 'bigint' ? { ok: true, value } : { ok: false, reason: value }
}

/** Unix seconds: a safe non-negative integer number, or the same as a decimal string. */
function uintTime(x: unknown): Parsed<bigint> {
  if (typeof x === 'number') {
    if (!Number.isSafeInteger(x) || x < 0) return { ok: false, reason: 'must be a non-negative integer' }
    return { ok: true, value: BigInt(x) }
  }
  return uintString(x)
}

function fail(field: QuoteField, reason: string): ParseQuoteResult {
  return { ok: false, field, reason }
}
