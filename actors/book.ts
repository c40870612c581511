// RfqBook: the directory of live RFQ actors (RfqDirectory). It spawns one RfqActor per RFQ, finds
// it by id, keeps the per-taker counts and the share-token index, and forgets an RFQ when its
// actor stops (cancel, fill or its own expiry). Every change to a live RFQ is a message to
// its actor; the book itself holds only indexes. An end the store could not take when it happened
// (the database was down) is kept by UnstoredEnds and stored once the database answers.
import { createHash } from 'node:crypto'
import type { ActorRef, ActorSystem } from './mailbox.js'
import { ActorStopped } from './mailbox.js'
import { EventBus } from './events.js'
export type { StoredEnd, ClusterStorePort } from './clusterSync.js'
export type { RestoredRfq } from './rfqTypes.js'
import type {
  AcceptedQuote, CancelOutcome, CreateOutcome, FillOutcome, QuoteTerms, QuoteVerdict, RestoredRfq, Rfq,
  RfqDirectory, SubmitOptions, RfqEvent, RfqView, VerdictTo,
} from './rfqTypes.js'
import { initialRfqState, rfqBehavior, type RfqDeps, type RfqMsg } from './rfq.js'
import { RelayErrors, refuseQuote } from './errors.js'
import { QuoteInFlight, withReply } from './quoteInFlight.js'
import { ClusterSync, type ClusterStorePort } from './clusterSync.js'
import { ANONYMOUS, canSee } from './visibility.js'
import { UnstoredEnds, type UnstoredEnd } from './unstoredEnds.js'
import { asError, isPlainObject } from '../workers/values/index.js'

export interface RfqStorePort {
  /** with `maxActive`, the insert is the cap's arbiter: it answers whether the creator had room, and its count */
  insertRfq(rfq: Rfq, shareTokenHash: string | null, maxActive?: number): Promise<void | CreateOutcome>
  persistStatus: RfqDeps['persistStatus']
  commitQuote: RfqDeps['commitQuote']
  /** EXPIRED by the engine for those still open (the heal of ends the store could not take); throws while it is down */
  storeEnds(ends: readonly UnstoredEnd[]): Promise<void>
}

export interface BookDeps {
  store: RfqStorePort
  /** cluster mode: what the book reads from the shared store when the cluster's word leaves an RFQ open */
  clusterStore?: ClusterStorePort
  recoverSigner: RfqDeps['recoverSigner']
  askTimeoutMs?: number
  /** the pause between two offers of unstored ends to the store (default 1000 ms) */
  healRetryMs?: number
  onWarn?: (msg: string, detail: object) => void
}

interface LiveEntry { ref: ActorRef<RfqMsg>; rfq: Rfq; shareTokenHash: string | null; quotes: number; terms?: QuoteTerms; seenByAll: boolean }

// An RFQ that keeps failing is stopped rather than restarted: its state lives in Postgres and a
// client can read it there; three failures in ten seconds means something is wrong with it.
const rfqSupervision = { intensity: 3, periodMs: 10_000 }

/** submitQuoteTo's verdict as a promise (REST, and callers that await): an Error rejects it */
export function verdictOf(submit: (done: VerdictTo) => void): Promise<QuoteVerdict> {
  return new Promise((resolve, reject) => submit({ answered: v => (v instanceof Error ? reject(v) : resolve(v)) }))
}

export function hashShareToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

export class RfqBook implements RfqDirectory {
  readonly events = new EventBus<RfqEvent>((err, e) =>
    this.deps.onWarn?.('an RFQ event subscriber threw: a bug; the other subscribers got the event', { type: e.type, err }))
  private readonly live = new Map<string, LiveEntry>()
  /** live RFQs per creator: the agent that made it, or its taker wallet when no agent did */
  private readonly byCreator = new Map<string, number>()
  private readonly byShareHash = new Map<string, string>()
  private liveQuotes = 0
  /** what everyone may see of the active store: public RFQs and their quotes (the relay's /health counts) */
  private readonly seenByAll = { rfqs: 0, quotes: 0 }
  /** cluster mode: keeps this book in step with the other nodes' events and the store */
  readonly sync: ClusterSync | undefined
  private readonly askTimeoutMs: number
  private readonly actorDeps: RfqDeps
  /** ends the store could not take when they happened, offered to it again until it does */
  readonly unstored: UnstoredEnds

