// The relay: the RFQ book (one actor per live RFQ), its durable stores, the WebSocket front and the
// REST polling routes on RELAY_PORT. Returns the book: the RFQ REST API and the fills code reach
// live RFQs only through it. RFQs that were live when the engine last stopped come back first; those
// that expired while it was down are ended by the TTL cleanup (ttlCleanup.ts).
import type { EngineContext } from '../context.js'
import { RfqBook } from '../../actors/book.js'
import { LiveIndex } from '../../actors/liveIndex.js'
import { loadLiveRfqs } from '../store/rfqs.js'
import { bookStore } from '../rfq/bookStore.js'
import { startTtlCleanup } from './ttlCleanup.js'
import { quoteSigner } from './signer.js'
import { relayDomain } from './domain.js'
import { cancelAuthMode } from './cancelAuth.js'
import { mountSocketFront } from './socketFront.js'
import { relayRoutes } from './routes.js'
import { createRfqService, type RfqService } from '../rfq/service.js'
import { Admission } from '../rfq/admission.js'
import type { FillVerifier } from '../chain/verifyFill.js'

export async function relayModule(
  ctx: EngineContext,
  { verifyFill }: { verifyFill?: FillVerifier } = {},
): Promise<{ book: RfqBook; index: LiveIndex; rfqs: RfqService }> {
  const { config: c, log, sql } = ctx
  const domain = relayDomain(c)
  if (cancelAuthMode(c) === 'open') {
    log.warn(
      { chainId: c.CHAIN_ID, cancelAuth: 'open' },
      "relay CANCEL_REQUEST is open: anyone who knows an RFQ id may cancel it (the local-chain default; set RELAY_CANCEL_AUTH=signature to require the taker's signature)",
    )
  }
  if (!c.SPOT_RFQ_ADDRESS)
    log.warn(
      'SPOT_RFQ_ADDRESS is not set: quotes are verified against verifyingContract 0x0000000000000000000000000000000000000000',
    )
  const { writer, store, clusterStore } = bookStore(sql, {
    quoteSql: ctx.quoteSql,
    commitsInFlight: c.RELAY_COMMITS_IN_FLIGHT,
    cluster: !!c.NATS_URL,
  })
  const book = new RfqBook(ctx.actors, {
    store,
    clusterStore,
    recoverSigner: quoteSigner(ctx, domain),
    onWarn: (msg, detail) => log.warn(detail, msg),
  })
  const admission = new Admission(c.RELAY_ADMISSION_MS)
  // the one lifecycle, shared with the REST API: create, read, cancel, fill, quote
  const rfqs = createRfqService({ sql, book, verifyFill, admission, maxActive: c.MAX_ACTIVE_RFQS_PER_WALLET, log })
  const index = new LiveIndex(book.events) // the pollers' read model, kept from the book's events
  // a cluster node listens before it reads the store, so nothing created in between is missed
  const cluster = c.NATS_URL
    ? await (await import('../cluster/module.js')).clusterModule(ctx, { book, domain })
    : undefined
  const restored = book.restore(await loadLiveRfqs(sql))
  const cleanup = startTtlCleanup(ctx)
  index.restore(restored)
  if (restored.length) log.info({ rfqs: restored.length }, 'live RFQs restored into the relay')

  const sockets = mountSocketFront(ctx.surfaces.relayApp, {
    book,
    rfqs,
    log,
    rateLimitPerMin: c.RATE_LIMIT_PER_MIN,
    pingIntervalMs: c.RELAY_PING_INTERVAL_MS,
    maxBackpressure: c.RELAY_MAX_BACKPRESSURE,
    maxPayload: c.RELAY_MAX_PAYLOAD_BYTES,
    cancelAuth: cancelAuthMode(c),
    trustProxy: c.TRUST_PROXY,
    trustProxyHops: c.TRUST_PROXY_HOPS,
    maxConnectionsPerIp: c.RELAY_MAX_CONNECTIONS_PER_IP,
    limits: ctx.limits,
  })
  relayRoutes(ctx, {
    book,
    domain,
    index,
    connectedClients: () => sockets.connected,
    cluster: cluster && (() => cluster.status()),
  })
  ctx.metrics.gauge('relay_held_polls', 'long polls waiting for a change', () => index.waiting)
  ctx.metrics.gauge(
    'relay_poll_wakeups_total',
    'held long polls woken by a change they may see (each re-reads its view)',
    () => index.wakeups,
  )
  ctx.metrics.gauge('relay_connected_clients', 'open relay WebSocket connections', () => sockets.connected)
  ctx.metrics.gauge('relay_active_rfqs', 'RFQs in the relay active store', () => book.activeRfqs)
  ctx.metrics.gauge(
    'rfq_actor_abnormal_stops_total',
    'RFQ actors stopped after repeated failures (their RFQs ended as EXPIRED)',
    () => book.abnormalStops,
  )
  ctx.metrics.gauge(
    'rfq_ends_unstored',
    'RFQ ends the store could not take yet (the database was down): stored once it answers',
    () => book.unstored.waiting,
  )
  ctx.metrics.gauge(
    'rfq_ends_healed_total',
    'RFQ ends settled once the database returned (stored here, or found stored by another node)',
    () => book.unstored.healed,
  )
  ctx.metrics.gauge(
    'rfq_ttl_cleanup_ended_total',
    'RFQs the TTL cleanup stored EXPIRED (open in the store RFQ_TTL_SECS past their expiry)',
    () => cleanup.ended,
  )
  ctx.metrics.gauge(
    'relay_quotes_busy_total',
    'quote submissions refused with BUSY by admission control',
    () => admission.stats.refused,
  )
  ctx.metrics.gauge(
    'relay_admission_limit',
    "quotes admitted in flight at once (steered by the pipeline's latency)",
    () => admission.stats.limit,
  )
  ctx.metrics.gauge('relay_quote_commits_total', 'group commits of accepted quotes', () => writer.stats.commits)
  ctx.onShutdown(async () => {
    cleanup.stop()
    sockets.close()
    index.close()
    // one more try; what is still unstored, the next start's TTL cleanup ends
    if (!(await book.unstored.flush(2000)))
      log.warn({ unstored: book.unstored.waiting }, 'RFQ ends not stored at shutdown: the next start ends them')
    await writer.flush() // every accepted quote is committed (and its word sent) before Postgres and NATS close
    await cluster?.close()
  })
  return { book, index, rfqs }
}
