// QUOTE_BROADCAST as JSON bytes, written into one buffer this module reuses, outside V8's heap (issue 29: the text
// broadcast and its parts' array were the largest single allocation of a quote's way, ~1.1 KB of ~7.8 KB a quote).
// uWS copies what it is handed before publish returns (into each socket's buffer or the topic's queue), so the next
// quote may overwrite the bytes at once, and a view of the buffer's first n bytes, made once for each n, is handed
// over: a broadcast allocates nothing on the heap (~0.25 µs more to write than the text's join; docs/benchmarks.md
// 0.14.6).
//
// The bytes are exactly JSON.stringify's text of the spec's message (test/relay/broadcastText.test.ts). The checks
// (actors/quoteChecks.ts) made each quote field a lowercase address, a canonical decimal string or a safe integer;
// the RFQ id and the signature are written as they are only when JSON has nothing to escape in them, and anything
// else (or a message longer than the buffer) is left to the caller's text path: `null`.
import type { AcceptedQuote } from '../../actors/rfqTypes.js'

/** ample for any quote the checks pass: four addresses, three uint256s in decimal, a 65-byte signature, an id */
const CAPACITY = 4096
// latin1Write: Buffer's own method behind `write(s, at, 'latin1')`, without its argument dispatch (~80 against ~100
// ns a call; a JavaScript loop over char codes took ~3 ns a character)
const out = Buffer.allocUnsafeSlow(CAPACITY) as Buffer & { latin1Write(s: string, offset: number): number }
/** views[n]: the buffer's first n bytes, made the first time a message of n bytes is written (an array of its full
 * length from the start, so its elements stay a fast array and never become a dictionary) */
const views = new Array<Uint8Array | undefined>(CAPACITY + 1)

/** what JSON.stringify writes as it is, between quotes: letters, digits, `_`, `.`, `:` and `-` (ids, hex); both
 * the byte path and the text path (broadcasts.ts) write such a string as it is, and escape nothing else by hand */
export const PLAIN = /^[\w.:-]*$/

/**
 * The quote's QUOTE_BROADCAST as bytes, valid until the next call (hand them to a copying sink at once), or null
 * when the text path must write it. Never throws.
 */
export function quoteBroadcastBytes(q: AcceptedQuote): Uint8Array | null {
  const x = q.quote
  if (!PLAIN.test(q.rfqId) || !PLAIN.test(q.signature)) return null
  if (!isCount(x.expiry) || !isCount(x.deadline)) return null
  // every part is one byte a character (ASCII), so a string's length is its size in bytes
  const size =
    FIXED +
    q.rfqId.length +
    x.maker.length +
    x.taker.length +
    x.tokenIn.length +
    x.tokenOut.length +
    x.amountIn.length +
    x.amountOut.length +
    x.nonce.length +
    q.signature.length +
    32 // two integers, at most 16 each
  if (size > CAPACITY) return null
  let n = text(P_ID, q.rfqId, 0)
  n = text(P_MAKER, x.maker, n)
  n = text(P_TAKER, x.taker, n)
  n = text(P_TOKEN_IN, x.tokenIn, n)
  n = text(P_TOKEN_OUT, x.tokenOut, n)
  n = text(P_AMOUNT_IN, x.amountIn, n)
  n = text(P_AMOUNT_OUT, x.amountOut, n)
  n = count(P_EXPIRY, x.expiry, n)
  n = text(P_NONCE, x.nonce, n)
  n = count(P_DEADLINE, x.deadline, n)
  n = text(P_SIGNATURE, q.signature, n)
  n = lit(P_END, n)
  return (views[n] ??= new Uint8Array(out.buffer, out.byteOffset, n))
}

const bytes = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'))
const P_ID = bytes('{"type":"QUOTE_BROADCAST","data":{"rfqId":"'),
  P_MAKER = bytes('","quote":{"maker":"'),
  P_TAKER = bytes('","taker":"'),
  P_TOKEN_IN = bytes('","tokenIn":"'),
  P_TOKEN_OUT = bytes('","tokenOut":"'),
  P_AMOUNT_IN = bytes('","amountIn":"'),
  P_AMOUNT_OUT = bytes('","amountOut":"'),
  P_EXPIRY = bytes('","expiry":'),
  P_NONCE = bytes(',"nonce":"'),
  P_DEADLINE = bytes('","deadline":'),
  P_SIGNATURE = bytes('},"signature":"'),
  P_END = bytes('"}}')
/** the constant parts' bytes together */
const FIXED = [
  P_ID,
  P_MAKER,
  P_TAKER,
  P_TOKEN_IN,
  P_TOKEN_OUT,
  P_AMOUNT_IN,
  P_AMOUNT_OUT,
  P_EXPIRY,
  P_NONCE,
  P_DEADLINE,
  P_SIGNATURE,
  P_END,
].reduce((n, p) => n + p.length, 0)

/** a constant part, then an ASCII string's bytes (latin1: one byte a character, a copy for ASCII); the offset after */
function text(prefix: Uint8Array, s: string, at: number): number {
  const n = lit(prefix, at)
  return n + out.latin1Write(s, n)
}

/** a constant part, then a non-negative safe integer's digits; the offset after them */
function count(prefix: Uint8Array, v: number, at: number): number {
  return putCount(v, lit(prefix, at))
}

/** a constant part's bytes at `at`; the offset after them */
function lit(b: Uint8Array, at: number): number {
  out.set(b, at)
  return at + b.length
}

/** a non-negative safe integer's decimal digits at `at`, with no string made for them; the offset after them */
function putCount(v: number, at: number): number {
  let end = at + 1
  for (let t = v; t >= 10; t = Math.floor(t / 10)) end++
  for (let i = end - 1; i >= at; i--) {
    out[i] = 48 + (v % 10)
    v = Math.floor(v / 10)
  }
  return end
}

const isCount = (v: number): boolean => Number.isSafeInteger(v) && v >= 0
