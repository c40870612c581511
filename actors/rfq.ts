// RfqActor: one per live RFQ. It owns the RFQ's quotes and its state machine, so everything that can race on one RFQ
// (two quotes from one maker, a cancel and a fill, a quote and the expiry) is decided here, one message at a time.
// Slow work (signer recovery on the pool, the durable write) leaves the actor and comes back as a message (ctx.deliver),
// so the actor is never held by it; a maker's slot is reserved when its first valid quote comes back, before the
// write, so a burst of the same maker's quotes yields exactly one acceptance.
import type { ActorContext, Answered, Behavior, Reply } from './actorTypes.js'
import type { AcceptedQuote, Address, CancelOutcome, EndedBy, FillOutcome, Hex, NumberedQuote, Rfq,
  RfqEvent, RfqStatus, RfqView, StatusChange } from './rfqTypes.js'
import { checkQuote } from './quoteChecks.js'
import { RelayErrors, refuseQuote, type QuoteRefusal } from './errors.js'
import type { QuoteInFlight, SignedQuoteJson } from './quoteInFlight.js'
import { QuoteTape } from './quoteTape.js'
import { internAddress } from './internAddress.js'
import { REFUSED, STORED, type MakerSlot } from './makerSlot.js'
import { hasExpired, isLive as isLiveAt, isOpen, lowerHex } from '../workers/values/index.js'

/** What an RFQ actor needs from outside; the engine supplies the real ones. */
export interface RfqDeps {
  /** `to` hears the signer (null: none) or the failure; `commitQuote`'s nothing once durable (group commit; the
   *  stored RFQ moves OPEN -> QUOTED), else the refusal or failure. Not promises: a quote's two trips */
  recoverSigner(signed: SignedQuoteJson, to: Answered<Address | null | Error>): void
  commitQuote(quote: NumberedQuote, to: Answered<Error | undefined>): void
  /**
   * Conditional on the RFQ being open in the store. `lost`: it was not (another node, or the fill path, closed
   * it first); the store's status says how it ended. The store is the arbiter between nodes.
   */
  persistStatus(rfqId: string, change: StatusChange): Promise<void | { lost: RfqStatus }>
  /** an expiry the store could not take (it is down): the book keeps it and stores it once the store answers */
  onUnstored?(rfqId: string, at: Date): void
  publish(event: RfqEvent): void
  /** the actor has stopped: its RFQ has left the active store */
  onGone(rfqId: string): void
  /** the store refused a quote because the RFQ is closed there (another node closed it): learn how it ended */
  onStale?(rfqId: string): void
  onWarn?: (msg: string, detail: object) => void
}

export type RfqMsg =
  | { type: 'Arm' }
  | QuoteInFlight
  | { type: 'Describe'; replyTo: Reply<RfqView> }
  | { type: 'Cancel'; replyTo: Reply<CancelOutcome> }
  | { type: 'Fill'; txHash: string; commit: () => Promise<unknown>; replyTo: Reply<FillOutcome<unknown>> }
  | { type: 'Expire' }
  /** another node accepted (stored) a quote for this RFQ: show it here too */
  /** `event`: the event as it arrived, shown as is (no second copy per quote of the venue) */
  | { type: 'RemoteQuoted'; accepted: AcceptedQuote; event?: RfqEvent }
  /** another node (or the store) closed this RFQ */
  | { type: 'RemoteClosed'; status: 'CANCELLED' | 'FILLED' | 'EXPIRED'; at: Date | null; txHash: string | null
      by?: EndedBy | null }

export interface RfqState {
  rfq: Rfq
  /** sha256 of the share token (private RFQs); the token itself is never kept after creation */
  shareTokenHash: string | null
  status: RfqStatus
  /** ms since epoch: the RFQ's own expiry (RFQ_TTL_SECS never ends an RFQ before it) */
  liveUntil: number
  quotes: QuoteTape // its accepted quotes, one string each (quoteTape.ts: fewer objects for the GC to mark)
  /** each maker with a quote here, accepted or being written (rule 6: one a maker), and where that quote stands */
  makers: Map<Address, MakerSlot>
  committing: number
  fillTxHash: string | null
  cancelledAt: Date | null
  endedAt: Date | null
  endedBy: EndedBy | null
}

