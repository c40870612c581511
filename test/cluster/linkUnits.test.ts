// The cluster link's units on their own (engine/cluster/): what the wire drops and how often it says so, the store
// sync's one-pass-plus-one-queued rule, the outbox's batches, the peers a heartbeat keeps, and another node's batch
// applied to a real book (its actors and its sync; the store port a stand-in that answers at once).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Drops, WARN_EVERY_MS } from '../../engine/cluster/drops.js'
import { Reconciler } from '../../engine/cluster/reconciler.js'
import { Outbox } from '../../engine/cluster/outbox.js'
import { Peers } from '../../engine/cluster/peers.js'
import { RemoteEvents, MAX_ADOPTS } from '../../engine/cluster/remoteEvents.js'
import { MAX_BATCH } from '../../engine/cluster/envelope.js'
import { toWire, type WireEvent } from '../../engine/cluster/wireEvents.js'
import { ActorSystem } from '../../actors/mailbox.js'
import { RfqBook, type RestoredRfq } from '../../actors/book.js'
import { commitFromAsync, signerFromAsync } from '../../actors/asyncDeps.js'
import { makeRfq } from '../relay/helpers.js'
import { memoryLog } from '../helpers/memoryLog.js'

test('a drop is always counted and logged at most once per reason per window', () => {
  const { log, said } = memoryLog()
  let now = 0
  const drops = new Drops(log, () => now)
  for (let i = 0; i < 5; i++) drops.drop('bad_signature', { i })
  drops.drop('replayed', {})
  assert.equal(drops.counts.bad_signature, 5)
  assert.equal(drops.counts.replayed, 1)
  assert.deepEqual(
    said('cluster message dropped').map(l => l.reason),
    ['bad_signature', 'replayed'],
  )
  now = WARN_EVERY_MS
  drops.drop('bad_signature', {})
  assert.deepEqual(
    said('cluster message dropped').map(l => [l.reason, l.droppedSoFar]),
    [
      ['bad_signature', 1],
      ['replayed', 1],
      ['bad_signature', 6],
    ],
  )
})

test('the store sync runs one pass at a time and queues at most one more, however many reasons come', async () => {
  const { log, said } = memoryLog()
  const loads: { resolve(live: RestoredRfq[]): void; reject(err: Error): void }[] = []
  const applied: RestoredRfq[][] = []
  const sync = new Reconciler(
    () => new Promise((resolve, reject) => loads.push({ resolve, reject })),
    live => {
      applied.push(live)
    },
    log,
  )
  for (let i = 0; i < 10; i++) sync.reconcile(`gap ${i}`)
  assert.equal(loads.length, 1, 'one read while one runs')
  loads[0]!.reject(new Error('database down'))
  await new Promise(r => setImmediate(r))
  assert.equal(said(/cluster reconcile failed/).length, 1, 'a failed pass is said, with its reason')
  assert.equal(said(/cluster reconcile failed/)[0]!.why, 'gap 0')
  assert.equal(loads.length, 2, 'the queued pass runs after it')
  const rfq = makeRfq()
  loads[1]!.resolve([{ rfq, shareTokenHash: null, quotes: [] }])
  await sync.idle()
  assert.deepEqual(
    applied.map(l => l.map(r => r.rfq.id)),
    [[rfq.id]],
  )
  assert.equal(sync.passes, 2, 'ten reasons cost two passes')
})

test('the outbox sends its events in order, in batches of at most MAX_BATCH, and the rest on the next turn', async () => {
  const sent: WireEvent[][] = []
  const outbox = new Outbox(events => {
    sent.push(events)
  }, 0)
  const events = Array.from({ length: MAX_BATCH + 3 }, (_, i): WireEvent => ({ t: 'cancelled', id: `rfq_${i}`, at: i }))
  for (const e of events) outbox.push(e)
  assert.deepEqual(
    sent.map(b => b.length),
    [MAX_BATCH],
    'a full batch leaves at once',
  )
  await new Promise(r => setImmediate(r))
  assert.deepEqual(
    sent.map(b => b.length),
    [MAX_BATCH, 3],
  )
  assert.deepEqual(sent.flat(), events, 'in order, none twice')
  assert.equal(outbox.sent, MAX_BATCH + 3)
  outbox.flush()
  assert.equal(sent.length, 2, 'an empty flush sends nothing')
})

