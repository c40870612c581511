// The relay's hottest frame read by one regular expression (issue 29): a QUOTE_SUBMIT exactly as makers send it, the
// way JSON.stringify writes the SDK's message (no whitespace; the keys in the order the SDK and the EIP-712 struct
// give them), every field within the contract's grammar (engine/relay/contract/messages.ts). Such a frame means what
// JSON.parse and the schema would make of it, without the parse's object walk and string-table lookups or the
// schema's separate regular expressions: ~0.45 µs against ~1.1 µs for JSON.parse alone and ~2.4 µs for parse and
// schema, a frame in one process (docs/benchmarks.md 0.14.4); the fields are slices of the frame's one text.
// One compiled expression is the fastest way V8 has to check 600 bytes against a grammar: a JavaScript loop over
// char codes measured slower than JSON.parse itself. Its runs are unbounded and their lengths checked after, because
// irregexp pays for a counted run ({40}, {0,77}): 790 against 440 ns a frame. It cannot backtrack far: every run is
// anchored between characters outside its class (a hex run ends at `"`, digits at `"` or `,`), so a frame of any
// size is matched or refused in one left-to-right pass.
//
// It only says "this exact frame" or "not mine": anything else (whitespace, another key order, an extra key, an
// escape, a non-ASCII byte, a number JSON writes otherwise, a value out of the schema's grammar) returns undefined
// and the caller parses the frame in full, so every refusal keeps its text and order. test/relay/quoteFrame.test.ts
// compares the two on every one-byte change of real frames.
import { MAX_UINT256, ZERO_ADDRESS } from '../../workers/values/index.js'

/** a JSON string's body with nothing to unescape: printable ASCII but `"` and `\` */
const PLAIN = '[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]'
const HEX = '"(0x[0-9a-fA-F]+)"'
const POSITIVE = '"([1-9][0-9]*)"'
/** unix seconds, as the schema's union: a JSON integer or the same digits as a string */
const SECONDS = '(?:(0|[1-9][0-9]*)|"(0|[1-9][0-9]*)")'

const FRAME = new RegExp(
  '^\\{"type":"QUOTE_SUBMIT","data":\\{' +
    `"rfqId":"(${PLAIN}+)",` +
    `"quote":\\{"maker":${HEX},"taker":${HEX},"tokenIn":${HEX},"tokenOut":${HEX},` +
    `"amountIn":${POSITIVE},"amountOut":${POSITIVE},"expiry":${SECONDS},"nonce":"(0|[1-9][0-9]*)",` +
    `"deadline":${SECONDS}\\},` +
    `"signature":${HEX}` +
    `(?:,"shareToken":"(${PLAIN}*)")?` +
    '\\}\\}$',
)

/** the schema's lengths, from the values they bound: an address, 65 signature bytes, 2^256 - 1, 2^53 - 1 */
const ADDRESS_LENGTH = ZERO_ADDRESS.length
const SIGNATURE_LENGTH = '0x'.length + 65 * 2
const UINT_DIGITS = MAX_UINT256.toString().length
const SECONDS_DIGITS = String(Number.MAX_SAFE_INTEGER).length

/**
 * The data of a canonical QUOTE_SUBMIT frame (`text` decoded as latin1: a byte a character, so a non-ASCII byte
 * matches nothing), the same object JSON.parse would make of it, when the schema accepts every field; else undefined.
 */
export function readQuoteSubmit(text: string): Record<string, unknown> | undefined {
  const m = FRAME.exec(text)
  if (
    !m ||
    m[2]!.length !== ADDRESS_LENGTH ||
    m[3]!.length !== ADDRESS_LENGTH ||
    m[4]!.length !== ADDRESS_LENGTH ||
    m[5]!.length !== ADDRESS_LENGTH ||
    m[13]!.length !== SIGNATURE_LENGTH ||
    m[6]!.length > UINT_DIGITS ||
    m[7]!.length > UINT_DIGITS ||
    m[10]!.length > UINT_DIGITS
  )
    return undefined
  const expiry = m[8] !== undefined ? seconds(m[8]) : secondsText(m[9]!)
  const deadline = m[11] !== undefined ? seconds(m[11]) : secondsText(m[12]!)
  // past 16 digits, or a JSON integer past 2^53 - 1: the schema refuses it, and the full parse says how
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
  if (digits.length > SECONDS_DIGITS) return undefined
  const n = Number(digits)
  return n <= Number.MAX_SAFE_INTEGER ? n : undefined
}

function secondsText(digits: string): string | undefined {
  return digits.length > SECONDS_DIGITS ? undefined : digits
}