export function initialRfqState(rfq: Rfq, opts: { shareTokenHash: string | null; quotes?: AcceptedQuote[] }): RfqState {
  const quotes = opts.quotes ?? []
  return {
    rfq, shareTokenHash: opts.shareTokenHash, status: quotes.length ? 'QUOTED' : 'OPEN', liveUntil: rfq.expiry * 1000,
    quotes: new QuoteTape(rfq, quotes), makers: new Map(quotes.map(q => [internAddress(q.quote.maker), STORED])), committing: 0,
    fillTxHash: null, cancelledAt: null, endedAt: null, endedBy: null,
  }
}

export function rfqBehavior(deps: RfqDeps): Behavior<RfqState, RfqMsg> {
  return {
    receive(state, msg, ctx) {          // not async: most messages are handled at once, with no promise per message
      switch (msg.type) {
        case 'Arm':
          ctx.setTimer('expire', Math.max(0, state.liveUntil - ctx.now()), { type: 'Expire' })
          return state
        case 'QuoteSubmitted': return quoteSubmitted(state, msg, ctx, deps)
        case 'SignerRecovered': return signerRecovered(state, msg, ctx, deps)
        case 'QuoteCommitted': return quoteCommitted(state, msg, ctx, deps)
        case 'Describe':
          msg.replyTo(view(state))
          return state
        case 'Cancel': return cancel(state, msg, ctx, deps)
        case 'Fill': return fill(state, msg, ctx, deps)
        case 'Expire': return expire(state, ctx, deps)
        case 'RemoteQuoted': return remoteQuoted(state, msg.accepted, msg.event, deps)
        case 'RemoteClosed': return remoteClosed(state, msg, ctx, deps)
      }
    },
    onStop(state) { deps.onGone(state.rfq.id) },
  }
}

type Ctx = ActorContext<RfqMsg>

/** Rule 1: active and unexpired, right now (a due expiry timer may not have fired yet). */
function isLive(s: RfqState, nowMs: number): boolean {
  return isLiveAt(s.status, s.rfq.expiry, nowMs)
}

function reject(msg: QuoteInFlight, e: Omit<QuoteRefusal, 'ok'>): void {
  msg.replyTo(refuseQuote(e))
}

function quoteSubmitted(state: RfqState, msg: QuoteInFlight, ctx: Ctx, deps: RfqDeps): RfqState {
  const now = ctx.now()
  // a private RFQ without its token is indistinguishable from an unknown one: nothing leaks
  const allowed = state.rfq.visibility === 'public' || (state.shareTokenHash !== null && msg.shareTokenHash === state.shareTokenHash)
  if (!isLive(state, now) || !allowed) { reject(msg, RelayErrors.rfqNotFound()); return state }
  const checked = checkQuote(state.rfq, msg.raw, Math.floor(now / 1000), msg.wellFormed)
  if (!checked.ok) { msg.replyTo(checked); return state }
  if (msg.residual) { reject(msg, msg.residual); return state }     // what the schema refused that no rule named
  deps.recoverSigner(msg.checked(checked.quote, ctx.deliver), msg)
  return state
}

function signerRecovered(state: RfqState, msg: QuoteInFlight, ctx: Ctx, deps: RfqDeps): RfqState {
  const quote = msg.quote!
  if (msg.signer instanceof Error) deps.onWarn?.('signer recovery failed', { rfqId: state.rfq.id, err: msg.signer })
  if (msg.signer !== quote.maker) { reject(msg, RelayErrors.badSignature()); return state }
  // the RFQ may have been cancelled, filled or expired while the signature was on the pool
  if (!isLive(state, ctx.now())) { reject(msg, RelayErrors.rfqNotFound()); return state }
  if (state.makers.has(quote.maker)) { reject(msg, RelayErrors.duplicateQuote()); return state }
  state.makers.set(quote.maker, null) // reserved (the checks' one string for it): later duplicates fail from here on
  state.committing++
  const accepted: NumberedQuote = { rfqId: state.rfq.id, quote, signature: lowerHex(msg.signature) as Hex, receivedAtMs: ctx.now(), arrival: state.makers.size }
  msg.accepted = accepted
  deps.commitQuote(accepted, msg)
  return state
}

