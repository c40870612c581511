// The RFQ book's ports to the store, in one place: where a live RFQ's creation (under its creator's cap, which the
// store arbitrates for the venue), its accepted quotes (group commit) and its ends are written, where the ends the
// database could not take are stored once it answers, and (cluster mode) where the cluster sync reads what the cluster's
// word leaves open. The book (actors/book.ts) receives them at construction: a route asks the RFQ service
// (service.ts), the service the book, the book's actor one of these ports, and the port the store (engine/store/).
import type { Sql } from '../store/db.js'
import type { BookDeps } from '../../actors/book.js'
import { createQuoteWriter, quoteWriterOver, type QuoteWriter } from '../store/quotes.js'
import { startQuoteCommitThread } from '../store/quoteCommitThread.js'
import { insertRfq, insertRfqCapped, loadLiveRfqs, persistStatus, endOfRfq, storeEnds } from '../store/rfqs.js'

export interface BookStore extends Pick<BookDeps, 'store' | 'clusterStore'> {
  /** the accepted quotes' group commit: its stats for /metrics, its flush at shutdown */
  writer: QuoteWriter
}

/**
 * `cluster`: this node is one of a venue's (NATS_URL set), so its cluster sync reads the shared store. `quoteWriterUrl`:
 * where the group commit's own thread connects (engine/store/quoteCommitThread.ts), so its commits never queue
 * behind reads and postgres.js's work is off the relay's thread; absent, the commits run on `sql`, on this thread. `observe`:
 * each group commit's time and size, for the flow metrics.
 */
export function bookStore(
  sql: Sql,
  opts: {
    commitsInFlight: number
    cluster: boolean
    quoteWriterUrl?: string | undefined
    /** the writer's thread ended unasked (a crash), with why */
    onWriterExit?: (why: string) => void
    observe?: (seconds: number, quotes: number) => void
  },
): BookStore {
  const writerOpts = { maxInFlight: opts.commitsInFlight, ...(opts.observe ? { observe: opts.observe } : {}) }
  const writer = opts.quoteWriterUrl
    ? quoteWriterOver(startQuoteCommitThread(opts.quoteWriterUrl, opts.commitsInFlight, opts.onWriterExit), writerOpts)
    : createQuoteWriter(sql, writerOpts)
  return {
    writer,
    store: {
      insertRfq: (rfq, hash, maxActive) =>
        maxActive === undefined ? insertRfq(sql, rfq, hash) : insertRfqCapped(sql, rfq, hash, { max: maxActive }),
      persistStatus: (id, change) => persistStatus(sql, id, change),
      commitQuote: (q, to) => writer.writeTo(q, to),
      storeEnds: async ends => {
        await storeEnds(sql, ends)
      },
    },
    clusterStore: opts.cluster
      ? {
          liveRfq: async id => (await loadLiveRfqs(sql, Date.now(), { id }))[0],
          liveShared: async shareTokenHash => (await loadLiveRfqs(sql, Date.now(), { shareTokenHash }))[0],
          endOf: id => endOfRfq(sql, id),
        }
      : undefined,
  }
}
