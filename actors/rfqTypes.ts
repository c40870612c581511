// The RFQ domain's shared vocabulary: what the relay, the REST API, the SSE feed and the fills
// code say to each other about live RFQs. The RfqBook (actors/book.ts) implements RfqDirectory.
import type { EventBus } from './events.js'
import type { QuoteRefusal } from './errors.js'
import type { Outcome, Refused } from '../workers/outcome.js'
import type { Answered } from './actorTypes.js'

export type Address = `0x${string}` // lowercase
export type Hex = `0x${string}`

import type { RfqStatus } from '../workers/values/index.js'
export type { RfqStatus }
export type Visibility = 'public' | 'private'
export type RfqKind = 0 | 1 // 0 EXACT_IN, 1 EXACT_OUT

/**
 * Who ended an RFQ (its status says how): its taker (a cancel or a fill), its own expiry while the venue served
 * it, or the engine (its actor failed, or it expired while the venue could not serve it: the database was down,
 * or no node held it). Only a fill or an end by `expiry` judges a maker (docs/fills-league.md).
 */
export type EndedBy = 'taker' | 'expiry' | 'engine'

export interface Rfq {
  id: string
  taker: Address
  tokenIn: Address
  tokenOut: Address
  kind: RfqKind
  amountIn: bigint | null // set for EXACT_IN
  amountOut: bigint | null // set for EXACT_OUT
  expiry: number // unix seconds
  visibility: Visibility
  allowedMakers: Address[] // private RFQs only
  shareToken: string | null // private RFQs only; never broadcast
  createdAt: Date
  /** the agent that created it, when created through the agent API */
  agentId: string | null
}

/** A live RFQ as it was when the engine stopped: its row and its stored quotes. */
export interface RestoredRfq {
  rfq: Rfq
  shareTokenHash: string | null
  quotes: AcceptedQuote[]
}

/** An RFQ's terms as its quotes carry them (amounts as decimal strings): built once per RFQ, shared by its quotes. */
export interface QuoteTerms {
  id: string
  taker: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: string | null
  amountOut: string | null
}

/** A quote exactly as the maker sent it (JSON-safe: amounts as decimal strings). */
export interface QuoteJson {
  maker: Address
  taker: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: string
  amountOut: string
  expiry: number
  nonce: string
  deadline: number
}

export interface AcceptedQuote {
  rfqId: string
  quote: QuoteJson
  signature: Hex
  /** ms since the epoch: a number, not a Date (two heap objects fewer a live quote; issue 29) */
  receivedAtMs: number
}

/**
 * A quote on its way to the store: numbered by the RFQ actor that accepted it (1, 2, ...: its place among the RFQ's
 * quotes as that node knows them), so the group commit never reads or bumps the RFQ's row to number it.
 */
export interface NumberedQuote extends AcceptedQuote {
  arrival: number
}

export interface RfqView {
  rfq: Rfq
  status: RfqStatus
  quotes: AcceptedQuote[]
  quoteCount: number
  fillTxHash: string | null
  cancelledAt: Date | null
  /** when and by whom it ended; null while it is open */
  endedAt: Date | null
  endedBy: EndedBy | null
}

/** An end an RFQ actor (or the book) writes to the store, conditional on the RFQ being open there. */
export type StatusChange = { status: 'CANCELLED'; at: Date } | { status: 'EXPIRED'; at: Date; by: 'expiry' | 'engine' }

/** How a quote arrives: `wellFormed` and `residual` are the relay schema's verdict (relay/contract/validate.ts). */
export interface SubmitOptions {
  shareToken?: string
  /** the frame's schema accepted it: the grammar checks are done */
  wellFormed?: boolean
  /** the schema refused something no earlier rule names: answered in the signature's place in the order */
  residual?: Omit<QuoteRefusal, 'ok'>
}

/** A relay/REST quote outcome: a closed `code` for machines, the relay's text in `message` (REST words it anew). */
export type QuoteVerdict = Outcome<{ quote: AcceptedQuote }, QuoteRefusal>
/**
 * where submitQuoteTo hands a quote's verdict, or the Error that kept it from one: an object's `answered`, so a caller
 * on the hot path answers through an object it makes anyway, not a closure and its context made for the quote
 */
export type VerdictTo = Answered<QuoteVerdict | Error>

export type CancelOutcome = Outcome<
  { cancelledAt: Date },
  | Refused<'NOT_FOUND'>
  /** how it ended: the actor's state, or the store's when the store had closed it first (another node) */
  | (Refused<'NOT_OPEN'> & { status: RfqStatus })
  /** the write failed or was refused (the actor's answer; the book rethrows it to the caller) */
  | (Refused<'FAILED'> & { error: unknown })