function quoteCommitted(state: RfqState, msg: QuoteInFlight, ctx: Ctx, deps: RfqDeps): RfqState {
  const accepted = msg.accepted!, maker = accepted.quote.maker
  state.committing--
  if (msg.error) {
    // a quote of this maker's from another node, met while ours was being written: the store holds that one
    const word = state.makers.get(maker)
    const code = (msg.error as { code?: unknown }).code
    if (code === 'DUPLICATE_QUOTE') {
      // the store already holds this maker's quote for this RFQ (another node, or a replay): a duplicate
      state.makers.set(maker, REFUSED)
      reject(msg, RelayErrors.duplicateQuote())
    } else if (code === 'RFQ_CLOSED') {
      // the store says the RFQ closed before this quote could land (a cancel or fill on another node, or one
      // that won the race here): not stored, so not accepted, and never broadcast
      state.makers.set(maker, REFUSED)
      reject(msg, RelayErrors.rfqNotFound())
      if (isOpen(state.status)) deps.onStale?.(state.rfq.id)
    } else {
      state.makers.delete(maker)   // not stored, so not accepted: the maker may retry
      deps.onWarn?.('quote not stored', { rfqId: state.rfq.id, err: msg.error })
      reject(msg, code === 'UNAVAILABLE' ? RelayErrors.unavailable() : RelayErrors.internal())
    }
    if (typeof word === 'object' && word !== null) remoteQuoted(state, word.accepted, word.event, deps)
  } else {
    state.makers.set(maker, STORED)
    state.quotes.push(accepted)
    if (state.status === 'OPEN') state.status = 'QUOTED'
    // accepted before a cancel/fill/expiry landed: durable and acknowledged, but not broadcast for a gone RFQ
    if (isOpen(state.status)) deps.publish({ type: 'rfq.quoted', rfqId: state.rfq.id, quote: accepted })
    msg.replyTo({ ok: true, quote: accepted })
  }
  stopIfClosed(state, ctx)
  return state
}

async function cancel(state: RfqState, msg: Extract<RfqMsg, { type: 'Cancel' }>, ctx: Ctx, deps: RfqDeps): Promise<RfqState> {
  if (!isOpen(state.status)) { msg.replyTo({ ok: false, code: 'NOT_OPEN', status: state.status }); return state }
  if (!isLive(state, ctx.now())) { msg.replyTo({ ok: false, code: 'NOT_FOUND' }); return state }
  const at = new Date(ctx.now())
  // a refused or failed write is the asker's outcome, not this actor's failure: the state is unchanged
  let result: void | { lost: RfqStatus }
  try { result = await deps.persistStatus(state.rfq.id, { status: 'CANCELLED', at }) } catch (error) {
    msg.replyTo({ ok: false, code: 'FAILED', error })
    return state
  }
  if (result) {           // closed in the store first (another node's cancel or fill): that is how it ended
    msg.replyTo({ ok: false, code: 'NOT_OPEN', status: result.lost })
    deps.onStale?.(state.rfq.id)
    return state
  }
  ended(state, 'CANCELLED', at, 'taker')
  state.cancelledAt = at
  ctx.cancelTimer('expire')
  deps.publish({ type: 'rfq.cancelled', rfqId: state.rfq.id, cancelledAt: at })
  msg.replyTo({ ok: true, cancelledAt: at })
  stopIfClosed(state, ctx)
  return state
}

/** The caller's commit runs inside this turn: nothing else reaches this RFQ until it settles. */
async function fill(state: RfqState, msg: Extract<RfqMsg, { type: 'Fill' }>, ctx: Ctx, deps: RfqDeps): Promise<RfqState> {
  if (!isOpen(state.status)) { msg.replyTo({ ok: false, code: 'NOT_OPEN', status: state.status }); return state }
  // a fill refused by the store (a duplicate txHash, a lost race) or a failed write is the asker's
  // outcome, not this actor's failure: counting it as one would stop the actor after a few refusals
  // and take a live RFQ out of the relay while the database still says OPEN
  let result: unknown
  try { result = await msg.commit() } catch (error) {
    msg.replyTo({ ok: false, code: 'FAILED', error })
    return state
  }
  ended(state, 'FILLED', new Date(ctx.now()), 'taker')
  state.fillTxHash = msg.txHash
  ctx.cancelTimer('expire')
  deps.publish({ type: 'rfq.filled', rfqId: state.rfq.id, txHash: msg.txHash })
  msg.replyTo({ ok: true, result })
  stopIfClosed(state, ctx)
  return state
}

/**
 * Its own expiry ends it, stored as the expiry's end. When the store cannot take it (the database is down) it ends
 * for every reader all the same, and the end is handed to the book to store once the database answers: an end the
 * venue could not serve (no fill could be recorded then), so it is the engine's and judges no maker.
 */