  constructor(private readonly system: ActorSystem, private readonly deps: BookDeps) {
    this.askTimeoutMs = deps.askTimeoutMs ?? 10_000
    this.unstored = new UnstoredEnds(system, { storeEnds: ends => deps.store.storeEnds(ends),
      retryMs: deps.healRetryMs ?? 1000 })
    this.actorDeps = {
      recoverSigner: deps.recoverSigner,
      commitQuote: deps.store.commitQuote,
      persistStatus: deps.store.persistStatus,
      publish: e => {
        if (e.type === 'rfq.quoted') {
          const en = this.live.get(e.rfqId)
          if (en) { en.quotes++; this.liveQuotes++; if (en.seenByAll) this.seenByAll.quotes++ }
        }
        this.events.publish(e)
      },
      onGone: id => this.forget(id),
      onUnstored: (rfqId, at) => this.unstored.add({ rfqId, at }),
      onStale: id => void this.sync?.learnEnd(id),
      onWarn: deps.onWarn,
    }
    if (deps.clusterStore) {
      this.sync = new ClusterSync(deps.clusterStore, {
        entry: id => this.live.get(id)?.ref, ids: () => this.live.keys(), events: this.events, onWarn: deps.onWarn,
        spawn: r => this.spawn(r.rfq, r.shareTokenHash, r.quotes),
      })
    }
  }

  async create(rfq: Rfq, opts: { maxActive?: number } = {}): Promise<CreateOutcome> {
    if (this.live.has(rfq.id)) throw new Error(`RFQ ${rfq.id} is already live`)
    const shareTokenHash = rfq.shareToken ? hashShareToken(rfq.shareToken) : null
    // the cap is the store's to arbitrate (one database for every node); a refusal touches nothing live
    const stored = await this.deps.store.insertRfq(rfq, shareTokenHash, opts.maxActive)
    if (stored && !stored.ok) return stored
    this.spawn(rfq, shareTokenHash, [])
    this.events.publish({ type: 'rfq.created', rfq, shareTokenHash })
    return { ok: true, activeCount: stored ? stored.activeCount : this.activeCount(creatorOf(rfq)) }
  }

  /** Brings back RFQs that were live when the engine stopped (no insert, no broadcast); answers those it took. */
  restore(rfqs: readonly RestoredRfq[]): RestoredRfq[] {
    const taken = rfqs.filter(r => !this.live.has(r.rfq.id) && !this.sync?.hasEnded(r.rfq.id))
    for (const r of taken) this.spawn(r.rfq, r.shareTokenHash, r.quotes)
    return taken
  }

  async describe(id: string): Promise<RfqView | undefined> {
    const e = this.live.get(id)
    if (!e) return undefined
    try {
      return await e.ref.ask<RfqView>(replyTo => ({ type: 'Describe', replyTo }), this.askTimeoutMs)
    } catch (err) {
      if (err instanceof ActorStopped) return undefined
      throw err
    }
  }

  async listLive(): Promise<RfqView[]> {
    const views = await Promise.all([...this.live.keys()].map(id => this.describe(id)))
    return views.filter((v): v is RfqView => v !== undefined)
      .sort((a, b) => b.rfq.createdAt.getTime() - a.rfq.createdAt.getTime() || (a.rfq.id < b.rfq.id ? 1 : -1))
  }

  submitQuote(rfqId: unknown, quote: unknown, signature: unknown, opts: SubmitOptions = {}): Promise<QuoteVerdict> {
    return verdictOf(done => this.submitQuoteTo(rfqId, quote, signature, opts, done))
  }

  /** The hot path: no promise a quote; the verdict comes from the RFQ's actor, or at once when it is at hand. */
  submitQuoteTo(rfqId: unknown, quote: unknown, signature: unknown, opts: SubmitOptions, done: VerdictTo): void {
    if (typeof rfqId !== 'string' || rfqId === '' || !isPlainObject(quote)
      || typeof signature !== 'string' || signature === '')
      return done.answered(refuseQuote(RelayErrors.missingFields()))
    const e = this.live.get(rfqId)
    if (e) return this.askQuote(e.ref, rfqId, quote, signature, opts, done)
    if (!this.sync) return done.answered(refuseQuote(RelayErrors.rfqNotFound()))
    this.sync.adopt(rfqId).then(() => {       // cluster mode: its creation's word may not have come yet
      const adopted = this.live.get(rfqId)
      if (adopted) this.askQuote(adopted.ref, rfqId, quote, signature, opts, done)
      else done.answered(refuseQuote(RelayErrors.rfqNotFound()))
    }, (err: unknown) => done.answered(asError(err)))
  }

