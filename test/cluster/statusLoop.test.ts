// The cluster link's watch on its NATS connection is supervised (engine/cluster/natsStatus.ts): killed, as a bug in
// it or in the client would end it, the death is noticed and logged, the loop is started again, the link catches up on
// what it may have missed (it asks the server whether it is up, and reconciles with the store), and a reconnect after
// the kill reconciles again, as before it. A real nats-server as a venue runs it (TLS, an nkey per node).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { joinCluster } from '../../engine/cluster/link.js'
import { clusterIdentity } from '../../engine/cluster/identity.js'
import type { Config } from '../../engine/config.js'
import { ActorSystem } from '../../actors/mailbox.js'
import { RfqBook } from '../../actors/book.js'
import { commitFromAsync, signerFromAsync } from '../../actors/asyncDeps.js'
import { startSecureNats, TEST_VENUE } from './secureNats.js'
import { memoryLog } from '../helpers/memoryLog.js'
import { waitFor } from '../relay/helpers.js'

test(
  'the status loop, killed, is noticed, logged and restarted, and reconnects reconcile with the store again',
  { timeout: 60_000 },
  async () => {
    const nats = await startSecureNats(['s1', 's2'])
    const { log, said } = memoryLog()
    const book = new RfqBook(new ActorSystem(), {
      store: {
        insertRfq: async () => {},
        persistStatus: async () => {},
        commitQuote: commitFromAsync(async () => {}),
        storeEnds: async () => {},
      },
      clusterStore: { liveRfq: async () => undefined, liveShared: async () => undefined, endOf: async () => undefined },
      recoverSigner: signerFromAsync(async () => null),
    })
    let storeReads = 0
    const link = await joinCluster({
      url: nats.url,
      identity: clusterIdentity(nats.env('s1') as unknown as Config),
      epoch: Date.now(),
      venue: TEST_VENUE,
      book,
      loadLive: async () => {
        storeReads++
        return []
      },
      log,
      heartbeatMs: 200,
    })
    try {
      assert.equal(link.status().nats, 'connected')
      link.statusLoop.kill(new Error('killed by the test'))
      await waitFor(
        () => link.stats.statusLoopRestarts,
        n => n === 1,
      )
      const [death] = said(/cluster status loop died/)
      assert.ok(death, 'the death is logged')
      assert.equal((death.err as { message: string }).message, 'killed by the test')
      assert.equal(death.level, 50, 'as an error')
      await waitFor(
        () => storeReads,
        n => n === 1,
      ) // the restart caught up with the store
      assert.equal(link.status().nats, 'connected', 'and knows the link is up')

      // dying again at once, it is restarted after a growing pause, never given up on
      link.statusLoop.kill(new Error('again'))
      await waitFor(
        () => link.stats.statusLoopRestarts,
        n => n === 2,
      )
      link.statusLoop.kill(new Error('and again'))
      await waitFor(
        () => link.stats.statusLoopRestarts,
        n => n === 3,
      )
      assert.deepEqual(
        said(/cluster status loop died/).map(l => l.inMs),
        [0, 100, 200],
      )
      await waitFor(
        () => storeReads,
        n => n === 3,
      )

      // healed: the server goes away and comes back, and the reconnect reconciles as it did before the kills
      const before = link.stats.reconciles
      await nats.stop()
      await waitFor(
        () => link.status().nats,
        s => s === 'reconnecting',
        10_000,
      )
      await nats.start()
      await waitFor(
        () => link.status().nats,
        s => s === 'connected',
        20_000,
      )
      await waitFor(
        () => link.stats.reconciles,
        n => n > before,
      )
      assert.equal(said('cluster link back: reconciling with the store').length, 1)
      await waitFor(
        () => storeReads,
        n => n === 4,
      )
    } finally {
      await link.close()
      await nats.close()
    }
  },
)
