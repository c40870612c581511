// What the relay broadcasts, and to whom: RFQ_BROADCAST and QUOTE_BROADCAST as the spec shapes them, published
// on the topic that the one visibility rule allows (a public channel, or a private RFQ's share-token topic).
import type { TemplatedApp } from '../front/uws.js'
import type { RfqBook } from '../../actors/book.js'
import type { AcceptedQuote, Rfq, RfqEvent } from '../../actors/rfqTypes.js'
import { encode, lazyFrames, type RelayMessage } from './codec.js'
import { PLAIN, quoteBroadcastBytes } from './quoteBroadcastBytes.js'

export type Channel = 'rfqs' | 'quotes'

/** The spec's RFQ_BROADCAST data: plain address strings, amounts as strings (null when absent). */
export function rfqBroadcast(rfq: Rfq): RelayMessage {
  return {
    type: 'RFQ_BROADCAST',
    data: {
      rfqId: rfq.id,
      rfq: {
        taker: rfq.taker,
        tokenIn: rfq.tokenIn,
        tokenOut: rfq.tokenOut,
        amountIn: rfq.amountIn === null ? null : rfq.amountIn.toString(),
        amountOut: rfq.amountOut === null ? null : rfq.amountOut.toString(),
        kind: rfq.kind,
        expiry: rfq.expiry,
        visibility: rfq.visibility,
      },
    },
  }
}

export function quoteBroadcast(q: AcceptedQuote): RelayMessage {
  return { type: 'QUOTE_BROADCAST', data: { rfqId: q.rfqId, quote: q.quote, signature: q.signature } }
}

/**
 * QUOTE_BROADCAST as JSON text, written once straight from a locally accepted quote's fields (lever 5 of issue 29):
 * no message object, no JSON.stringify walk, one string. The checks (actors/quoteChecks.ts) made each field a
 * lowercase address, a canonical decimal string or a number, so only the RFQ id and the signature, which no check
 * reduces to a grammar here, are escaped. The same text as JSON.stringify(quoteBroadcast(q))
 * (test/relay/broadcastText.test.ts).
 */
export function quoteBroadcastJson(q: AcceptedQuote): string {
  const x = q.quote
  // one join, not a template literal: the template makes a rope of ~20 cons strings that uWS then flattens into a
  // second copy; join writes the flat string once (~0.8 against ~1.4 µs a quote, measured in one process). An id or
  // signature with nothing JSON escapes goes in between its own quotes, not through JSON.stringify (a string each)
  const idPlain = PLAIN.test(q.rfqId),
    sigPlain = PLAIN.test(q.signature)
  // prettier-ignore
  return [
    '{"type":"QUOTE_BROADCAST","data":{"rfqId":', idPlain ? '"' : '', idPlain ? q.rfqId : JSON.stringify(q.rfqId),
    idPlain ? '"' : '', ',"quote":{"maker":"', x.maker, '","taker":"', x.taker, '","tokenIn":"', x.tokenIn,
    '","tokenOut":"', x.tokenOut, '","amountIn":"', x.amountIn, '","amountOut":"', x.amountOut, '","expiry":', x.expiry,
    ',"nonce":"', x.nonce, '","deadline":', x.deadline, '},"signature":', sigPlain ? '"' : '',
    sigPlain ? q.signature : JSON.stringify(q.signature), sigPlain ? '"' : '', '}}',
  ].join('')
}

/** a topic's name by encoding: the public channels' made once, not a template string a broadcast */
const TOPICS = {
  json: { rfqs: 'json:rfqs', quotes: 'json:quotes' },
  msgpack: { rfqs: 'msgpack:rfqs', quotes: 'msgpack:quotes' },
} as const
const topicFor = (enc: 'json' | 'msgpack', topic: string): string =>
  topic === 'rfqs' || topic === 'quotes' ? TOPICS[enc][topic] : `${enc}:${topic}`

export function broadcast(app: TemplatedApp, book: RfqBook, event: RfqEvent): void {
  let rfqId: string
  let channel: Channel
  if (event.type === 'rfq.created') {
    rfqId = event.rfq.id
    channel = 'rfqs'
  } else if (event.type === 'rfq.quoted') {
    rfqId = event.rfqId
    channel = 'quotes'
  } else return
  const live = book.peek(rfqId)
  const topic = live?.shareTokenHash
    ? `share:${live.shareTokenHash}`
    : live?.rfq.visibility === 'private'
      ? null
      : channel
  if (topic === null) return // private without a token (restored): nobody may see it
  // the message is built only when someone listens (a cluster node applies every other node's quotes)
  const jsonTopic = topicFor('json', topic),
    msgpackTopic = topicFor('msgpack', topic)
  const json = app.numSubscribers(jsonTopic) > 0,
    msgpack = app.numSubscribers(msgpackTopic) > 0
  if (!json && !msgpack) return
  // a quote this node checked is written at once, as bytes in a reused buffer (uWS copies them before publish
  // returns) or as text when its id or signature needs escaping; another node's (or a restored one) goes the
  // general way
  if (event.type === 'rfq.quoted' && !event.remote) {
    if (json) app.publish(jsonTopic, quoteBroadcastBytes(event.quote) ?? quoteBroadcastJson(event.quote), false)
    if (msgpack) app.publish(msgpackTopic, encode('msgpack', quoteBroadcast(event.quote)), true)
    return
  }
  const frames = lazyFrames(event.type === 'rfq.created' ? rfqBroadcast(event.rfq) : quoteBroadcast(event.quote))
  if (json) app.publish(jsonTopic, frames('json'), false)
  if (msgpack) app.publish(msgpackTopic, frames('msgpack'), true)
}
