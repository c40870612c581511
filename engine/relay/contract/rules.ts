// What the relay refuses, in the order it checks, and every ERROR it can send. A refusal is either the
// schema's (`by: 'schema'`: the message's JSON Schema refuses the frame) or a documented rule that JSON Schema
// cannot say (`by: 'rule'`: RFQ state, the clock, signature recovery, numeric bounds). The AsyncAPI
// document carries both (`x-rules` per message, `x-codes` on ERROR); the conformance test checks that every
// refused frame is refused by its schema or by one of its message's rules. The texts are the spec's, from
// the one table (actors/errors.ts); `{name}` marks a part that varies.
import { RelayErrors, type RelayError } from '../../../actors/errors.js'

export interface Rule {
  code: string
  by: 'schema' | 'rule'
  says: string
}

const r = (e: RelayError, by: Rule['by'], says: string): Rule => ({ code: e.code, by, says })
const field = (name: string) => RelayErrors.invalidQuoteField(name, '{reason}')

/** Checked in this order; the first that fails is the one answered. */
export const RULES: Record<'QUOTE_SUBMIT' | 'CANCEL_REQUEST' | 'SUBSCRIBE' | 'any', Rule[]> = {
  QUOTE_SUBMIT: [
    r(
      RelayErrors.busy(0),
      'rule',
      'admission control: more quotes in flight than the pipeline admits (retry after retryAfterMs)',
    ),
    r(RelayErrors.missingFields(), 'schema', 'rfqId and signature are non-empty strings and quote is an object'),
    r(
      RelayErrors.rfqNotFound(),
      'rule',
      'rfqId names a live, unexpired RFQ the sender may see (a private one: with its shareToken)',
    ),
    r(RelayErrors.invalidMaker(), 'schema', 'quote.maker is an address'),
    r(RelayErrors.makerNotAllowed(), 'rule', 'a private RFQ with allowedMakers: quote.maker is one of them'),
    r(RelayErrors.tokenInMismatch(), 'rule', "quote.tokenIn is an address equal to the RFQ's (any case)"),
    r(RelayErrors.tokenOutMismatch(), 'rule', "quote.tokenOut is an address equal to the RFQ's (any case)"),
    r(field('taker'), 'schema', 'quote.taker is an address'),
    r(RelayErrors.takerMismatch(), 'rule', "quote.taker is the RFQ's taker or the zero address"),
    r(field('deadline'), 'schema', 'quote.deadline is unix seconds'),
    r(field('deadline'), 'rule', 'unix seconds are at most 2^53 - 1'),
    r(RelayErrors.deadlinePast(), 'rule', 'quote.deadline is later than now'),
    r(field('amountIn'), 'schema', 'quote.amountIn is a canonical decimal string'),
    r(field('amountIn'), 'rule', 'a uint256 is at most 2^256 - 1'),
    r(RelayErrors.amountInZero(), 'schema', 'quote.amountIn > 0'),
    r(field('amountOut'), 'schema', 'quote.amountOut is a canonical decimal string'),
    r(field('amountOut'), 'rule', 'a uint256 is at most 2^256 - 1'),
    r(RelayErrors.amountOutZero(), 'schema', 'quote.amountOut > 0'),
    r(field('expiry'), 'schema', 'quote.expiry is unix seconds'),
    r(field('expiry'), 'rule', 'unix seconds are at most 2^53 - 1'),
    r(field('nonce'), 'schema', 'quote.nonce is a canonical decimal string'),
    r(field('nonce'), 'rule', 'a uint256 is at most 2^256 - 1'),
    r(
      RelayErrors.invalidMessage('QUOTE_SUBMIT', '{detail}'),
      'schema',
      'any other property the schema names has its type (shareToken: a string)',
    ),
    r(RelayErrors.badSignature(), 'schema', 'signature is 0x + 130 hex digits'),
    r(
      RelayErrors.badSignature(),
      'rule',
      'signature has v 27/28 (or 0/1), r and s in range, low s, and recovers to quote.maker under the EIP-712 domain',
    ),
    r(RelayErrors.duplicateQuote(), 'rule', 'at most one quote per maker per RFQ'),
    r(RelayErrors.unavailable(), 'rule', 'the quote is stored before it is accepted: the database is down'),
    r(RelayErrors.internal(), 'rule', 'the quote could not be stored for another reason'),
  ],
  CANCEL_REQUEST: [
    r(RelayErrors.cancelMissingRfqId(), 'schema', 'rfqId is a non-empty string'),
    r(
      RelayErrors.invalidMessage('CANCEL_REQUEST', '{detail}'),
      'schema',
      'signature and shareToken, when present, are strings',
    ),
    r(RelayErrors.cancelNotFound(), 'rule', 'rfqId names a live RFQ the sender may see'),
    r(RelayErrors.cancelSignatureRequired(), 'rule', 'RELAY_CANCEL_AUTH=signature: a signature is present'),
    r(
      RelayErrors.cancelNotTaker(),
      'rule',
      'RELAY_CANCEL_AUTH=signature: it recovers to the RFQ\'s taker (EIP-191, "Cancel RFQ <rfqId>")',
    ),
    r(RelayErrors.cancelUnavailable(), 'rule', 'the database is down'),
    r(RelayErrors.internalCancel(), 'rule', 'the cancel could not be stored for another reason'),
  ],
  SUBSCRIBE: [
    r(
      RelayErrors.invalidMessage('SUBSCRIBE', '{detail}'),
      'schema',
      'data, when present, is an object; shareToken a string; channels an array of "rfqs", "quotes"',
    ),
  ],
  any: [
    r(
      RelayErrors.rateLimited(0),
      'rule',
      'RATE_LIMIT_PER_MIN messages per IP per fixed minute (every type, PING included); one ERROR, then silence',
    ),
    r(
      RelayErrors.parseError('{detail}'),
      'schema',
      'a frame is JSON (or msgpack when asked) and an object {type, data}',
    ),
    r(RelayErrors.unknownType('{type}'), 'schema', 'type is one of the client-to-relay types'),
    r(RelayErrors.internalMessage(), 'rule', 'a fault of the relay while handling the message'),
  ],
}