test('the peers are the nodes heard within three heartbeats; a silent one is answered once', () => {
  const peers = new Peers(1000)
  peers.heard('n2', 0)
  peers.heard('n1', 2500)
  assert.deepEqual(peers.list(2900), ['n1', 'n2'])
  assert.deepEqual(peers.silent(3000), [], 'three heartbeats exactly: still a peer')
  assert.deepEqual(peers.silent(3001), ['n2'])
  assert.deepEqual(peers.silent(3002), [], 'said once')
  assert.deepEqual(peers.list(3002), ['n1'])
})

function bookWithStore() {
  const reads: string[] = []
  const book = new RfqBook(new ActorSystem(), {
    store: {
      insertRfq: async () => {},
      persistStatus: async () => {},
      commitQuote: commitFromAsync(async () => {}),
      storeEnds: async () => {},
    },
    clusterStore: {
      liveRfq: async id => {
        reads.push(id)
        return undefined
      },
      liveShared: async () => undefined,
      endOf: async () => undefined,
    },
    recoverSigner: signerFromAsync(async () => null),
  })
  return { book, reads }
}

test("another node's batch: known RFQs apply, a bad event is dropped and the rest still apply", async () => {
  const { book } = bookWithStore()
  const seen: string[] = []
  book.events.subscribe(e => {
    seen.push(e.type)
  })
  const dropped: string[] = []
  const remote = new RemoteEvents({
    sync: book.sync,
    termsOf: id => book.quoteTerms(id),
    drops: {
      drop: r => {
        dropped.push(r)
      },
    },
    reconcile: () => assert.fail('no reconcile for a batch it could apply'),
  })
  const rfq = makeRfq()
  remote.apply('n2', [
    toWire({ type: 'rfq.created', rfq, shareTokenHash: null })!,
    { t: 'nonsense' } as unknown as WireEvent,
    toWire({ type: 'rfq.cancelled', rfqId: rfq.id, cancelledAt: new Date() })!,
  ])
  assert.deepEqual(dropped, ['bad_event'])
  assert.equal(remote.received, 2)
  await new Promise(r => setTimeout(r, 20))
  assert.equal(seen[0], 'rfq.created', 'the creation applied and was shown once')
  assert.equal(book.peek(rfq.id), undefined, 'the cancel after the bad event applied too')
  assert.equal(book.sync!.hasEnded(rfq.id), true)
})

test('quotes for RFQs this node never heard of: read one by one up to MAX_ADOPTS, then one reconcile for them all', async () => {
  const { book, reads } = bookWithStore()
  const reconciles: string[] = []
  const remote = new RemoteEvents({
    sync: book.sync,
    termsOf: id => book.quoteTerms(id),
    drops: { drop: () => assert.fail('nothing to drop') },
    reconcile: why => {
      reconciles.push(why)
    },
  })
  const rfqs = Array.from({ length: MAX_ADOPTS + 5 }, () => makeRfq())
  // as a sender that holds the RFQ sends them: the terms a quote shares with its RFQ travel as null
  const quoteOf = (rfq: ReturnType<typeof makeRfq>) =>
    toWire(
      {
        type: 'rfq.quoted',
        rfqId: rfq.id,
        quote: {
          rfqId: rfq.id,
          signature: `0x${'11'.repeat(65)}`,
          receivedAtMs: Date.now(),
          quote: {
            maker: rfq.taker,
            taker: rfq.taker,
            tokenIn: rfq.tokenIn,
            tokenOut: rfq.tokenOut,
            amountIn: rfq.amountIn!.toString(),
            amountOut: '2',
            expiry: rfq.expiry,
            nonce: '1',
            deadline: rfq.expiry,
          },
        },
      },
      {
        id: rfq.id,
        taker: rfq.taker,
        tokenIn: rfq.tokenIn,
        tokenOut: rfq.tokenOut,
        amountIn: rfq.amountIn!.toString(),
        amountOut: null,
      },
    )!
  remote.apply('n2', [...rfqs.map(quoteOf), quoteOf(rfqs[0]!)])
  await new Promise(r => setImmediate(r))
  assert.deepEqual(
    reads,
    rfqs.slice(0, MAX_ADOPTS).map(r => r.id),
    'the first MAX_ADOPTS are read, each once',
  )
  assert.deepEqual(reconciles, ['many unknown RFQs from n2'])
  assert.equal(remote.received, MAX_ADOPTS + 6)
})
