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
const HEX = '"0x[0-9a-fA-F]+"'
const POSITIVE = '"[1-9][0-9]*"'
/** unix seconds, as the schema's union: a JSON integer or the same digits as a string */
const SECONDS = '(?:0|[1-9][0-9]*|"(?:0|[1-9][0-9]*)")'

// No captures: `test` leaves nothing behind, where `exec` made an array and a string a field. A read allocates 494
// against 710 bytes with them, in the same ~1.3 µs (one process, 1M reads of 256 frames). Once the grammar holds,
// each field ends at the first `"` after it (`,` or `}` for seconds as a number), as no run the grammar allows holds
// one, so the reader below walks the fields in order and checks their lengths.
const FRAME = new RegExp(
  '^\\{"type":"QUOTE_SUBMIT","data":\\{' +
    `"rfqId":"${PLAIN}+",` +
    `"quote":\\{"maker":${HEX},"taker":${HEX},"tokenIn":${HEX},"tokenOut":${HEX},` +
    `"amountIn":${POSITIVE},"amountOut":${POSITIVE},"expiry":${SECONDS},"nonce":"(?:0|[1-9][0-9]*)",` +
    `"deadline":${SECONDS}\\},` +
    `"signature":${HEX}` +
    `(?:,"shareToken":"${PLAIN}*")?` +
    '\\}\\}$',
)

/** the schema's lengths, from the values they bound: an address, 65 signature bytes, 2^256 - 1, 2^53 - 1 */
const ADDRESS_LENGTH = ZERO_ADDRESS.length
const SIGNATURE_LENGTH = '0x'.length + 65 * 2
const UINT_DIGITS = MAX_UINT256.toString().length
const SECONDS_DIGITS = String(Number.MAX_SAFE_INTEGER).length
const QUOTE_MARK = 0x22
const DIGIT_0 = 0x30
const DIGIT_9 = 0x39

/**
 * The data of a canonical QUOTE_SUBMIT frame (`text` decoded as latin1: a byte a character, so a non-ASCII byte
 * matches nothing), the same object JSON.parse would make of it, when the schema accepts every field; else undefined.
 */
export function readQuoteSubmit(text: string): Record<string, unknown> | undefined {
  if (!FRAME.test(text)) return undefined
  // each read names the text between its field and the next one's first character
  const r = reader.start(text, '{"type":"QUOTE_SUBMIT","data":{"rfqId":"'.length)
  const rfqId = r.quoted(',"quote":{"maker":"')
  const maker = r.hex(',"taker":"', ADDRESS_LENGTH)
  const taker = r.hex(',"tokenIn":"', ADDRESS_LENGTH)
  const tokenIn = r.hex(',"tokenOut":"', ADDRESS_LENGTH)
  const tokenOut = r.hex(',"amountIn":"', ADDRESS_LENGTH)
  const amountIn = r.digits(',"amountOut":"', UINT_DIGITS)
  const amountOut = r.digits(',"expiry":', UINT_DIGITS)
  const expiry = r.seconds(',"nonce":"')
  const nonce = r.digits(',"deadline":', UINT_DIGITS)
  const deadline = r.seconds('},"signature":"')
  const signature = r.hex('', SIGNATURE_LENGTH)
  const { refused, at } = r.end()
  // a field past the schema's bounds, or a JSON integer past 2^53 - 1: the schema refuses it, the full parse says how
  if (refused) return undefined
  const quote = { maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline }
  if (at === text.length - '}}'.length) return { rfqId, quote, signature }
  const shareToken = text.slice(at + ',"shareToken":"'.length, text.length - '"}}'.length)
  return { rfqId, quote, signature, shareToken }
}

/**
 * Walks a matched frame's fields in order, each a slice of its text; `refused` once one is past its bound. One
 * reader serves every frame (a read is synchronous): made a frame, it was ~50 of the ~540 bytes a read allocated.
 */
class FieldReader {
  private text = ''
  /** where the next field's value starts */
  private at = 0
  private refused = false

  start(text: string, at: number): this {
    this.text = text
    this.at = at
    this.refused = false
    return this
  }

  /** where the last field ended, and whether one was refused; lets go of the frame */
  end(): { refused: boolean; at: number } {
    this.text = ''
    return { refused: this.refused, at: this.at }
  }

  /** a string's body, up to its closing quote; `after`: the text from there to the next field */
  quoted(after: string): string {
    const end = this.text.indexOf('"', this.at)
    const value = this.text.slice(this.at, end)
    this.at = end + 1 + after.length
    return value
  }

  /** a hex string, `0x` and its digits exactly `length` characters */
  hex(after: string, length: number): string {
    const value = this.quoted(after)
    if (value.length !== length) this.refused = true
    return value
  }

  /** a decimal string of at most `max` digits */
  digits(after: string, max: number): string {
    const value = this.quoted(after)
    if (value.length > max) this.refused = true
    return value
  }

  /**
   * unix seconds: the digits as a string, or a JSON integer up to 2^53 - 1 (ended by `after`'s first character, the
   * first that is no digit). The integer is summed from the characters, not sliced and converted: a slice of ten
   * digits is a copy (V8 slices only strings of 13 or more), 32 bytes of garbage twice a quote. Exact: a value of at
   * most 16 digits is summed exactly while it is below 2^53, and one at or past it is refused either way.
   */
  seconds(after: string): number | string {
    const text = this.text
    if (text.charCodeAt(this.at) === QUOTE_MARK) {
      this.at++
      return this.digits(after, SECONDS_DIGITS)
    }
    let n = 0,
      end = this.at
    for (let c = text.charCodeAt(end); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++end))
      n = n * 10 + (c - DIGIT_0)
    if (end - this.at > SECONDS_DIGITS || n > Number.MAX_SAFE_INTEGER) this.refused = true
    this.at = end + after.length
    return n
  }
}

const reader = new FieldReader()
