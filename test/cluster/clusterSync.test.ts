// A cluster node's sync (actors/clusterSync.ts) against the interleavings a real cluster makes rarely and a test
// cannot time: a store read still running when the RFQ's creation word lands, a quote stored after that read's
// snapshot, an RFQ the store no longer has. The book, its actors and its events are the real ones; the store port is
// a hand-driven stand-in, so each read answers exactly when the test says.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ActorSystem } from '../../actors/mailbox.js'
import { RfqBook, type RestoredRfq } from '../../actors/book.js'
import { commitFromAsync, signerFromAsync } from '../../actors/asyncDeps.js'
import type { AcceptedQuote, Rfq, RfqEvent } from '../../actors/rfqTypes.js'
import { makeRfq } from '../relay/helpers.js'

interface Read {
  id: string
  answer(r: RestoredRfq | undefined): void
}

function cluster() {
  const reads: Read[] = [],
    sharedReads: string[] = []
  const book = new RfqBook(new ActorSystem(), {
    store: {
      insertRfq: async () => {},
      persistStatus: async () => {},
      commitQuote: commitFromAsync(async () => {}),
      storeEnds: async () => {},
    },
    clusterStore: {
      liveRfq: id => new Promise(resolve => reads.push({ id, answer: resolve })),
      liveShared: async hash => {
        sharedReads.push(hash)
        return undefined
      },
      endOf: async () => undefined,
    },
    recoverSigner: signerFromAsync(async () => null),
  })
  const events: RfqEvent[] = []
  book.events.subscribe(e => {
    events.push(e)
  })
  const turn = () => new Promise(r => setImmediate(r))
  return { book, sync: book.sync!, reads, sharedReads, events, turn }
}

const quoteOf = (rfq: Rfq, maker: string): AcceptedQuote => ({
  rfqId: rfq.id,
  signature: `0x${maker.slice(2).padEnd(130, '0')}`,
  receivedAtMs: Date.now(),
  quote: {
    maker: maker as AcceptedQuote['quote']['maker'],
    taker: rfq.taker,
    tokenIn: rfq.tokenIn,
    tokenOut: rfq.tokenOut,
    amountIn: rfq.amountIn!.toString(),
    amountOut: '1',
    expiry: rfq.expiry,
    nonce: '1',
    deadline: rfq.expiry,
  },
})
const makerA = '0x00000000000000000000000000000000000000aa',
  makerB = '0x00000000000000000000000000000000000000bb'

test('the creation word lands while the store read runs: the stored quotes the read brings are shown, once each', async () => {
  const { book, sync, reads, events, turn } = cluster()
  const rfq = makeRfq()
  const adopted = sync.adopt(rfq.id) // a quote word came first
  assert.equal(reads.length, 1)
  sync.applyRemote({ type: 'rfq.created', rfq, shareTokenHash: null })
  reads[0]!.answer({ rfq, shareTokenHash: null, quotes: [quoteOf(rfq, makerA)] })
  assert.equal(await adopted, true)
  await turn()
  assert.equal((await book.describe(rfq.id))?.quotes.length, 1, 'the stored quote is not lost')
  assert.equal(events.filter(e => e.type === 'rfq.quoted').length, 1)
  assert.equal(events.filter(e => e.type === 'rfq.created').length, 1, 'announced once')
})

test('a quote word that comes while a read runs makes another read after it: a quote stored after the first snapshot is shown', async () => {
  const { book, sync, reads, turn } = cluster()
  const rfq = makeRfq()
  const first = sync.adopt(rfq.id)
  const second = sync.adopt(rfq.id) // maker B's word, B stored after the snapshot
  assert.equal(reads.length, 1, 'one read at a time per RFQ')
  reads[0]!.answer({ rfq, shareTokenHash: null, quotes: [quoteOf(rfq, makerA)] })
  assert.equal(await first, true)
  assert.equal(await second, true)
  await turn()
  assert.equal(reads.length, 2, 'read again')
  reads[1]!.answer({ rfq, shareTokenHash: null, quotes: [quoteOf(rfq, makerA), quoteOf(rfq, makerB)] })
  await turn()
  await turn()
  assert.deepEqual(
    (await book.describe(rfq.id))?.quotes.map(q => q.quote.maker),
    [makerA, makerB],
  )
  assert.equal(sync.adopted, 1)
})

test('an RFQ the store does not have live is over here too: its late creation word brings nothing back', async () => {
  const { book, sync, reads, events } = cluster()
  const rfq = makeRfq()
  const adopted = sync.adopt(rfq.id)
  reads[0]!.answer(undefined)
  assert.equal(await adopted, false)
  sync.applyRemote({ type: 'rfq.created', rfq, shareTokenHash: null })
  assert.equal(await book.describe(rfq.id), undefined)
  assert.deepEqual(events, [])
  assert.equal(await sync.adopt(rfq.id), false)
  assert.equal(reads.length, 1, 'not read again')
})

test('a close this node made through the store, without holding the RFQ, ends it here', () => {
  const { book, sync } = cluster()
  const rfq = makeRfq()
  book.events.publish({ type: 'rfq.cancelled', rfqId: rfq.id, cancelledAt: new Date() })
  sync.applyRemote({ type: 'rfq.created', rfq, shareTokenHash: null })
  assert.equal(book.peek(rfq.id), undefined)
})

test('a share token that opens nothing live is read from the store once: polls and SUBSCRIBEs with an old token cost no more reads', async () => {
  const { sync, sharedReads } = cluster()
  assert.equal(await sync.adoptShared('hash-of-an-old-token'), undefined)
  assert.equal(await sync.adoptShared('hash-of-an-old-token'), undefined)
  assert.deepEqual(sharedReads, ['hash-of-an-old-token'])
})