async function expire(state: RfqState, ctx: Ctx, deps: RfqDeps): Promise<RfqState> {
  if (!isOpen(state.status)) return state
  if (!hasExpired(state.rfq.expiry, ctx.now())) { // a timer that fired early: re-arm
    ctx.setTimer('expire', state.liveUntil - ctx.now(), { type: 'Expire' })
    return state
  }
  const at = new Date(state.liveUntil)
  let result: void | { lost: RfqStatus } = undefined
  let by: 'expiry' | 'engine' = 'expiry'
  try {
    result = await deps.persistStatus(state.rfq.id, { status: 'EXPIRED', at, by })
  } catch (err) {
    by = 'engine'
    deps.onWarn?.('EXPIRED status not stored yet: it is stored once the database answers', { rfqId: state.rfq.id, err })
    deps.onUnstored?.(state.rfq.id, at)
  }
  // closed in the store first (a cancel or fill on another node whose word has not arrived): end as it did
  if (result && (result.lost === 'CANCELLED' || result.lost === 'FILLED')) return remoteClosed(state, { type: 'RemoteClosed', status: result.lost, at: null, txHash: null }, ctx, deps)
  ended(state, 'EXPIRED', at, by)
  deps.publish({ type: 'rfq.expired', rfqId: state.rfq.id, endedAt: at, endedBy: by })
  stopIfClosed(state, ctx)
  return state
}

/** Another node stored a quote: this node's readers and sockets see it once (a maker's first stored quote only). */
function remoteQuoted(state: RfqState, accepted: AcceptedQuote, event: RfqEvent | undefined, deps: RfqDeps): RfqState {
  const maker = internAddress(accepted.quote.maker), slot = state.makers.get(maker)
  if (!isOpen(state.status) || slot === STORED) return state
  if (slot === null || typeof slot === 'object') { state.makers.set(maker, { accepted, event }); return state }  // ours is being written
  state.makers.set(maker, STORED)   // new here, or refused here: the store holds this one
  state.quotes.push(accepted)
  if (state.status === 'OPEN') state.status = 'QUOTED'
  deps.publish(event ?? { type: 'rfq.quoted', rfqId: state.rfq.id, quote: accepted, remote: true })
  return state
}

/** Another node closed it (or the store says it is closed): this replica ends the same way, without writing. */
function remoteClosed(state: RfqState, msg: Extract<RfqMsg, { type: 'RemoteClosed' }>, ctx: Ctx, deps: RfqDeps): RfqState {
  if (!isOpen(state.status)) return state
  ctx.cancelTimer('expire')
  const id = state.rfq.id
  if (msg.status === 'CANCELLED') {
    state.cancelledAt = msg.at ?? new Date(ctx.now())
    ended(state, 'CANCELLED', state.cancelledAt, 'taker')
    deps.publish({ type: 'rfq.cancelled', rfqId: id, cancelledAt: state.cancelledAt, remote: true })
  } else if (msg.status === 'FILLED') {
    ended(state, 'FILLED', msg.at ?? new Date(ctx.now()), 'taker')
    state.fillTxHash = msg.txHash
    deps.publish({ type: 'rfq.filled', rfqId: id, txHash: msg.txHash ?? '', remote: true })
  } else {
    const by = msg.by === 'engine' ? 'engine' : 'expiry'
    ended(state, 'EXPIRED', msg.at ?? new Date(Math.min(ctx.now(), state.liveUntil)), by)
    deps.publish({ type: 'rfq.expired', rfqId: id, endedAt: state.endedAt!, endedBy: by, remote: true })
  }
  stopIfClosed(state, ctx)
  return state
}

function ended(state: RfqState, status: 'CANCELLED' | 'FILLED' | 'EXPIRED', at: Date, by: EndedBy): void {
  state.status = status
  state.endedAt = at
  state.endedBy = by
}

/** A closed RFQ leaves the active store once no accepted quote is still being written. */
function stopIfClosed(state: RfqState, ctx: Ctx): void {
  if (!isOpen(state.status) && state.committing === 0) ctx.stop()
}

export function view(state: RfqState): RfqView {
  return {
    rfq: state.rfq, status: state.status, quotes: state.quotes.slice(), quoteCount: state.quotes.length,
    fillTxHash: state.fillTxHash, cancelledAt: state.cancelledAt, endedAt: state.endedAt, endedBy: state.endedBy,
  }
}
