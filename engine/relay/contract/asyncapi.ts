// The relay's WebSocket protocol as an AsyncAPI 3.0 document, served at GET /asyncapi.json on RELAY_PORT.
// Everything in it comes from the definitions the relay runs on: the message schemas the codec validates
// with (messages.ts), the refusal rules and ERROR texts (rules.ts, from actors/errors.ts), examples made by
// the relay's own encoders (examples.ts), and the EIP-712 domain and Quote type the relay verifies with
// (x-eip712: a maker in any language hashes from it). The operations are the relay's: it receives what
// clients send and sends what they receive.
import type { Domain } from '../../../workers/sig/types.js'
import { QUOTE_TYPE, EIP712_DOMAIN_TYPE } from '../../../workers/sig/quoteHash.js'
import { exampleFrames } from './examples.js'
import { frameSchema, messageSpecs, QuoteIn, QuoteOut, type MessageSpec } from './messages.js'
import { errorCatalogue, errorCodes, RULES } from './rules.js'

const CHANNEL = '#/channels/relay'

/** `Quote(address maker,...)` as the EIP-712 `types` list: the field order is binding. */
export function typeFields(signature: string): { name: string; type: string }[] {
  const inner = /^\w+\((.*)\)$/.exec(signature)![1]!
  return inner.split(',').map(f => {
    const [type, name] = f.split(' ')
    return { name: name!, type: type! }
  })
}

export function asyncapiDocument(o: { domain: Domain & { chainId: number }; version: string }): object {
  const specs = messageSpecs(errorCodes())
  const examples = exampleFrames(o.domain)
  const messages: Record<string, object> = {}
  for (const spec of specs) messages[spec.name] = messageObject(spec, examples[spec.name] ?? [])
  const refs = Object.fromEntries(specs.map(s => [s.name, { $ref: `#/components/messages/${s.name}` }]))
  const operations: Record<string, object> = {}
  for (const spec of specs) {
    operations[operationId(spec)] = {
      action: spec.direction === 'in' ? 'receive' : 'send',
      channel: { $ref: CHANNEL },
      summary: spec.summary,
      messages: [{ $ref: `${CHANNEL}/messages/${spec.name}` }],
      ...(spec.type === 'SUBSCRIBE'
        ? { reply: { channel: { $ref: CHANNEL }, messages: [{ $ref: `${CHANNEL}/messages/Subscribed` }] } }
        : {}),
      ...(spec.name === 'ClientPing'
        ? { reply: { channel: { $ref: CHANNEL }, messages: [{ $ref: `${CHANNEL}/messages/RelayPong` }] } }
        : {}),
    }
  }
  return {
    asyncapi: '3.0.0',
    id: 'urn:rfq-engine:relay',
    info: {
      title: 'RFQ relay',
      version: o.version,
      description: DESCRIPTION,
    },
    defaultContentType: 'application/json',
    servers: {
      relay: {
        host: '{host}',
        protocol: 'ws',
        description: 'RELAY_PORT: the WebSocket and the relay REST (GET /health, /rfqs, /quotes) on one port',
        variables: { host: { default: 'localhost:8080', description: "the relay's host and RELAY_PORT" } },
      },
    },
    channels: {
      relay: {
        address: '/',
        title: 'The relay connection',
        description:
          'One WebSocket per client: every message in both directions travels on it. Frames are JSON text `{type, data}`, ' +
          'or binary msgpack of the same map with ?encoding=msgpack or the `msgpack` subprotocol (64-bit integers a client sends decode as strings).',
        messages: refs,
        bindings: {
          ws: {
            method: 'GET',
            bindingVersion: '0.1.0',
            query: {
              type: 'object',
              properties: {
                encoding: {
                  type: 'string',
                  enum: ['json', 'msgpack'],
                  default: 'json',
                  description: 'msgpack: every frame is binary msgpack',
                },
                channels: {
                  type: 'string',
                  default: 'rfqs,quotes',
                  description: 'the public broadcasts this socket receives, comma-separated (empty: none)',
                },
                shareToken: {
                  type: 'string',
                  description: "join a private RFQ's broadcasts at connect (its live RFQ_BROADCAST is sent at once)",
                },
              },
            },
            headers: {
              type: 'object',
              properties: {
                'Sec-WebSocket-Protocol': {
                  type: 'string',
                  description: '`msgpack` asks for binary msgpack frames, as ?encoding=msgpack does',
                },
              },
            },
          },
        },
      },
    },
    operations,
    components: {
      messages,
      schemas: { Quote: QuoteIn, BroadcastQuote: QuoteOut },
    },
    'x-eip712': {
      description:
        "Quotes are EIP-712 typed data: sign keccak256(0x1901 || domainSeparator || hashStruct(Quote)). The domain is this relay's " +
        '(as GET /health reports it); the fields of Quote are hashed in exactly this order (another order is another typehash). ' +
        "The QuoteSubmit example is signed under this domain by anvil's account #1 (a public test key): recover it to check your hashing.",
      primaryType: 'Quote',
      domain: {
        name: o.domain.name,
        version: o.domain.version,
        chainId: o.domain.chainId,
        verifyingContract: o.domain.verifyingContract,
      },
      types: { EIP712Domain: typeFields(EIP712_DOMAIN_TYPE), Quote: typeFields(QUOTE_TYPE) },
      encodeType: QUOTE_TYPE,
    },
  }
}

function messageObject(spec: MessageSpec, examples: object[]): object {
  const rules = spec.direction === 'in' ? [...(RULES[spec.type as keyof typeof RULES] ?? []), ...RULES.any] : undefined
  return {
    name: spec.type,
    title: `${spec.type} (${spec.direction === 'in' ? 'client to relay' : 'relay to client'})`,
    summary: spec.summary,
    payload: frameSchema(spec),
    examples: examples.map((payload, i) => ({ name: `${spec.name}${i ? i + 1 : ''}`, payload })),
    ...(rules ? { 'x-rules': rules.map((r, i) => ({ order: i + 1, ...r })) } : {}),
    ...(spec.type === 'ERROR' ? { 'x-codes': errorCatalogue() } : {}),
  }
}

function operationId(spec: MessageSpec): string {
  return (spec.direction === 'in' ? 'receive' : 'send') + spec.name
}

const DESCRIPTION = [
  'The relay broadcasts new RFQs, validates and broadcasts signed EIP-712 quotes, and handles cancels. No handshake and no',
  'authentication: every client receives the public broadcasts and may submit quotes; quotes are authenticated by their',
  'signature (x-eip712). Every message counts against RATE_LIMIT_PER_MIN per IP (PING too). Send PING every 30 s; reconnect',
  'with exponential backoff from 1000 ms. A refused inbound message gets one ERROR, to its sender only: each inbound message',
  'lists in x-rules what is refused, in the order checked (the first failure is the one answered), and whether its schema',
  'says it (`by: schema`) or a rule beyond JSON Schema does (`by: rule`). ERROR lists every code and its texts in x-codes.',
  'Prose: docs/relay.md.',
].join(' ')