  private askQuote(ref: ActorRef<RfqMsg>, rfqId: string, raw: Record<string, unknown>, signature: string,
    opts: SubmitOptions, done: VerdictTo): void {
    const shareTokenHash = typeof opts.shareToken === 'string' ? hashShareToken(opts.shareToken) : null
    const msg = new QuoteInFlight(rfqId, raw, signature, shareTokenHash, opts.wellFormed === true, opts.residual)
    ref.askTo(withReply, msg, this.askTimeoutMs, this.quoteAskFailed, done)
  }

  /** a quote's ask that failed: no closure a quote (asks.ts) */
  private readonly quoteAskFailed = (err: unknown, msg: QuoteInFlight): QuoteVerdict => {
    if (err instanceof ActorStopped) return refuseQuote(RelayErrors.rfqNotFound())   // it left while we asked
    this.deps.onWarn?.('quote submission failed', { rfqId: msg.rfqId, err })
    return refuseQuote(RelayErrors.internal())
  }

  async cancel(rfqId: string): Promise<CancelOutcome> {
    const e = this.live.get(rfqId)
    if (!e) return { ok: false, code: 'NOT_FOUND' }
    try {
      const outcome = await e.ref.ask<CancelOutcome>(replyTo => ({ type: 'Cancel', replyTo }), this.askTimeoutMs)
      if (outcome.ok) this.forget(rfqId)     // gone for every reader from the moment the caller hears so
      if (!outcome.ok && outcome.code === 'FAILED') throw outcome.error   // the caller's error; the actor is unharmed
      return outcome
    } catch (err) {
      if (err instanceof ActorStopped) return { ok: false, code: 'NOT_FOUND' }
      throw err
    }
  }

  async fill<R>(rfqId: string, txHash: string, commit: () => Promise<R>): Promise<FillOutcome<R>> {
    const e = this.live.get(rfqId)
    if (!e) return { ok: false, code: 'NOT_FOUND' }
    try {
      const outcome = await e.ref.ask<FillOutcome<R>>(replyTo => ({ type: 'Fill', txHash, commit, replyTo: replyTo as (v: FillOutcome<unknown>) => void }), this.askTimeoutMs)
      if (outcome.ok) this.forget(rfqId)
      // a refused commit (a duplicate txHash, a lost race) is the caller's error, answered by the actor as an
      // outcome: the actor never counts it as a failure of its own
      if (!outcome.ok && outcome.code === 'FAILED') throw outcome.error
      return outcome
    } catch (err) {
      if (err instanceof ActorStopped) return { ok: false, code: 'NOT_FOUND' }
      throw err
    }
  }

  activeCount(creator: string): number {
    return this.byCreator.get(creator) ?? 0
  }

  /** The live RFQ a share token opens, if any: how a private RFQ's makers find it. */
  rfqForShareToken(token: string): Rfq | undefined {
    const id = this.byShareHash.get(hashShareToken(token))
    return id === undefined ? undefined : this.live.get(id)?.rfq
  }

  /** Cluster mode: a live RFQ whose creation's word has not reached this node is read from the store. */
  adopt(id: string): Promise<boolean> {
    return this.sync ? this.sync.adopt(id) : Promise.resolve(false)
  }

  /** Cluster mode: the live RFQ a token opens that this book lacks (its creation's word has not arrived) is read from the store. */
  async adoptShared(token: string): Promise<Rfq | undefined> {
    const id = this.sync && await this.sync.adoptShared(hashShareToken(token))
    return id === undefined ? undefined : this.live.get(id)?.rfq
  }

  /** The RFQ's visibility and share-token check without asking its actor (REST reads, broadcasts, once per quote). */
  peek(id: string): { readonly rfq: Rfq; readonly shareTokenHash: string | null } | undefined {
    return this.live.get(id)
  }

