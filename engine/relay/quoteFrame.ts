// The relay's hottest frame read by one regular expression (issue 29): a QUOTE_SUBMIT exactly as makers send it, the
// way JSON.stringify writes the SDK's message (no whitespace; the keys in the order the SDK and the EIP-712 struct
// give them), every field within the contract's grammar. Such a frame means what JSON.parse and the schema would make
// of it, without the parse's object walk and string-table lookups or the schema's separate regular expressions:
// ~0.8 µs against ~2.4 µs a frame in one process (scratch measure, docs/benchmarks.md 0.14.4), and the fields are
// slices of the frame's one text rather than copies. One compiled expression is the fastest way V8 has to check 600
// bytes against a grammar; a JavaScript loop over char codes measured slower than JSON.parse itself.
//
// It only says "this exact frame" or "not mine": anything else (whitespace, another key order, an extra key, an
// escape, a non-ASCII byte, a number JSON writes otherwise, a value out of the schema's grammar) returns undefined
// and the caller parses the frame in full, so every refusal keeps its text and order. test/relay/quoteFrame.test.ts
// compares the two on every one-byte change of real frames.
import {
  ADDRESS_PATTERN,
  CANONICAL_UINT_PATTERN,
  POSITIVE_UINT_PATTERN,
  SIGNATURE_PATTERN,
  UNIX_SECONDS_STRING_PATTERN,
} from '../../workers/values/index.js'

/** a grammar of workers/values (the schema's own) as a capture inside the frame's expression */
const grab = (pattern: string) => `(${pattern.replace(/^\^/, '').replace(/\$$/, '')})`
/** a JSON string's body with nothing to unescape: printable ASCII but `"` and `\` */
const PLAIN = '[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]'
const ADDRESS = `"${grab(ADDRESS_PATTERN)}"`
const POSITIVE = `"${grab(POSITIVE_UINT_PATTERN)}"`
/** unix seconds, as the schema's union: a JSON integer (its bound is checked after) or the same digits as a string */
const SECONDS = `(?:${grab(UNIX_SECONDS_STRING_PATTERN)}|"${grab(UNIX_SECONDS_STRING_PATTERN)}")`

const FRAME = new RegExp(
  '^\\{"type":"QUOTE_SUBMIT","data":\\{' +
    `"rfqId":"(${PLAIN}+)",` +
    `"quote":\\{"maker":${ADDRESS},"taker":${ADDRESS},"tokenIn":${ADDRESS},"tokenOut":${ADDRESS},` +
    `"amountIn":${POSITIVE},"amountOut":${POSITIVE},"expiry":${SECONDS},"nonce":"${grab(CANONICAL_UINT_PATTERN)}",` +
    `"deadline":${SECONDS}\\},` +
    `"signature":"${grab(SIGNATURE_PATTERN)}"` +
    `(?:,"shareToken":"(${PLAIN}*)")?` +
    '\\}\\}$',
)

/**
 * The data of a canonical QUOTE_SUBMIT frame (`text` decoded as latin1: a byte a character, so a non-ASCII byte
 * matches nothing), the same object JSON.parse would make of it, when the schema accepts every field; else undefined.
 */
export function readQuoteSubmit(text: string): Record<string, unknown> | undefined {
  const m = FRAME.exec(text)
  if (!m) return undefined
  const expiry = m[8] !== undefined ? seconds(m[8]) : m[9]
  const deadline = m[11] !== undefined ? seconds(m[11]) : m[12]
  // a JSON integer past 2^53 - 1: the schema refuses it, and the full parse says how
  if (expiry === undefined || deadline === undefined) return undefined
  const quote = {
    maker: m[2],
    taker: m[3],
    tokenIn: m[4],
    tokenOut: m[5],
    amountIn: m[6],
    amountOut: m[7],
    expiry,
    nonce: m[10],
    deadline,
  }
  const shareToken = m[14]
  return shareToken === undefined
    ? { rfqId: m[1], quote, signature: m[13] }
    : { rfqId: m[1], quote, signature: m[13], shareToken }
}

function seconds(digits: string): number | undefined {
  const n = Number(digits)
  return n <= Number.MAX_SAFE_INTEGER ? n : undefined
}
