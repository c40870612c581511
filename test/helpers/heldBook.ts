// An RFQ book over stand-in storage whose quote commits the test answers itself, for the actor suites that hold a
// write open (test/actors/makerSlots.test.ts, readBack.test.ts). A quote's "signature" is its maker's address, so any
// maker may quote without a key; what the book announces as quoted is kept in order.
import { ActorSystem, type ActorRef } from '../../actors/mailbox.js'
import { RfqBook } from '../../actors/book.js'
import { commitFromAsync, signerFromAsync } from '../../actors/asyncDeps.js'
import type { RfqMsg } from '../../actors/rfq.js'
import type { Address, NumberedQuote, RfqEvent } from '../../actors/rfqTypes.js'

/** `commit` answers each quote's write: resolve to store it, reject (an Error with a code) to refuse it. */
export function bookOverCommits(rfqId: string, commit: (quote: NumberedQuote) => Promise<void>) {
  const book = new RfqBook(new ActorSystem(), {
    recoverSigner: signerFromAsync(async (_q, sig) => sig as Address),
    store: {
      insertRfq: async () => {},
      persistStatus: async () => {},
      commitQuote: commitFromAsync(commit),
      storeEnds: async () => {},
    },
  })
  const announced: RfqEvent[] = []
  book.events.subscribe(e => void (e.type === 'rfq.quoted' && announced.push(e)))
  /** the RFQ's actor, to tell it what a cluster peer or the store would */
  const ref = () => (book as unknown as { live: Map<string, { ref: ActorRef<RfqMsg> }> }).live.get(rfqId)!.ref
  return { book, announced, ref }
}
