// Accepted quotes, durable by group commit: every quote accepted while the previous transaction
// was in flight goes into the next one, so at high rates one commit (one fsync) carries hundreds
// of quotes, and at low rates a quote waits for no timer. The same transaction moves its RFQs from OPEN to QUOTED.
// A quote's promise resolves only after its commit.
import type { NumberedQuote } from '../../actors/rfqTypes.js'
import type { Sql } from './db.js'
import { createBatcher, type Done } from '../pool/batcher.js'
import { isUnavailable } from './unavailable.js'
import { commitText } from './quoteCommitSql.js'
import { rfqDays, rfqKeyHex } from './rfqKey.js'
import { LentBlanks, ZERO_ADDRESS, packedBlanks } from '../../workers/values/index.js'

export interface QuoteWriter {
  /**
   * Resolves once the quote is committed; rejects with DuplicateQuoteError when (rfq, maker) was already stored,
   * and with RfqClosedError when the RFQ is no longer open in the store (closed on another node, or first here).
   */
  write(q: NumberedQuote): Promise<void>
  /** write's outcome through a callback: nothing once committed, else the refusal or failure (the relay's way) */
  writeTo(q: NumberedQuote, done: Done<undefined>): void
  /** resolves when everything written so far is committed */
  flush(): Promise<void>
  /** after a flush: ends the writer's own thread, if it has one (quoteCommitThread.ts) */
  close(): Promise<void>
  /**
   * `rechecked`: commits whose plain statement met a maker the store already held, so ran again quote by quote;
   * `checked`: commits sent checked at once, because one shortly before met such a maker
   */
  readonly stats: { commits: number; quotes: number; maxBatch: number; rechecked: number; checked: number }
}

/** The store already holds a quote of this maker for this RFQ (a replay, or another node's). */
export class DuplicateQuoteError extends Error {
  override name = 'DuplicateQuoteError'
  readonly code = 'DUPLICATE_QUOTE'
}

/** The RFQ was closed in the store before the quote's commit (the store is the arbiter between nodes). */
export class RfqClosedError extends Error {
  override name = 'RfqClosedError'
  readonly code = 'RFQ_CLOSED'
}

/** A refused quote's error: its RFQ was not open in the store (`closed`), else its maker's second for the RFQ */
const refusal = (closed: boolean): Error =>
  closed
    ? new RfqClosedError('RFQ closed before the quote was stored')
    : new DuplicateQuoteError('Duplicate quote from this maker for this RFQ')

// A few commits may overlap (each on its own connection): quote inserts commute, and overlapping hides one
// commit's round trip and fsync behind another's.
export function createQuoteWriter(sql: Sql, opts: WriterOptions = {}): QuoteWriter {
  return quoteWriterOver(sqlCommitter(sql), opts)
}

interface WriterOptions {
  maxBatch?: number
  maxInFlight?: number
  observe?: (seconds: number, quotes: number) => void
}

/**
 * The writer over a batch's commit wherever it runs: on this thread (`sqlCommitter`) or on the quote writer's own
 * (quoteCommitThread.ts), which takes postgres.js's work and garbage off the relay's main thread.
 */
export function quoteWriterOver(
  committer: CommitBatch | { commit: CommitBatch; close(): Promise<void>; readonly copiesBatch?: boolean },
  { maxBatch = 2000, maxInFlight = 2, observe }: WriterOptions = {},
): QuoteWriter {
  // a quote's outcome is its batch's: undefined when stored, its refusal as an Error (the batcher rejects that quote's
  // promise with it), so a write is the batcher's own promise and no reaction a quote is chained after it
  const commitBatch = typeof committer === 'function' ? committer : committer.commit
  const commitQuotes = flatCommits(commitBatch, typeof committer !== 'function' && committer.copiesBatch === true)
  const counts = { rechecked: 0, checked: 0 }
  const batcher = createBatcher<NumberedQuote, undefined>(
    quotes =>
      commitQuotes(quotes).then(
        ({ refused, how }) => {
          if (how !== 'plain') counts[how]++
          const results = new Array<undefined | Error>(quotes.length)
          for (const [i, closed] of refused) results[i] = refusal(closed)
          return results
        },
        // the actor only sees a code: UNAVAILABLE tells a maker to retry, anything else is an internal error
        (err: unknown) => {
          throw isUnavailable(err)
            ? Object.assign(new Error('database unavailable', { cause: err }), { code: 'UNAVAILABLE' })
            : err
        },
      ),
    {
      maxBatch,
      concurrency: maxInFlight,
      ...(observe ? { observe: (_wait: number, trip: number, n: number) => observe(trip, n) } : {}),
    },
  )
  const stats = batcher.stats
  return {
    write: q => batcher.submit(q),
    writeTo: (q, done) => batcher.submitTo(q, done),
    flush: () => batcher.flush(),
    close: async () => {
      if (typeof committer !== 'function') await committer.close()
    },
    get stats() {
      return {
        commits: stats.batches,
        quotes: stats.items,
        maxBatch: stats.maxBatch,
        rechecked: counts.rechecked,
        checked: counts.checked,
      }
    },
  }
}

