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
  // flattened through a scratch buffer, ~1.6 KB of garbage a quote against ~0.5 KB)
  // prettier-ignore
  const line = [
    q.maker, q.taker === t.taker ? '' : q.taker, q.tokenIn === t.tokenIn ? '' : q.tokenIn,
    q.tokenOut === t.tokenOut ? '' : q.tokenOut, q.amountIn, q.amountOut, q.expiry, q.nonce, q.deadline, a.signature,
    a.receivedAtMs, a.rfqId === t.id ? '' : a.rfqId,
  ].join(SEP)
  last = { quote: a, terms: t, line }
  return line
}

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
let last: { quote: AcceptedQuote | null; terms: TapeTerms; line: string } = {
  quote: null,
  terms: { id: '', taker: '0x', tokenIn: '0x', tokenOut: '0x' },
  line: '',
}

function sameTerms(a: TapeTerms, b: TapeTerms): boolean {
  return a === b || (a.id === b.id && a.taker === b.taker && a.tokenIn === b.tokenIn && a.tokenOut === b.tokenOut)
}
