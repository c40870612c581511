// A batch of signed quotes as it crosses to a signature pool thread: one packed array of their fields, ten cells a
// quote, instead of an object a quote and another for its quote. A message to a thread is copied field by field by
// V8's serializer and rebuilt on the other side, keys and all: as objects, a quote cost ~0.7 µs on the relay's main
// thread to post and ~1.3 µs on the pool's thread to rebuild, as cells ~0.15 and ~0.3 µs (v8.serialize and
// deserialize of 43-quote batches whose fields are slices of real frames, one process; docs/benchmarks.md 0.14.9).
// The cells are packed (workers/values/packedBlanks.ts): a holey array is written key by key.
import { packedBlanks } from '../values/packedBlanks.js'
import type { QuoteJson } from './types.js'

export interface SignedQuote {
  quote: QuoteJson
  signature: string
}

/** maker, taker, tokenIn, tokenOut, amountIn, amountOut, expiry, nonce, deadline, signature */
export const QUOTE_CELLS = 10

export type QuoteCells = (string | number)[]

/** `into`: an array of exactly the batch's size to write over (one lent: packedBlanks.ts); else a new one */
export function quoteCells(items: readonly SignedQuote[], into?: QuoteCells): QuoteCells {
  const cells = into ?? packedBlanks(items.length * QUOTE_CELLS)
  for (let i = 0, k = 0; i < items.length; i++, k += QUOTE_CELLS) {
    const { quote: q, signature } = items[i]!
    cells[k] = q.maker
    cells[k + 1] = q.taker
    cells[k + 2] = q.tokenIn
    cells[k + 3] = q.tokenOut
    cells[k + 4] = q.amountIn
    cells[k + 5] = q.amountOut
    cells[k + 6] = q.expiry
    cells[k + 7] = q.nonce
    cells[k + 8] = q.deadline
    cells[k + 9] = signature
  }
  return cells
}

/** The quote at cell `k` (a multiple of QUOTE_CELLS) as the JSON object it was; its signature is cells[k + 9]. */
export function quoteAt(cells: readonly unknown[], k: number): QuoteJson {
  return {
    maker: cells[k] as string,
    taker: cells[k + 1] as string,
    tokenIn: cells[k + 2] as string,
    tokenOut: cells[k + 3] as string,
    amountIn: cells[k + 4] as string,
    amountOut: cells[k + 5] as string,
    expiry: cells[k + 6] as number | string,
    nonce: cells[k + 7] as string,
    deadline: cells[k + 8] as number | string,
  }
}
