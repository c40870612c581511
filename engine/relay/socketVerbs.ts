// What a relay client may ask over its socket, beyond PING: QUOTE_SUBMIT and CANCEL_REQUEST (through the one RFQ
// service, like the REST API's), and SUBSCRIBE (public channels, and a private RFQ's share token). Accepted quotes
// and cancels get no direct reply (spec): the broadcast reaches the submitter like everyone else.
//   SUBSCRIBE {shareToken?, channels?}            answered SUBSCRIBED
//   QUOTE_SUBMIT {..., shareToken}                the token of the private RFQ being quoted
import type { Logger } from 'pino'
import type { RfqBook } from '../../actors/book.js'
import type { QuoteVerdict, SubmitOptions } from '../../actors/rfqTypes.js'
import type { Answered } from '../../actors/actorTypes.js'
import { hashShareToken } from '../../actors/book.js'
import { RelayErrors } from '../../actors/errors.js'
import { asError } from '../../workers/values/index.js'
import type { RfqService } from '../rfq/service.js'
import { relayFailure, relayQuoteReply, relayRefusal } from '../replies/relay.js'
import { rfqBroadcast } from './broadcasts.js'
import { relayCancelProof, type CancelAuthMode } from './cancelAuth.js'
import { isChannel } from './upgrade.js'
import { addShare, setChannels } from './subscriptions.js'
import { send, sendError, type RelaySocket, type SocketSession } from './socketSession.js'

export interface VerbDeps {
  book: RfqBook
  /** the one RFQ service: CANCEL_REQUEST goes through it like the REST cancel */
  rfqs: RfqService
  cancelAuth: CancelAuthMode
  log: Logger
}

/**
 * `contract`: the schema's verdict on the frame (relay/contract/validate.ts), for the RFQ's actor. The hot path: when
 * no share token has to be looked up (most quotes), the quote goes to the service in this turn and its verdict comes
 * back through a callback; no promise, no async wrapper, no options copy.
 */
export function submitQuote(
  deps: VerbDeps,
  ws: RelaySocket,
  session: SocketSession,
  data: Record<string, unknown>,
  contract: SubmitOptions,
): void {
  const rfqId = typeof data.rfqId === 'string' ? data.rfqId : undefined
  const sent = data.shareToken
  const carried = typeof sent === 'string' && sent !== ''
  const answer = new QuoteAnswer(deps, ws, session, rfqId)
  if (carried || !rfqId || !session.shares.size) {
    if (carried) addShare(ws, session, sent) // joined first: the quote's broadcast reaches this socket on its topic
    // a throw in the service is answered by it (quoteIntake.ts); what escapes is `answer`'s own, not the quote's
    return deps.rfqs.submitQuoteTo(
      data.rfqId as string,
      data.quote,
      data.signature,
      carried ? { shareToken: sent, ...contract } : contract,
      answer,
    )
  }
  tokenForQuote(deps.book, session, rfqId).then(
    shareToken => deps.rfqs.submitQuoteTo(rfqId, data.quote, data.signature, { shareToken, ...contract }, answer),
    (err: unknown) => answer.answered(asError(err)),
  )
}

/**
 * A quote's verdict back to its socket, as one object a quote (not a closure and its context). Accepted: no direct
 * reply, the QUOTE_BROADCAST reaches the submitter. A refusal is the submitter's ERROR; a failure (a store read for
 * the token, a bug) is logged and answered (UNAVAILABLE while the store is down, else INTERNAL).
 */
class QuoteAnswer implements Answered<QuoteVerdict | Error> {
  constructor(
    private readonly deps: VerbDeps,
    private readonly ws: RelaySocket,
    private readonly session: SocketSession,
    private readonly rfqId: string | undefined,
  ) {}

  answered(v: QuoteVerdict | Error): void {
    const { ws, session, rfqId } = this
    if (v instanceof Error) {
      this.deps.log.error({ err: v, rfqId }, 'quote submission failed')
      sendError(ws, session, relayFailure('quote', v), rfqId)
    } else if (!v.ok) sendError(ws, session, relayQuoteReply(v), rfqId)
  }
}

/**
 * The socket's own share token for the RFQ a quote names (it carried none). A cluster node the RFQ's word has not
 * reached reads it first, to know which.
 */
async function tokenForQuote(book: RfqBook, session: SocketSession, rfqId: string): Promise<string | undefined> {
  if (!book.peek(rfqId)) await book.adopt(rfqId)
  const hash = book.peek(rfqId)?.shareTokenHash
  return hash ? session.shares.get(hash) : undefined
}

export async function cancelRequest(
  deps: VerbDeps,
  ws: RelaySocket,
  session: SocketSession,
  data: Record<string, unknown>,
): Promise<void> {
  const rfqId = data.rfqId
  if (typeof rfqId !== 'string' || !rfqId) return sendError(ws, session, RelayErrors.cancelMissingRfqId())
  // this socket's share tokens, and one sent with the request, make it a viewer of those private RFQs
  const sent = typeof data.shareToken === 'string' && data.shareToken ? [hashShareToken(data.shareToken)] : []
  const viewer = { shareTokenHashes: [...session.shares.keys(), ...sent], agentId: null }
  try {
    const outcome = await deps.rfqs.cancel(rfqId, relayCancelProof(deps.cancelAuth, rfqId, data.signature), {
      viewer,
      liveOnly: true,
      mustSee: true,
    })
    if (!outcome.ok) sendError(ws, session, relayRefusal(outcome), rfqId)
  } catch (err) {
    deps.log.error({ err, rfqId }, 'cancel failed')
    sendError(ws, session, relayFailure('cancel', err), rfqId)
  }
}

export async function subscribe(
  deps: VerbDeps,
  ws: RelaySocket,
  session: SocketSession,
  data: Record<string, unknown>,
): Promise<void> {
  if (Array.isArray(data.channels)) setChannels(ws, session, new Set(data.channels.filter(isChannel)))
  const rfqIds: string[] = []
  if (typeof data.shareToken === 'string' && data.shareToken) {
    addShare(ws, session, data.shareToken)
    try {
      const id = await announceShared(deps.book, ws, session, data.shareToken)
      if (id) rfqIds.push(id)
    } catch (err) {
      deps.log.error({ err }, "SUBSCRIBE could not look up its share token's RFQ") // answered, without that RFQ
    }
  }
  send(ws, session, { type: 'SUBSCRIBED', data: { channels: [...session.channels], rfqIds } })
}

/** SUBSCRIBE's token: its live RFQ is announced to this socket (on the token's topic already); its id. */
async function announceShared(
  book: RfqBook,
  ws: RelaySocket,
  session: SocketSession,
  token: string,
): Promise<string | undefined> {
  // the RFQ was announced before this maker had its token: announce it again, to this socket only
  const rfq = book.rfqForShareToken(token)
  if (rfq) {
    send(ws, session, rfqBroadcast(rfq))
    return rfq.id
  }
  // a cluster node the creation's word has not reached yet reads it from the store (the creator's answer,
  // and so the token, can beat the word); joining the book announced it on the token's topic, to this socket
  return (await book.adoptShared(token))?.id
}
