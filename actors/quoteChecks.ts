// The relay's cheap quote checks, synchronous and in the spec's order: maker address, tokenIn,
// tokenOut, then the taker binding (quote.taker is the RFQ's taker or the zero address: TAKER_MISMATCH,
// right after the token-pair rule), deadline, amountIn, amountOut. The signature (rule 5) and the one-quote-per-maker rule
// (rule 6) need the pool and the actor's state; rule 1 (RFQ live) is the actor's existence.
// The first failure is the one reported. A passing quote comes back normalised: lowercase
// addresses, canonical decimal strings, times as numbers.
import type { Address, QuoteJson } from './rfqTypes.js'
import { RelayErrors, refuseQuote, type QuoteRefusal } from './errors.js'
import { internAddress } from './internAddress.js'
import type { Outcome } from '../workers/outcome.js'
import {
  isAddress,
  lowerHex,
  parseCanonicalU256 as uint256,
  parseUnixSeconds as unixSeconds,
  ZERO_ADDRESS,
} from '../workers/values/index.js'

export interface RfqTerms {
  taker: Address
  tokenIn: Address
  tokenOut: Address
  /** private RFQs with a non-empty list: only these makers may quote */
  allowedMakers: readonly Address[]
}

export type QuoteCheck = Outcome<{ quote: QuoteJson }, QuoteRefusal>

/**
 * `wellFormed`: the relay's schema (engine/relay/contract) has already checked every field's grammar, so only
 * the rules it cannot say are left (RFQ terms, the clock, the numeric bounds): the same order, the same texts. The
 * relay's decoded frame is then its own quote: `raw` is normalised in place and returned, so a caller that keeps
 * `raw` for anything else passes `wellFormed` false.
 */
export function checkQuote(
  rfq: RfqTerms,
  raw: Record<string, unknown>,
  nowSec: number,
  wellFormed = false,
): QuoteCheck {
  if (!address(raw.maker, wellFormed)) return fail(RelayErrors.invalidMaker())
  // the venue's one string for this address from here on (internAddress.ts): the pool, the actor's makers and the
  // writer's answer all look it up
  const maker = internAddress(lowerHex(raw.maker) as Address)
  if (rfq.allowedMakers.length && !rfq.allowedMakers.includes(maker)) return fail(RelayErrors.makerNotAllowed())
  // the RFQ's own (lowercase) text, as makers echo it from the broadcast, is taken as it is: V8's toLowerCase makes a
  // new string even when nothing changes (~60 ns and ~56 B an address, three a quote)
  if (!sameAddress(raw.tokenIn, rfq.tokenIn, wellFormed)) return fail(RelayErrors.tokenInMismatch())
  if (!sameAddress(raw.tokenOut, rfq.tokenOut, wellFormed)) return fail(RelayErrors.tokenOutMismatch())
  // bound to its taker: a quote for someone else would be a signed order handed to a third party
  const ownTaker = raw.taker === rfq.taker
  if (!ownTaker && !address(raw.taker, wellFormed))
    return fail(RelayErrors.invalidQuoteField('taker', 'must be 0x + 40 hex digits'))
  const taker = ownTaker ? rfq.taker : (lowerHex(raw.taker as string) as Address)
  if (taker !== rfq.taker && taker !== ZERO_ADDRESS) return fail(RelayErrors.takerMismatch())

  const deadline = unixSeconds(raw.deadline)
  if (typeof deadline === 'string') return fail(RelayErrors.invalidQuoteField('deadline', deadline))
  if (!(deadline > nowSec)) return fail(RelayErrors.deadlinePast())
  const amountIn = uint(raw.amountIn, wellFormed)
  if (typeof amountIn !== 'object') return fail(RelayErrors.invalidQuoteField('amountIn', amountIn))
  if (amountIn.zero) return fail(RelayErrors.amountInZero())
  const amountOut = uint(raw.amountOut, wellFormed)
  if (typeof amountOut !== 'object') return fail(RelayErrors.invalidQuoteField('amountOut', amountOut))
  if (amountOut.zero) return fail(RelayErrors.amountOutZero())

  // the fields no rule names: still part of the signed struct, so they must be well formed
  const expiry = unixSeconds(raw.expiry)
  if (typeof expiry === 'string') return fail(RelayErrors.invalidQuoteField('expiry', expiry))
  const nonce = uint(raw.nonce, wellFormed)
  if (typeof nonce !== 'object') return fail(RelayErrors.invalidQuoteField('nonce', nonce))

  if (wellFormed) {
    // the frame's own object, which the schema vouched for (these nine fields, no other) and nobody reads after the
    // checks: normalised in place and kept as the quote, not copied (~100 bytes a relay quote, issue 29)
    const q = raw as unknown as QuoteJson
    q.maker = maker
    q.taker = taker === rfq.taker ? rfq.taker : taker
    q.tokenIn = rfq.tokenIn
    q.tokenOut = rfq.tokenOut
    q.amountIn = amountIn.text
    q.amountOut = amountOut.text
    q.expiry = expiry
    q.nonce = nonce.text
    q.deadline = deadline
    return { ok: true, quote: q }
  }
  return {
    ok: true,
    quote: {
      maker,
      // the RFQ's own string when it is the RFQ's taker (as the pair's are): a live quote keeps no copy of its own
      taker: taker === rfq.taker ? rfq.taker : taker,
      tokenIn: rfq.tokenIn,
      tokenOut: rfq.tokenOut,
      amountIn: amountIn.text,
      amountOut: amountOut.text,
      expiry,
      nonce: nonce.text,
      deadline,
    },
  }
}

function address(x: unknown, wellFormed: boolean): x is string {
  return wellFormed || isAddress(x)
}

/** `x` is the RFQ's `own` address, in any case */
function sameAddress(x: unknown, own: Address, wellFormed: boolean): boolean {
  return x === own || (address(x, wellFormed) && x.toLowerCase() === own)
}

/** A canonical uint256 as its text, or the reason it is not one; the schema leaves only the bound to check. */
function uint(x: unknown, wellFormed: boolean): { text: string; zero: boolean } | string {
  if (wellFormed && (x as string).length < 78) return { text: x as string, zero: x === '0' }
  const v = uint256(x)
  return typeof v === 'string' ? v : { text: wellFormed ? (x as string) : v.toString(), zero: v === 0n }
}

function fail(error: Omit<QuoteRefusal, 'ok'>): QuoteCheck {
  return refuseQuote(error)
}
