// The CPU a node spends applying another node's quote when it is awake anyway: the cluster's receive path
// (a batch's signature checked and unpacked, each quote taken from the wire, applied to its RFQ's replica,
// indexed for pollers),
// run back to back in this process on batches of 30. The cluster bench sets it beside what a whole node pays
// per applied quote on this machine, where every NATS message wakes an idle process: the difference is
// the wake-ups, and it is the figure a machine with a core per node (always awake) comes close to.
import { randomBytes, randomUUID } from 'node:crypto'
import { ActorSystem } from '../../actors/mailbox.js'
import { RfqBook } from '../../actors/book.js'
import { commitFromAsync, signerFromAsync } from '../../actors/asyncDeps.js'
import { LiveIndex } from '../../actors/liveIndex.js'
import type { Address, Rfq, RfqEvent } from '../../actors/rfqTypes.js'
import { fromWire, toWire, type WireEvent } from '../../engine/cluster/wireEvents.js'
import { open, seal } from '../../engine/cluster/envelope.js'
import { benchPeer } from './sealCost.js'

const hex = (bytes: number): Address => `0x${randomBytes(bytes).toString('hex')}`

/** CPU µs per applied quote, `quotes` of them over 50 RFQs. */
export async function applyCost(quotes = 60_000): Promise<number> {
  const book = new RfqBook(new ActorSystem(), {
    // the store is never reached on this path: a replica writes nothing
    store: {
      insertRfq: async () => {},
      persistStatus: async () => {},
      commitQuote: commitFromAsync(async () => {}),
      storeEnds: async () => {},
    },
    clusterStore: { liveRfq: async () => undefined, liveShared: async () => undefined, endOf: async () => undefined },
    recoverSigner: signerFromAsync(async () => null),
  })
  const index = new LiveIndex(book.events)
  const expiry = Math.floor(Date.now() / 1000) + 3600
  const taker = '0x0000000000000000000000000000000000000000' as Address,
    tokenIn = hex(20),
    tokenOut = hex(20)
  const rfqs: Rfq[] = Array.from({ length: 50 }, () => ({
    id: randomUUID(),
    taker,
    tokenIn,
    tokenOut,
    kind: 0,
    amountIn: 10n ** 18n,
    amountOut: null,
    expiry,
    visibility: 'public',
    allowedMakers: [],
    shareToken: null,
    createdAt: new Date(),
    agentId: null,
  }))
  for (const rfq of rfqs) book.sync!.applyRemote(fromWire(toWire({ type: 'rfq.created', rfq, shareTokenHash: null })!))
  const batches: Uint8Array[] = []
  const peer = benchPeer()
  for (let i = 0; i < quotes; i += 30) {
    const events: WireEvent[] = []
    for (let j = i; j < i + 30; j++) {
      const rfq = rfqs[j % rfqs.length]!
      const e: RfqEvent = {
        type: 'rfq.quoted',
        rfqId: rfq.id,
        quote: {
          rfqId: rfq.id,
          signature: hex(65),
          receivedAtMs: Date.now(),
          quote: {
            maker: hex(20),
            taker,
            tokenIn,
            tokenOut,
            amountIn: '1000000000000000000',
            amountOut: String(10n ** 18n + BigInt(j)),
            expiry,
            nonce: String(j),
            deadline: expiry,
          },
        },
      }
      events.push(toWire(e, book.quoteTerms(rfq.id))!)
    }
    batches.push(seal(peer.key.privateKey, 'events', peer.id, 1, batches.length + 1, events))
  }
  const termsOf = (id: string) => book.quoteTerms(id)
  const apply = (bytes: Uint8Array) => {
    const m = open(peer.peer, 'events', bytes)
    if (typeof m === 'string') throw new Error(`the bench's own batch was dropped: ${m}`)
    for (const w of m.body as WireEvent[]) book.sync!.applyRemote(fromWire(w, termsOf))
  }
  const turn = () => new Promise(r => setImmediate(r))
  const warm = Math.floor(batches.length / 5)
  for (let i = 0; i < warm; i++) {
    apply(batches[i]!)
    await turn()
  }
  const before = process.cpuUsage()
  for (let i = warm; i < batches.length; i++) {
    apply(batches[i]!)
    await turn()
  }
  const used = process.cpuUsage(before)
  index.close()
  return (used.user + used.system) / ((batches.length - warm) * 30)
}
