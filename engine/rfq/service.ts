// The one RFQ service: the REST API and the relay create, read, cancel, fill and quote RFQs through these
// functions, so "live actor or stored row" and the visibility rule are decided here once. A live RFQ
// changes inside its actor's turn (the book); one no longer live by a conditional update, so a cancel
// racing a fill has one winner either way. Every function answers an outcome; surfaces map it.
//
// The fill rule (one rule for the CLI's status, the agent fill and the recorder): an RFQ can be filled
// while it is neither FILLED nor CANCELLED and the fill happened before its expiry. "Happened" is the
// block time of the fill's transaction when fills are verified on chain (recording may lag mining),
// else the time the fill is recorded. An RFQ shown EXPIRED is therefore never filled later.
import type { Logger } from 'pino'
import type { FillInput, Rfq, RfqDirectory, RfqStatus } from '../../actors/rfqTypes.js'
import type { Admission } from './admission.js'
import type { Agent } from '../store/agents.js'
import type { Sql, Tx } from '../store/db.js'
import type { FillVerifier } from '../chain/verifyFill.js'
import { canSee, ownsRfq, type RfqAccess, type Viewer } from '../../actors/visibility.js'
import { cancelPersisted, effectiveStatus, fillExists, markFilled, rfqById, type RfqRow } from '../store/rfqQueries.js'
import { logActivity } from '../store/agents.js'
import { recordFill, fillRecordedEvent, type FillRecord } from '../fills/record.js'
import { refuse, Rollback, type RfqOutcome, type Refusal } from './outcomes.js'
import { newRfqId, newShareToken, type RfqRequest } from './request.js'
import { admittedQuotes } from './quoteIntake.js'
import { isLive, isOpen, toUnixSeconds } from '../../workers/values/index.js'
import type { FlowMetrics } from '../metrics/flow.js'

/** An RFQ as `find` found it: its live view when the book holds it, else its stored row; who may see and own it. */
export interface FoundRfq {
  /** the live view (with its quotes) when the RFQ is in the book */
  live: Awaited<ReturnType<RfqDirectory['describe']>>
  row: RfqRow | undefined
  taker: string
  expiry: number
  access: RfqAccess
}

/** How a cancel proves its caller: an agent key, a recovered taker signature, or the relay's open mode. */
export type CancelProof =
  | { kind: 'agent'; agent: Agent }
  | { kind: 'signer'; address: string | null }
  | { kind: 'open' }
  /** the proof could not even be read; answered only once the caller may know the RFQ exists */
  | { kind: 'refused'; refusal: Refusal }

export interface CancelOptions {
  viewer: Viewer
  liveOnly?: boolean
  mustSee?: boolean
}

export interface FillBody {
  txHash: `0x${string}`
  maker: `0x${string}`
  amountIn: bigint
  amountOut: bigint
  amountInUsd: number
}

export interface RfqService {
  /**
   * A new RFQ for an agent, under the agent's cap on active RFQs (the store arbitrates it for the venue): stored,
   * live in the book, announced (rfq.created: the relay and the SSE feed), the agent's activity logged.
   */
  create(agent: Agent, request: RfqRequest): Promise<RfqOutcome<{ rfq: Rfq; activeCount: number }>>
  find(id: string, viewer?: Viewer): Promise<FoundRfq | undefined>
  /**
   * `liveOnly`: the relay's CANCEL_REQUEST reaches live RFQs only. `mustSee`: the caller must see the RFQ
   * whatever its proof (the relay, where the open mode would otherwise let an id alone cancel a private RFQ).
   */
  cancel(id: string, proof: CancelProof, opts: CancelOptions): Promise<RfqOutcome<{ cancelledAt: Date }>>
  fill(id: string, agent: Agent, body: FillBody): Promise<RfqOutcome<{ fill: FillRecord }>>
  submitQuote: RfqDirectory['submitQuote']
  /** submitQuote through a callback, no promise a quote: the relay's way */
  submitQuoteTo: RfqDirectory['submitQuoteTo']
}

export interface RfqServiceDeps {
  sql: Sql
  book: RfqDirectory
  verifyFill?: FillVerifier
  admission?: Admission
  /** a creator's cap on active RFQs (MAX_ACTIVE_RFQS_PER_WALLET); none when absent */
  maxActive?: number
  log?: Pick<Logger, 'warn'>
  flow?: FlowMetrics // each quote's verdict and latency, for /metrics
}

