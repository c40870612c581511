// QuoteTape: one RFQ's accepted quotes, each kept as one flat string and made an object again only when read. The
// book holds every live quote (60 s of a busy venue is hundreds of thousands), and as objects each one was ~9 heap
// objects (the record, its QuoteJson, five strings, a boxed time) that every major GC had to mark and move: at
// ~200,000 live quotes that GC blocked the relay's main thread for 60-130 ms at a time (issue 29). A string is a
// leaf the GC marks without looking inside. (Bytes in Buffers were tried first: their external memory set off major
// GCs of its own.) A quote is written once and read rarely (a poll, a describe, a cluster replay), so decoding on
// read is the cheap side to pay on.
//
// A line is the quote's fields as text joined by a unit separator (U+001F), which no field can hold: addresses and
// the signature are hex, amounts and times decimal (the quote checks and the store hand them over normalised). The
// tokens and the taker are the RFQ's in every quote the checks pass, so a line holds them only when they differ, and
// the rfqId likewise: a line is ~270 characters, and what is read back is exactly what was pushed.
import type { AcceptedQuote, Address, Hex } from './rfqTypes.js'

const SEP = '\x1f'
/** what a tape's entries share with their RFQ, left out of each entry */
export interface TapeTerms {
  id: string
  taker: Address
  tokenIn: Address
  tokenOut: Address
}

export class QuoteTape {
  /** one flat string an entry: a leaf the GC marks without looking inside */
  private readonly lines: string[] = []

  constructor(
    private readonly terms: TapeTerms,
    quotes: Iterable<AcceptedQuote> = [],
  ) {
    for (const q of quotes) this.push(q)
  }

  get length(): number {
    return this.lines.length
  }

  push(a: AcceptedQuote): void {
    this.lines.push(quoteLine(a, this.terms))
  }

  at(i: number): AcceptedQuote | undefined {
    const line = this.lines[i]
    return line === undefined ? undefined : quoteOfLine(line, this.terms)
  }

  /** entries from `from` on, as objects */
  slice(from = 0): AcceptedQuote[] {
    const out: AcceptedQuote[] = []
    for (let i = Math.max(0, from); i < this.lines.length; i++) out.push(this.at(i)!)
    return out
  }
}

/**
 * A quote as one flat string, its fields that are not the RFQ's own (`terms`). The RFQ's actor, the live index and
 * the feed's replay each keep the same quote, one right after the other (they hear the actor's event
 * synchronously): the last line made is given again for the same quote and terms, one string for all three.
 */
export function quoteLine(a: AcceptedQuote, t: TapeTerms): string {
  if (last.quote === a && sameTerms(last.terms, t)) return last.line
  const q = a.quote
  // one join: it writes the flat string once (a chain of `+` made a rope of ~22 heap objects that had to be
  // flattened through a scratch buffer, ~1.6 KB of garbage a quote against ~0.5 KB), of one array of parts filled
  // anew each time (made a quote, it was ~110 bytes more) and emptied after, so it keeps no quote's strings alive
  const p = parts
  p[0] = q.maker
  p[1] = q.taker === t.taker ? '' : q.taker
  p[2] = q.tokenIn === t.tokenIn ? '' : q.tokenIn
  p[3] = q.tokenOut === t.tokenOut ? '' : q.tokenOut
  p[4] = q.amountIn
  p[5] = q.amountOut
  p[6] = q.expiry
  p[7] = q.nonce
  p[8] = q.deadline
  p[9] = a.signature
  p[10] = a.receivedAtMs
  p[11] = a.rfqId === t.id ? '' : a.rfqId
  const line = p.join(SEP)
  p.fill('')
  last.quote = a
  last.terms = t
  last.line = line
  return line
}

/** a line's twelve fields, in order, as `quoteLine` fills them */
const parts: (string | number)[] = new Array<string | number>(12).fill('')

/** The quote `quoteLine(quote, t)` made `line` of. */
export function quoteOfLine(line: string, t: TapeTerms): AcceptedQuote {
  const f = line.split(SEP)
  return {
    rfqId: f[11] || t.id,
    quote: {
      maker: f[0] as Address,
      taker: (f[1] || t.taker) as Address,
      tokenIn: (f[2] || t.tokenIn) as Address,
      tokenOut: (f[3] || t.tokenOut) as Address,
      amountIn: f[4]!,
      amountOut: f[5]!,
      expiry: Number(f[6]),
      nonce: f[7]!,
      deadline: Number(f[8]),
    },
    signature: f[9] as Hex,
    receivedAtMs: Number(f[10]),
  }
}

/** the last quote made a line of, with the terms it was made against and the line */
const last: { quote: AcceptedQuote | null; terms: TapeTerms; line: string } = {
  quote: null,
  terms: { id: '', taker: '0x', tokenIn: '0x', tokenOut: '0x' },
  line: '',
}

function sameTerms(a: TapeTerms, b: TapeTerms): boolean {
  return a === b || (a.id === b.id && a.taker === b.taker && a.tokenIn === b.tokenIn && a.tokenOut === b.tokenOut)
}