>

export interface FillInput {
  txHash: Hex
  taker: Address
  maker: Address
  tokenIn: Address
  tokenOut: Address
  amountIn: bigint
  amountOut: bigint
  amountInUsd: number
  visibility: Visibility
  rfqId: string | null
}

/**
 * What happened to live RFQs. `remote`: it happened on another node of a cluster and reached this one over
 * the cluster link: this node applies and shows it, but never sends it on (nor acts on it as its origin would).
 */
export type RfqEvent = RfqEventBody & { remote?: true }

type RfqEventBody =
  /** shareTokenHash: the private RFQ's token hash (the token itself never travels between nodes) */
  | { type: 'rfq.created'; rfq: Rfq; shareTokenHash: string | null }
  | { type: 'rfq.quoted'; rfqId: string; quote: AcceptedQuote }
  | { type: 'rfq.cancelled'; rfqId: string; cancelledAt: Date }
  | { type: 'rfq.filled'; rfqId: string; txHash: string }
  /** `endedAt`: the RFQ's own expiry, or when the engine ended it; expiry ends stay on their node (each node's timer) */
  | { type: 'rfq.expired'; rfqId: string; endedAt: Date; endedBy: 'expiry' | 'engine' }
  | {
      type: 'fill.recorded'
      fill: {
        id: string
        txHash: string
        rfqId: string | null
        improvementBps: number
        takerPoints: number
        makerPoints: number
      }
      /** the fill's visibility, for the visibility rule (not part of the event's data) */
      visibility: Visibility
    }

/** `activeCount`: the creator's active RFQs, this one included when it was taken (the store's count under a cap) */
export type CreateOutcome = Outcome<{ activeCount: number }, Refused<'TOO_MANY_ACTIVE'> & { activeCount: number }>

export type FillOutcome<R> = Outcome<
  { result: R },
  | Refused<'NOT_FOUND'>
  | (Refused<'NOT_OPEN'> & { status: RfqStatus })
  /** the commit threw (a refusal such as a duplicate txHash, or an outage): the actor's answer, which the
   *  book rethrows to the caller; the RFQ is unchanged and the actor unharmed */
  | (Refused<'FAILED'> & { error: unknown })
>

/**
 * The directory of live RFQs (implemented by actors/book.ts). Every change to a live RFQ goes
 * through its actor, one message at a time, so a fill racing a cancel has exactly one winner.
 */
export interface RfqDirectory {
  /**
   * persists the RFQ, spawns its actor, publishes `rfq.created` (the relay broadcasts it). With `maxActive`,
   * the store admits it only while its creator has fewer active RFQs than that, across the venue; a refusal
   * stores, spawns and publishes nothing.
   */
  create(rfq: Rfq, opts?: { maxActive?: number }): Promise<CreateOutcome>
  /** the live view; undefined when the RFQ is not live (never created, or already gone) */
  describe(id: string): Promise<RfqView | undefined>
  /** live RFQs, newest first */
  listLive(): Promise<RfqView[]>
  /** the relay's QUOTE_SUBMIT path, shared by POST /api/v1/quotes; shareToken for private RFQs */
  submitQuote(rfqId: string, quote: unknown, signature: unknown, opts?: SubmitOptions): Promise<QuoteVerdict>
  /**
   * submitQuote's verdict through a callback, an Error where the promise would reject (a store read that failed):
   * no promise a quote, and `done` runs at once when the answer is at hand. The relay's quotes take this way.
   */
  submitQuoteTo(rfqId: string, quote: unknown, signature: unknown, opts: SubmitOptions, done: VerdictTo): void
  /** authorisation is the caller's job; this only moves the state (OPEN/QUOTED -> CANCELLED) */
  cancel(rfqId: string): Promise<CancelOutcome>
  /**
   * OPEN/QUOTED -> FILLED. `commit` runs inside the actor's turn (e.g. the fill insert and the rfqs
   * update in one transaction); if it throws, the state is unchanged and the error propagates.
   */
  fill<R>(rfqId: string, txHash: string, commit: () => Promise<R>): Promise<FillOutcome<R>>
  /** live RFQs of a creator (its agent id, or its taker wallet when no agent created it) as this node's book holds them */
  activeCount(creator: string): number
  /** a live RFQ and its share-token hash, without asking its actor (the visibility rule's input) */
  peek(id: string): { rfq: Rfq; shareTokenHash: string | null } | undefined
  /** cluster mode: an RFQ the store has open that this node has not heard of yet joins its book; true once live here */
  adopt?(id: string): Promise<boolean>
  readonly events: EventBus<RfqEvent>
}
