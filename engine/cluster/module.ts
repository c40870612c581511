// Joins this node to the venue's cluster (NATS_URL set), with its metrics. Imported dynamically by the
// relay module, so a single node never loads the NATS client.
import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { Metrics } from '../metrics.js'
import type { Sql } from '../store/db.js'
import type { RfqBook } from '../../actors/book.js'
import type { Domain } from '../../workers/sig/types.js'
import { loadLiveRfqs } from '../store/rfqs.js'
import { joinCluster, type ClusterLink } from './link.js'
import { clusterIdentity } from './identity.js'
import { nextEpoch } from './epoch.js'
import { shareLimits, type SharedLimits } from './limitShare.js'

export interface ClusterDeps {
  config: Config
  metrics: Metrics
  sql: Sql
  log: Logger
  limits: SharedLimits
}

export async function clusterModule(
  ctx: ClusterDeps,
  { book, domain }: { book: RfqBook; domain: Domain & { chainId: number } },
): Promise<ClusterLink> {
  const { config: c, metrics, sql, log } = ctx
  const identity = clusterIdentity(c) // a key, a peer list and TLS files that hold, or no start
  const link = await joinCluster({
    url: c.NATS_URL!,
    identity,
    epoch: nextEpoch(c.DATA_DIR),
    book,
    log,
    batchMs: c.CLUSTER_BATCH_MS,
    venue: `${domain.chainId}.${domain.verifyingContract.toLowerCase()}`,
    loadLive: () => loadLiveRfqs(sql),
    applied: metrics.flow.clusterApplyLag(),
  })
  const limits = shareLimits(link, ctx.limits) // per-IP and per-agent limits hold across the venue
  metrics.counter(
    'cluster_limit_hits_absorbed_total',
    "rate-limit hits other nodes counted, added to this node's windows",
    () => limits.absorbed,
  )
  metrics.gauge('cluster_nats_connected', "1 while this node's NATS link is up", () =>
    link.status().nats === 'connected' ? 1 : 0,
  )
  metrics.gauge('cluster_peers', 'other nodes heard from within three heartbeats', () => link.status().peers.length)
  metrics.counter('cluster_events_sent_total', 'RFQ events this node sent to the cluster', () => link.stats.sent)
  metrics.counter(
    'cluster_messages_sent_total',
    "NATS messages carrying this node's events (a batch per event-loop turn)",
    () => link.stats.messages,
  )
  metrics.counter('cluster_events_received_total', 'RFQ events received from other nodes', () => link.stats.received)
  metrics.counterBy(
    'cluster_messages_dropped_total',
    'cluster messages (or events in them) dropped before they touched anything, by reason (docs/cluster.md)',
    'reason',
    () => Object.entries(link.stats.dropped),
  )
  metrics.counter(
    'cluster_messages_received_total',
    'NATS messages from other nodes opened here (signed, in order)',
    () => link.stats.messagesReceived,
  )
  metrics.counter(
    'cluster_sequence_gaps_total',
    'lost messages detected (each one reconciled with the store)',
    () => link.stats.gaps,
  )
  metrics.counter(
    'cluster_reconciles_total',
    'times this node reconciled its book with the store',
    () => link.stats.reconciles,
  )
  metrics.counter(
    'cluster_status_loop_restarts_total',
    'times the watch on the NATS connection died and was restarted (each one logged)',
    () => link.stats.statusLoopRestarts,
  )
  metrics.counter(
    'cluster_rfqs_adopted_total',
    "live RFQs read from the store because their creation's word was late or lost",
    () => book.sync?.adopted ?? 0,
  )
  return {
    ...link,
    close: async () => {
      limits.stop()
      await link.close()
    },
  }
}