export interface CodeDoc {
  code: string
  messages: string[]
}

/** Every ERROR code the relay sends, with its texts (`{name}` varies), in first-use order. */
export function errorCatalogue(): CodeDoc[] {
  const texts: Record<string, Set<string>> = {}
  const add = (code: string, text: string) => (texts[code] ??= new Set()).add(text)
  for (const rules of Object.values(RULES)) for (const rule of rules) add(rule.code, '')
  const all: RelayError[] = [
    RelayErrors.missingFields(),
    RelayErrors.rfqNotFound(),
    RelayErrors.invalidMaker(),
    RelayErrors.tokenInMismatch(),
    RelayErrors.tokenOutMismatch(),
    RelayErrors.takerMismatch(),
    RelayErrors.deadlinePast(),
    RelayErrors.amountInZero(),
    RelayErrors.amountOutZero(),
    RelayErrors.badSignature(),
    RelayErrors.duplicateQuote(),
    RelayErrors.invalidQuoteField('{field}', '{reason}'),
    RelayErrors.makerNotAllowed(),
    RelayErrors.cancelMissingRfqId(),
    RelayErrors.cancelNotFound(),
    RelayErrors.cancelSignatureRequired(),
    RelayErrors.cancelNotTaker(),
    RelayErrors.rateLimited('{N}' as unknown as number),
    RelayErrors.busy('{ms}' as unknown as number),
    RelayErrors.unknownType('{type}'),
    RelayErrors.parseError('{detail}'),
    RelayErrors.invalidMessage('{TYPE}', '{detail}'),
    RelayErrors.internal(),
    RelayErrors.internalMessage(),
    RelayErrors.internalCancel(),
    RelayErrors.unavailable(),
    RelayErrors.cancelUnavailable(),
  ]
  for (const e of all) add(e.code, e.message)
  return Object.entries(texts).map(([code, set]) => ({ code, messages: [...set].filter(Boolean) }))
}

/** The codes, for the ERROR schema's enum. */
export function errorCodes(): string[] {
  return errorCatalogue().map(c => c.code)
}
