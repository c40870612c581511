// Every inbound frame is checked against its message's schema (messages.ts, compiled by ajv once at load).
// What the verdict decides:
//  - not an object, or a type no client may send: PARSE_ERROR / UNKNOWN_MESSAGE_TYPE, as before;
//  - CANCEL_REQUEST and SUBSCRIBE: a frame the schema refuses is answered at once (MISSING_RFQ_ID for the
//    rfqId, else INVALID_MESSAGE naming the field);
//  - QUOTE_SUBMIT: the spec orders its refusals by RFQ state too (an unknown RFQ is named before a bad
//    maker), so a refused frame still goes down the ordered rules, which give the exact text; what the rules
//    leave standing (a malformed signature, a shareToken that is not a string) is answered by `residual`
//    at the signature's place in the order, without a trip to the signature pool. A frame the schema
//    accepts skips the grammar checks on the RFQ's actor (`wellFormed`): they are the schema's.
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv'
import { RelayErrors, type QuoteRefusal, type RelayError } from '../../../actors/errors.js'
import { describeValue, isPlainObject } from '../../../workers/values/index.js'
import { frameSchema, messageSpecs } from './messages.js'
import { errorCodes } from './rules.js'

const Ajv = AjvModule.default ?? AjvModule

export type Inbound =
  | {
      ok: true
      type: 'QUOTE_SUBMIT'
      data: Record<string, unknown>
      wellFormed: boolean
      residual?: Omit<QuoteRefusal, 'ok'>
    }
  | { ok: true; type: 'CANCEL_REQUEST' | 'SUBSCRIBE' | 'PING' | 'PONG'; data: Record<string, unknown> }
  | { ok: false; error: RelayError }

type InboundType = 'QUOTE_SUBMIT' | 'CANCEL_REQUEST' | 'SUBSCRIBE' | 'PING' | 'PONG'

// Patterns are ASCII, so the `u` flag buys nothing and costs time on every string.
const fast = new Ajv({ allErrors: false, unicodeRegExp: false, strict: true })
const thorough = new Ajv({ allErrors: true, unicodeRegExp: false, strict: true })
const specs = messageSpecs(errorCodes()).filter(s => s.direction === 'in')
const check = new Map<string, ValidateFunction>(specs.map(s => [s.type, fast.compile(frameSchema(s))]))
const explain = new Map<string, ValidateFunction>(specs.map(s => [s.type, thorough.compile(frameSchema(s))]))

/** The verdict on one decoded frame. */
export function checkInbound(msg: unknown): Inbound {
  if (!isPlainObject(msg)) return fail(RelayErrors.parseError('expected an object {type, data}'))
  const { type, data } = msg as { type?: unknown; data?: unknown }
  const validate = typeof type === 'string' ? check.get(type) : undefined
  // never stringify a client's value: a deeply nested one overflows the stack, a bigint throws
  if (!validate) return fail(RelayErrors.unknownType(describeValue(type)))
  const t = type as InboundType
  const d = isPlainObject(data) ? data : {}
  if (validate(msg))
    return t === 'QUOTE_SUBMIT' ? { ok: true, type: t, data: d, wellFormed: true } : { ok: true, type: t, data: d }
  const errors = whyNot(t, msg)
  switch (t) {
    case 'QUOTE_SUBMIT':
      return { ok: true, type: t, data: d, wellFormed: false, residual: residual(errors) }
    case 'CANCEL_REQUEST':
      return fail(
        errors.some(e => e.instancePath === '/data/rfqId' || e.instancePath === '/data' || isMissing(e, 'data'))
          ? RelayErrors.cancelMissingRfqId()
          : RelayErrors.invalidMessage(t, detail(errors)),
      )
    case 'SUBSCRIBE':
      return fail(RelayErrors.invalidMessage(t, detail(errors)))
    case 'PING':
    case 'PONG':
      return { ok: true, type: t, data: d } // any data
  }
}

/** The refusal a QUOTE_SUBMIT gets when every ordered rule before the signature passed (messages.ts's order). */
function residual(errors: ErrorObject[]): Omit<QuoteRefusal, 'ok'> {
  const under = (p: string) => errors.filter(e => e.instancePath === p || e.instancePath.startsWith(p + '/'))
  const token = under('/data/shareToken')
  if (token.length) return RelayErrors.invalidMessage('QUOTE_SUBMIT', detail(token))
  if (under('/data/signature').length) return RelayErrors.badSignature()
  return RelayErrors.invalidMessage('QUOTE_SUBMIT', detail(errors))
}

function whyNot(type: string, msg: unknown): ErrorObject[] {
  const v = explain.get(type)!
  v(msg)
  return v.errors ?? []
}

function isMissing(e: ErrorObject, property: string): boolean {
  return e.keyword === 'required' && (e.params as { missingProperty?: string }).missingProperty === property
}

/** "channels/0 must be equal to constant": the first error, by the field's path, without the client's value. */
function detail(errors: ErrorObject[]): string {
  const e = errors[0]
  if (!e) return 'does not match its schema'
  const missing = (e.params as { missingProperty?: string }).missingProperty
  const path = e.instancePath.replace(/^\/data\/?/, '').replace(/^\//, '')
  if (e.keyword === 'required') return `${path ? path + '.' : ''}${missing} is required`
  return `${path || 'data'} ${e.message ?? 'is invalid'}`
}

function fail(error: RelayError): Inbound {
  return { ok: false, error }
}