/** A batch's commit: its refused quotes by index (closed: the RFQ was not open; else a duplicate), and how it went. */
export type CommitBatch = (flat: FlatBatch) => Promise<CommitOutcome>
export interface CommitOutcome {
  refused: [index: number, closed: boolean][]
  /** plain: one plain statement; rechecked: the plain one met a stored maker, then checked; checked: checked at once */
  how: 'plain' | 'rechecked' | 'checked'
}

/**
 * A batch as it travels to its commit, also over a thread's port: flat, no object a quote; a quote's COLUMNS values
 * in their order, the taker as 't' for an open quote (the zero address) else 'f', the time in ms.
 */
export type FlatBatch = (string | number)[]

/** `into`: an array of exactly the batch's size to write over; else a new one, packed (packedBlanks.ts) */
export function flatBatch(quotes: NumberedQuote[], into?: FlatBatch): FlatBatch {
  // packed and of the batch's size, then written cell by cell: posted to the writer's thread
  const flat: FlatBatch = into ?? packedBlanks(quotes.length * COLUMNS)
  for (let i = 0, k = 0; i < quotes.length; i++, k += COLUMNS) {
    const { rfqId, quote: q, signature, receivedAtMs, arrival } = quotes[i]!
    flat[k] = rfqId
    flat[k + 1] = q.maker
    flat[k + 2] = q.taker === ZERO_ADDRESS ? 't' : 'f'
    flat[k + 3] = q.amountIn
    flat[k + 4] = q.amountOut
    flat[k + 5] = q.expiry
    flat[k + 6] = q.nonce
    flat[k + 7] = q.deadline
    flat[k + 8] = signature
    flat[k + 9] = receivedAtMs
    flat[k + 10] = arrival
  }
  return flat
}

/**
 * A batch's quotes to their commit, flat. A committer that copies the batch as it is handed over (`copies`: the
 * writer's thread posts it at once) gets an array lent for it and given back as the commit is handed over (one kept
 * a batch size up to 256 quotes: ~3 MB if every size is seen).
 */
function flatCommits(commit: CommitBatch, copies: boolean): (quotes: NumberedQuote[]) => Promise<CommitOutcome> {
  if (!copies) return quotes => commit(flatBatch(quotes))
  const lent = new LentBlanks(256 * COLUMNS, 1)
  return quotes => {
    const flat = flatBatch(quotes, lent.take(quotes.length * COLUMNS))
    try {
      return commit(flat)
    } finally {
      lent.give(flat)
    }
  }
}

/** Commits on `sql`, on the calling thread; after a batch met a stored maker, the next few go checked at once. */
export function sqlCommitter(sql: Sql): CommitBatch {
  const mode = { checkedLeft: 0 }
  return flat => commit(sql, flat, mode)
}

/**
 * One statement, so one round trip and one commit: the inserts and the RFQs moved to QUOTED are atomic together.
 * The batch travels as one array literal per column, unnested by PostgreSQL into typed rows: its cheapest
 * shape we measured (json_array_elements cost the server ~35 µs a row, the arrays ~half), and for the relay's
 * main thread a join per column instead of binding hundreds of parameters. Hex travels as text without its 0x and is
 * made bytes by the server (migration 103: the id, maker and signature are stored as bytes; taker and pair are the
 * RFQ's), the time as milliseconds since the epoch, and each quote's RFQ key with it (rfqKey.ts `rfqKeyHex`): a
 * `substr` and a timestamp's text a row, and `rfq_key`'s regular expression an RFQ, were ~1-2 µs of the server's ~17-22
 * a row (docs/benchmarks.md 0.14.5).
 *
 * A quote lands in its RFQ's creation day's partition (read from the RFQ's locked row): all of an RFQ's quotes share
 * it, so the unique key (rfq_id, maker, rfq_day) arbitrates one quote per maker per RFQ across nodes. The RFQs are
 * read in the partitions of their ids' days only (rfqKey.ts: every partition for a legacy id).
 *
 * The fence: a quote is stored only while its RFQ is open in the store. Its row is locked first (in id order,
 * so overlapping commits never deadlock; the open filter is applied to the locked rows, so the partial indexes on
 * open RFQs are never scanned whole to find a batch's few); a cancel or fill that committed meanwhile is seen by the
 * lock's re-check, so no node can store a quote for an RFQ another node has closed, and a cancel waits for the
 * quotes already being stored.
 *
 * The RFQ's row is written only by its first quote (OPEN -> QUOTED): its quote count is its quotes' (rfqRow.ts), and
 * each quote comes numbered by the actor that accepted it (`arrival`). A bumped count was a new version of the row
 * for every quote, ~10 µs of PostgreSQL's time a quote when a commit's quotes are for different RFQs (issue 29).
 *
 * Only the refused rows come back (none, nearly always): `closed` when the RFQ was not open, else a duplicate. The
 * batch goes first as a plain insert (`plainCommit`), and only when that meets a maker the store already holds for
 * an RFQ (another node's quote, or a replay; it then writes nothing) as the statement that checks each quote
 * (`checkedCommit`). Both lock the same rows in the same order, so either keeps the fence.
 */