export function createRfqService(deps: RfqServiceDeps): RfqService {
  const { sql, book } = deps

  async function create(agent: Agent, r: RfqRequest): Promise<RfqOutcome<{ rfq: Rfq; activeCount: number }>> {
    const now = Date.now()
    const rfq: Rfq = {
      id: newRfqId(now), // the same instant as createdAt: the id names the RFQ's partition (its UTC day)
      taker: agent.agentWallet,
      tokenIn: r.tokenIn,
      tokenOut: r.tokenOut,
      kind: r.kind,
      amountIn: r.amountIn,
      amountOut: r.amountOut,
      expiry: Math.floor(now / 1000) + r.ttlSeconds,
      visibility: r.visibility,
      allowedMakers: r.allowedMakers,
      shareToken: r.visibility === 'private' ? newShareToken() : null,
      createdAt: new Date(now),
      agentId: agent.id, // the cap is the agent's, not the wallet's: a wallet can be claimed
    }
    const outcome = await book.create(rfq, deps.maxActive === undefined ? {} : { maxActive: deps.maxActive })
    if (!outcome.ok) return outcome
    await logActivity(sql, {
      agentId: agent.id,
      action: 'rfq.create',
      rfqId: rfq.id,
      detail: { visibility: rfq.visibility, kind: rfq.kind },
    }).catch((err: unknown) => deps.log?.warn({ err, rfqId: rfq.id }, 'agent activity not logged'))
    return { ok: true, rfq, activeCount: outcome.activeCount }
  }

  /** Live first (it has the quotes), then storage; undefined when unknown or unseen by `viewer`. */
  async function find(id: string, viewer?: Viewer): Promise<FoundRfq | undefined> {
    const peeked = book.peek(id)
    if (peeked && viewer && !canSee({ ...peeked.rfq, shareTokenHash: peeked.shareTokenHash }, viewer)) return undefined
    const live = await book.describe(id)
    if (live)
      return {
        live,
        row: undefined,
        taker: live.rfq.taker,
        expiry: live.rfq.expiry,
        access: { ...live.rfq, shareTokenHash: peeked?.shareTokenHash ?? null },
      }
    const row = await rfqById(sql, id)
    if (!row || (viewer && !canSee(row, viewer))) return undefined
    // open in the store, not live here: a cluster node the creation's word has not reached yet (a taker may
    // create at one node and cancel or fill at another within a millisecond); it joins this node's book
    if (isLive(row.status, row.expiry, Date.now()) && (await book.adopt?.(id))) {
      const adopted = await book.describe(id)
      if (adopted)
        return { live: adopted, row: undefined, taker: adopted.rfq.taker, expiry: adopted.rfq.expiry, access: row }
    }
    return { live: undefined, row, taker: row.taker, expiry: row.expiry, access: row }
  }

  /**
   * Where the RFQ is now, for a 409 (so never open): storage's word when it has closed it (on a cluster node the
   * store can know before this node's actor does), else the live actor's, else `otherwise`.
   */
  async function statusNow(id: string, otherwise: RfqStatus): Promise<RfqStatus> {
    const r = await rfqById(sql, id)
    const stored = r ? effectiveStatus(r.status, r.expiry) : undefined
    if (stored && !isOpen(stored)) return stored
    const view = await book.describe(id)
    return view && !isOpen(view.status) ? view.status : otherwise
  }

  async function cancel(
    id: string,
    proof: CancelProof,
    opts: CancelOptions,
  ): Promise<RfqOutcome<{ cancelledAt: Date }>> {
    const found = await find(id) // no viewer: ownership decides, visibility only shapes the refusal
    if (!found || (opts.liveOnly && !found.live)) return refuse('NOT_FOUND')
    if ((opts.mustSee || proof.kind === 'open') && !canSee(found.access, opts.viewer)) return refuse('NOT_FOUND')
    const denied = ownership(proof, found)
    // a private RFQ the caller may not even see answers as an unknown one, never with its reason
    if (denied) return canSee(found.access, opts.viewer) ? denied : refuse('NOT_FOUND')
    let cancelledAt: Date | undefined
    if (found.live) {
      const outcome = await book.cancel(id)
      if (outcome.ok) cancelledAt = outcome.cancelledAt
      else if (outcome.code === 'NOT_OPEN') return refuse('NOT_OPEN', { status: outcome.status })
    }
    if (!cancelledAt) {
      if (opts.liveOnly) return refuse('NOT_FOUND') // it left the book meanwhile: the relay cancels live RFQs only
      cancelledAt = await cancelPersisted(sql, id)
      if (!cancelledAt) return refuse('NOT_OPEN', { status: await statusNow(id, 'CANCELLED') })
      book.events.publish({ type: 'rfq.cancelled', rfqId: id, cancelledAt })
    }
    if (proof.kind === 'agent') {
      await logActivity(sql, { agentId: proof.agent.id, action: 'rfq.cancel', rfqId: id }).catch((err: unknown) =>
        deps.log?.warn({ err, rfqId: id }, 'agent activity not logged'),
      ) // the cancel stands
    }
    return { ok: true, cancelledAt }
  }

  async function fill(id: string, agent: Agent, body: FillBody): Promise<RfqOutcome<{ fill: FillRecord }>> {
    const found = await find(id)
    if (!found) return refuse('NOT_FOUND')
    if (!ownsRfq(agent, { agentId: found.access.agentId, taker: found.taker })) {
      // bound to the agent that created it; a private RFQ this agent may not see is simply not found
      return canSee(found.access, { shareTokenHashes: [], agentId: agent.id })
        ? refuse('NOT_TAKER')
        : refuse('NOT_FOUND')
    }
    const rfq = found.live?.rfq ?? found.row!
    const input: FillInput = {
      txHash: body.txHash,
      taker: rfq.taker,
      maker: body.maker,
      tokenIn: rfq.tokenIn,
      tokenOut: rfq.tokenOut,
      amountIn: body.amountIn,
      amountOut: body.amountOut,
      amountInUsd: body.amountInUsd,
      visibility: rfq.visibility,
      rfqId: id,
    }
    let happenedAt = toUnixSeconds(Date.now())
    if (deps.verifyFill) {
      const verified = await deps.verifyFill(input)
      if (!verified.ok) return verified
      happenedAt = verified.minedAt
    }
    const activity = {
      agentId: agent.id,
      action: 'rfq.fill',
      rfqId: id,
      detail: { txHash: body.txHash, maker: body.maker },
    }
    const commit = () =>
      sql.begin(async tx => {
        // the conditional update is the rule: not FILLED, not CANCELLED, and happened before the expiry
        if (!(await markFilled(tx, id, body.txHash, happenedAt)))
          throw new Rollback(await notFillable(tx, id, body.txHash, happenedAt))
        const recorded = await recordFill(tx, input)
        if (!recorded.ok) throw new Rollback(recorded)
        await logActivity(tx, activity)
        return recorded.fill
      })
    try {
      let record: FillRecord | undefined
      if (found.live && happenedAt < found.expiry) {
        const outcome = await book.fill(id, body.txHash, commit) // inside the actor's turn
        if (outcome.ok) record = outcome.result
        else if (outcome.code === 'NOT_OPEN') return await notFillable(sql, id, body.txHash, happenedAt, outcome.status)
      }
      if (!record) {
        record = await commit() // not live: the stored row decides
        book.events.publish({ type: 'rfq.filled', rfqId: id, txHash: body.txHash })
      }
      book.events.publish(fillRecordedEvent(record, id, rfq.visibility))
      return { ok: true, fill: record }
    } catch (e) {
      if (e instanceof Rollback) return e.refusal
      throw e
    }
  }

  /** The refusal for a fill the conditional update did not take: the duplicate txHash first, then the RFQ's state. */
  async function notFillable(
    tx: Tx,
    id: string,
    txHash: string,
    happenedAt: number,
    status?: RfqStatus,
  ): Promise<Refusal> {
    if (await fillExists(tx, txHash)) return refuse('DUPLICATE_FILL')
    const r = status ? undefined : await rfqById(tx, id)
    const now = r && (isOpen(r.status) || r.status === 'EXPIRED') && r.expiry <= happenedAt ? 'EXPIRED' : undefined
    return refuse('NOT_FILLABLE', { status: status ?? now ?? (r ? effectiveStatus(r.status, r.expiry) : 'FILLED') })
  }

  return { create, find, cancel, fill, ...admittedQuotes(book, deps.admission, deps.flow) }
}

/** The ownership rule (actors/visibility.ts ownsRfq) for each kind of proof; undefined when it holds. */
function ownership(proof: CancelProof, rfq: FoundRfq): Refusal | undefined {
  switch (proof.kind) {
    case 'open':
      return undefined
    case 'refused':
      return proof.refusal
    case 'agent':
      return ownsRfq(proof.agent, { agentId: rfq.access.agentId, taker: rfq.taker }) ? undefined : refuse('NOT_TAKER')
    case 'signer':
      return proof.address === rfq.taker ? undefined : refuse('NOT_TAKER')
  }
}