  /** A live RFQ's terms as its quotes carry them, made once (cluster mode: a quote travels without them). */
  quoteTerms(id: string): QuoteTerms | undefined {
    const e = this.live.get(id)
    if (!e) return undefined
    const { rfq } = e
    return e.terms ??= { id: rfq.id, taker: rfq.taker, tokenIn: rfq.tokenIn, tokenOut: rfq.tokenOut,
      amountIn: rfq.amountIn === null ? null : rfq.amountIn.toString(), amountOut: rfq.amountOut === null ? null : rfq.amountOut.toString() }
  }

  get activeRfqs(): number { return this.live.size }
  /** RFQ actors that stopped with their RFQ still open (each one a bug, logged and ended in the store) */
  abnormalStops = 0
  /** quotes held by RFQs in the active store */
  get totalQuotes(): number { return this.liveQuotes }
  /** the active store as everyone may see it: public RFQs and their quotes (counts that never move on a private event) */
  get publicCounts(): { readonly rfqs: number; readonly quotes: number } { return { ...this.seenByAll } }

  private spawn(rfq: Rfq, shareTokenHash: string | null, quotes: AcceptedQuote[]): void {
    const state = initialRfqState(rfq, { shareTokenHash, quotes })
    // past the supervision's intensity the actor gives up (a bug, never a refusal): its RFQ is ended
    // (a shutdown's stop is not an escalation, so RFQs live at shutdown stay live for the restart)
    const ref = this.system.spawn(`rfq:${rfq.id}`, rfqBehavior(this.actorDeps), state,
      { supervision: rfqSupervision, onEscalate: (_name, err) => this.endAbnormally(rfq.id, err) })
    const seenByAll = canSee({ ...rfq, shareTokenHash }, ANONYMOUS)
    this.live.set(rfq.id, { ref, rfq, shareTokenHash, quotes: quotes.length, seenByAll })
    this.liveQuotes += quotes.length
    if (seenByAll) { this.seenByAll.rfqs++; this.seenByAll.quotes += quotes.length }
    const creator = creatorOf(rfq)
    this.byCreator.set(creator, (this.byCreator.get(creator) ?? 0) + 1)
    if (shareTokenHash) this.byShareHash.set(shareTokenHash, rfq.id)
    ref.tell({ type: 'Arm' })
  }

  /**
   * An RFQ actor stopped after repeated failures while its RFQ was open: the RFQ is ended as EXPIRED by the engine,
   * in the store and for every reader, so the relay and the database never disagree about a live RFQ. An end the
   * engine chose judges no maker. When the store cannot take it now, it is stored once the database answers.
   */
  private endAbnormally(id: string, err: unknown): void {
    this.abnormalStops++
    const at = new Date(this.system.now())
    this.deps.onWarn?.('RFQ actor stopped after repeated failures: the RFQ is ended as EXPIRED by the engine',
      { rfqId: id, err })
    this.deps.store.persistStatus(id, { status: 'EXPIRED', at, by: 'engine' }).catch((err: unknown) => {
      this.deps.onWarn?.('EXPIRED status not stored yet after an abnormal stop: it is stored once the database answers',
        { rfqId: id, err })
      this.unstored.add({ rfqId: id, at })
    })
    this.events.publish({ type: 'rfq.expired', rfqId: id, endedAt: at, endedBy: 'engine' })
  }

  private forget(id: string): void {
    const e = this.live.get(id)
    if (!e) return
    this.live.delete(id)
    this.liveQuotes -= e.quotes
    if (e.seenByAll) { this.seenByAll.rfqs--; this.seenByAll.quotes -= e.quotes }
    const creator = creatorOf(e.rfq)
    const n = (this.byCreator.get(creator) ?? 1) - 1
    if (n > 0) this.byCreator.set(creator, n)
    else this.byCreator.delete(creator)
    if (e.shareTokenHash) this.byShareHash.delete(e.shareTokenHash)
    this.sync?.markEnded(id)
  }
}

/** Whom an RFQ's cap counts against: the agent that created it, not whoever claims the same wallet. */
export function creatorOf(rfq: Pick<Rfq, 'agentId' | 'taker'>): string {
  return rfq.agentId ?? rfq.taker
}