async function commit(sql: Sql, flat: FlatBatch, mode: CommitMode): Promise<CommitOutcome> {
  const n = flat.length / COLUMNS
  const cols: string[][] = Array.from({ length: COLUMNS + 1 }, () => new Array<string>(n))
  const ids = new Array<string>(n)
  // each quote's fields straight into the columns: no row array a quote
  for (let i = 0, k = 0; i < n; i++, k += COLUMNS) {
    ids[i] = flat[k] as string
    cols[0]![i] = quoted(ids[i]!)
    cols[1]![i] = (flat[k + 1] as string).slice(2) // the maker's hex without its 0x: decode() reads it as is
    for (let c = 2; c < 8; c++) cols[c]![i] = String(flat[k + c])
    cols[8]![i] = (flat[k + 8] as string).slice(2) // the signature's, likewise
    // ms since the epoch, whole as a Date keeps them: an integer, where ISO text cost the server a date parse
    cols[9]![i] = String(Math.trunc(flat[k + 9] as number))
    cols[10]![i] = String(flat[k + 10])
    cols[11]![i] = rfqKeyHex(ids[i]!) // the key the quote is stored under: the server's rfq_key, made here
  }
  const params = cols.map(c => `{${c.join(',')}}`) as Params
  const days = rfqDays(ids) // the statements' day parameters (rfqKey.ts)
  let refused: Refused
  let how: CommitOutcome['how'] = 'plain'
  if (mode.checkedLeft > 0) {
    mode.checkedLeft--
    how = 'checked'
    refused = await checkedCommit(sql, params, days, n)
  } else
    try {
      refused = await plainCommit(sql, params, days)
    } catch (err) {
      // a maker's quote the store already holds for its RFQ (another node's, or a replay): nothing of the batch was
      // written, and the statement that sorts out each quote runs instead
      if ((err as { code?: unknown }).code !== UNIQUE_VIOLATION) throw err
      how = 'rechecked'
      mode.checkedLeft = CHECKED_AFTER_DUPLICATE
      refused = await checkedCommit(sql, params, days, n)
    }
  return { refused: refused.map(row => [Number(row.ord) - 1, row.closed]), how }
}

const UNIQUE_VIOLATION = '23505'
/**
 * Commits sent checked at once after one met a stored maker: a maker that quotes the same RFQ on two nodes would
 * otherwise cost each commit of theirs two statements; this way at most one commit in this many and one.
 */
const CHECKED_AFTER_DUPLICATE = 16
interface CommitMode {
  /** commits still to send checked at once */
  checkedLeft: number
}
/** the batch's columns as array literals, and each quote's RFQ key */
type Params = Tuple<string, 12>
type Refused = { ord: string; closed: boolean }[]

/**
 * The nearly-always statement: every quote of an open RFQ is inserted as is, so its RFQ goes QUOTED if it was OPEN,
 * and only the quotes of closed RFQs come back. No `on conflict`: PostgreSQL's speculative insertion probes the
 * key's index before each insert, takes a speculative lock and settles it after (~a fifth of its time on this
 * statement, read with perf). A duplicate is rare (the RFQ's actor already refuses a maker's second quote on its
 * node) and fails the whole statement, which `checkedCommit` then replaces. Its text (quoteCommitSql.ts): the batch
 * as typed rows, its RFQs locked in id order and those still open, the inserts, and the RFQs moved to QUOTED.
 */
function plainCommit(sql: Sql, params: Params, days: string[]): Promise<Refused> {
  return sql.unsafe<Refused>(commitText('plain', days.length), [...params, ...days], { prepare: true })
}

/**
 * Each quote sorted out: a maker's second quote for an RFQ is not stored (`on conflict do nothing`) and comes back
 * refused, and an RFQ goes QUOTED only when one of its quotes was stored.
 */
function checkedCommit(sql: Sql, params: Params, days: string[], n: number): Promise<Refused> {
  return sql.unsafe<Refused>(commitText('checked', days.length), [...params, n, ...days], { prepare: true })
}

/** The columns a commit sends: RFQ id, maker, taker_open, amounts in and out, expiry, nonce, deadline, signature, time, arrival */
const COLUMNS = 11
type Tuple<T, N extends number, R extends T[] = []> = R['length'] extends N ? R : Tuple<T, N, [...R, T]>

const PLAIN = /^\w+$/
const NULL_WORD = /^null$/i // unquoted, PostgreSQL would read it as a null element
/**
 * An array literal's element for an RFQ id: the engine's own ids (letters, digits, underscore) go as they are, any
 * other id quoted and escaped (addresses, amounts are checked hex and digits). A quote and an escape a quote were two
 * strings on the commit's path for nothing.
 */
const quoted = (s: string) => (PLAIN.test(s) && !NULL_WORD.test(s) ? s : `"${s.replace(/["\\]/g, '\\$&')}"`)
