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
import { relayMetrics } from './metrics.js'
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
  const flow = ctx.metrics.flow
  const { writer, store, clusterStore } = bookStore(sql, {
    quoteWriterUrl: ctx.quoteWriterUrl,
    onWriterExit: why => log.error({ why }, 'quote writer thread ended: starting another'),
    commitsInFlight: c.RELAY_COMMITS_IN_FLIGHT,
    cluster: !!c.NATS_URL,
    observe: (s, n) => flow.commit(s, n),
  })
  const book = new RfqBook(ctx.actors, {
    store,
    clusterStore,
    recoverSigner: quoteSigner(ctx, domain),
    onWarn: (msg, detail) => log.warn(detail, msg),
  })
  const admission = new Admission(c.RELAY_ADMISSION_MS)
  // the one lifecycle, shared with the REST API: create, read, cancel, fill, quote
  const rfqs = createRfqService({
    sql,
    book,
    verifyFill,
    admission,
    maxActive: c.MAX_ACTIVE_RFQS_PER_WALLET,
    log,
    flow,
  })
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
    onFrame: type => flow.frame(type),
  })
  relayRoutes(ctx, {
    book,
    domain,
    index,
    connectedClients: () => sockets.connected,
    cluster: cluster && (() => cluster.status()),
  })
  relayMetrics(ctx.metrics, { index, sockets, book, cleanup, admission, writer })
  ctx.onShutdown(async () => {
    cleanup.stop()
    sockets.close()
    index.close()
    // one more try; what is still unstored, the next start's TTL cleanup ends
    if (!(await book.unstored.flush(2000)))
      log.warn({ unstored: book.unstored.waiting }, 'RFQ ends not stored at shutdown: the next start ends them')
    await writer.flush() // every accepted quote is committed (and its word sent) before Postgres and NATS close
    await writer.close()
    await cluster?.close()
  })
  return { book, index, rfqs }
}
