// The relay's AsyncAPI document: served on the relay port, valid for @asyncapi/parser, its examples valid
// for their own schemas, its EIP-712 section the one the relay verifies with (an independent signer's
// quote hashed from the document alone is accepted), and docs/relay.md listing exactly its types and codes.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import AjvModule from 'ajv'
import { Parser } from '@asyncapi/parser'
import { recoverTypedDataAddress } from 'viem'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { repoRoot } from '../../engine/paths.js'
import { Client, account, createRfq } from '../relay/helpers.js'
import { documented, messagesOf, servedDocument } from './conformance.js'
import { byJson } from '../helpers/order.js'

const Ajv = AjvModule.default ?? AjvModule
const CONTRACT = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
/** spectral's DiagnosticSeverity.Error (its enum comes in two copies of @stoplight/types, which do not compare) */
const isError = (d: { severity: number }) => d.severity === 0

describe('the relay AsyncAPI document', () => {
  let t: TestEngine
  let doc: any
  before(async () => {
    t = await startTestEngine({ RATE_LIMIT_PER_MIN: '100000', SPOT_RFQ_ADDRESS: CONTRACT, CHAIN_ID: '31337' })
    const res = await fetch(`${t.relay}/asyncapi.json`)
    assert.equal(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /application\/json/)
    doc = (await res.json()) as typeof doc
  })
  after(() => t.stop())

  test('GET /asyncapi.json on the relay port is valid AsyncAPI 3.0 for @asyncapi/parser', async () => {
    assert.equal(doc.asyncapi, '3.0.0')
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc))
    assert.deepEqual(
      diagnostics.filter(isError).map(d => `${d.path.join('.')}: ${d.message}`),
      [],
    )
    assert.ok(document, 'parsed')
    assert.deepEqual(
      document
        .messages()
        .all()
        .map(m => m.name())
        .sort(byJson),
      Object.values(doc.components.messages)
        .map((m: any) => m.name)
        .sort(byJson),
    )
    // and a broken one is refused: the check can fail
    const broken = structuredClone(doc)
    broken.operations.receiveQuoteSubmit.action = 'fly'
    assert.ok((await new Parser().parse(JSON.stringify(broken))).diagnostics.some(isError))
  })

  test("it is the document the tests check frames with, for this relay's domain", async () => {
    const h = (await (await fetch(`${t.relay}/health`)).json()) as { domain: Record<string, unknown>; version: string }
    assert.deepEqual(doc['x-eip712'].domain, h.domain)
    assert.equal(doc.info.version, h.version)
    const ours = servedDocument(h.domain as never) as any
    ours.info.version = h.version
    assert.deepEqual(doc, ours)
  })

  test('every message has an example, and every example passes its own schema', () => {
    const ajv = new Ajv({ strict: false })
    for (const [name, m] of Object.entries<any>(doc.components.messages)) {
      assert.ok(m.examples?.length, `${name} has an example`)
      const validate = ajv.compile(m.payload)
      for (const e of m.examples)
        assert.ok(validate(e.payload), `${name} example ${e.name}: ${ajv.errorsText(validate.errors)}`)
    }
  })

  test("the spec's message types in both directions, SUBSCRIBE/SUBSCRIBED beside them, and the query options", () => {
    assert.deepEqual([...documented.received].sort(), ['CANCEL_REQUEST', 'PING', 'PONG', 'QUOTE_SUBMIT', 'SUBSCRIBE'])
    assert.deepEqual([...documented.sent].sort(), [
      'ERROR',
      'PING',
      'PONG',
      'QUOTE_BROADCAST',
      'RFQ_BROADCAST',
      'SUBSCRIBED',
    ])
    assert.deepEqual(Object.keys(doc.channels.relay.bindings.ws.query.properties).sort(), [
      'channels',
      'encoding',
      'shareToken',
    ])
    assert.equal(
      messagesOf(doc, 'receive').length + messagesOf(doc, 'send').length,
      Object.keys(doc.components.messages).length,
    )
  })

  test("x-eip712 carries the spec's Quote field order; a quote hashed from the document alone is accepted", async () => {
    const e = doc['x-eip712']
    assert.deepEqual(
      e.types.Quote.map((f: { name: string }) => f.name),
      ['maker', 'taker', 'tokenIn', 'tokenOut', 'amountIn', 'amountOut', 'expiry', 'nonce', 'deadline'],
    )
    assert.deepEqual(e.domain, { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: CONTRACT })
    // the example is a test vector: its signature recovers to its maker under the served domain
    const ex = doc.components.messages.QuoteSubmit.examples[0].payload.data
    const typed = (q: any) => ({
      domain: { ...e.domain, chainId: BigInt(e.domain.chainId) },
      types: { Quote: e.types.Quote },
      primaryType: 'Quote' as const,
      message: Object.fromEntries(
        e.types.Quote.map((f: { name: string; type: string }) => [
          f.name,
          f.type === 'uint256' ? BigInt(q[f.name]) : q[f.name],
        ]),
      ),
    })
    assert.equal(
      (await recoverTypedDataAddress({ ...typed(ex.quote), signature: ex.signature })).toLowerCase(),
      ex.quote.maker,
    )
    // a viem account signs from the document's types and domain only; the relay broadcasts it
    const maker = account()
    const rfq = await createRfq(t)
    const quote = {
      maker: maker.address.toLowerCase(),
      taker: rfq.taker,
      tokenIn: rfq.tokenIn,
      tokenOut: rfq.tokenOut,
      amountIn: '5',
      amountOut: '7',
      expiry: rfq.expiry,
      nonce: '3',
      deadline: Math.floor(Date.now() / 1000) + 60,
    }
    const c = await Client.open(t.relayWs)
    c.send('QUOTE_SUBMIT', { rfqId: rfq.id, quote, signature: await maker.signTypedData(typed(quote)) })
    const b = await c.next(f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfq.id)
    assert.equal(b.data.quote.maker, quote.maker)
    await c.close()
  })

  test("docs/relay.md lists exactly the document's message types and ERROR codes", () => {
    const md = readFileSync(join(repoRoot, 'docs/relay.md'), 'utf8')
    const section = (title: string) => {
      const s = md.split(/^### /m).find(x => x.startsWith(title))
      assert.ok(s, `docs/relay.md has a "### ${title}" section`)
      return s
        .split('\n')
        .filter(l => l.startsWith('| `'))
        .map(l =>
          l
            .split('|')
            .slice(1, 3)
            .map(c => c.trim()),
        )
    }
    const rows = section('Messages')
    const byDirection = (d: string) =>
      rows
        .filter(([, dir]) => dir === d)
        .map(([t]) => t!.replace(/`/g, ''))
        .sort()
    assert.deepEqual(byDirection('client to relay'), [...documented.received].sort())
    assert.deepEqual(byDirection('relay to client'), [...documented.sent].sort())
    assert.deepEqual(
      section('ERROR codes')
        .map(([c]) => c!.replace(/`/g, ''))
        .sort(),
      [...documented.codes].sort(),
    )
    assert.match(md, /\/asyncapi\.json/)
    assert.match(readFileSync(join(repoRoot, 'README.md'), 'utf8'), /\/asyncapi\.json/)
  })
})
