// The relay's AsyncAPI document as the tests check frames with: its JSON (exactly what GET /asyncapi.json
// serves; test/contract/asyncapi.test.ts holds the two equal) compiled by a separate ajv. `outbound` judges a
// frame the relay sent, `inbound` a frame a client sends; `seen` keeps what passed, per process.
import AjvModule, { type ValidateFunction } from 'ajv'
import { asyncapiDocument } from '../../engine/relay/contract/asyncapi.js'
import { ZERO_ADDRESS } from '../../workers/values/index.js'

const Ajv = AjvModule.default ?? AjvModule

export interface Rule {
  order: number
  code: string
  by: 'schema' | 'rule'
  says: string
}
interface MessageDoc {
  name: string
  payload: { properties: { type: { const: string } } }
  'x-rules'?: Rule[]
  'x-codes'?: { code: string; messages: string[] }[]
}
export interface AsyncApiDoc {
  components: { messages: Record<string, MessageDoc> }
  operations: Record<string, { action: 'send' | 'receive'; messages: { $ref: string }[] }>
  'x-eip712': { domain: Record<string, unknown>; types: Record<string, { name: string; type: string }[]> }
}

/** The document as served (JSON, so nothing of TypeBox's is left). */
export function servedDocument(
  domain = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO_ADDRESS },
): AsyncApiDoc {
  return JSON.parse(JSON.stringify(asyncapiDocument({ domain, version: '0.0.0' })))
}

/** The messages of each direction, from the operations: the relay `send`s what clients receive. */
export function messagesOf(doc: AsyncApiDoc, action: 'send' | 'receive'): MessageDoc[] {
  const names = Object.values(doc.operations)
    .filter(o => o.action === action)
    .flatMap(o => o.messages.map(m => m.$ref.split('/').pop()!))
  return [...new Set(names)].map(n => doc.components.messages[n]!)
}

const doc = servedDocument()
const ajv = new Ajv({ allErrors: true, strict: false })
function validators(
  action: 'send' | 'receive',
): Map<string, { name: string; validate: ValidateFunction; rules: Rule[] }> {
  return new Map(
    messagesOf(doc, action).map(m => [
      m.payload.properties.type.const,
      { name: m.name, validate: ajv.compile(m.payload), rules: m['x-rules'] ?? [] },
    ]),
  )
}
const out = validators('send')
const inn = validators('receive')

/** Codes of ERROR, and the types of each direction, as the document lists them. */
export const documented = {
  codes: doc.components.messages.Error!['x-codes']!.map(c => c.code),
  sent: [...out.keys()],
  received: [...inn.keys()],
}

/** What passed `outbound` in this process, per encoding: frame types, and ERROR codes. */
export const seen = {
  json: { types: new Set<string>(), codes: new Set<string>() },
  msgpack: { types: new Set<string>(), codes: new Set<string>() },
}

/** Why a frame the relay sent breaks the document, or null when it conforms. */
export function outbound(frame: unknown, encoding: 'json' | 'msgpack' = 'json'): string | null {
  const type = (frame as { type?: unknown })?.type
  const m = typeof type === 'string' ? out.get(type) : undefined
  if (!m) return `the relay sent a type the document does not list: ${JSON.stringify(frame).slice(0, 200)}`
  if (!m.validate(frame))
    return `${m.name} breaks its schema: ${ajv.errorsText(m.validate.errors)} in ${JSON.stringify(frame).slice(0, 300)}`
  seen[encoding].types.add(type as string)
  if (type === 'ERROR') seen[encoding].codes.add((frame as { data: { code: string } }).data.code)
  return null
}

/** Whether a client's frame passes its message's schema, and the rules that message documents. */
export function inbound(frame: unknown): { known: boolean; valid: boolean; rules: Rule[] } {
  const type = (frame as { type?: unknown } | null)?.type
  const m = typeof type === 'string' ? inn.get(type) : undefined
  if (!m) return { known: false, valid: false, rules: [] }
  return { known: true, valid: m.validate(frame), rules: m.rules }
}
