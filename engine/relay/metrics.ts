// The relay's levels and counts on /metrics, read at scrape time from where they are kept. RFQ ends are counted as
// the book announces them: this node's own ends (a remote end is its origin's to count), expiries on every node that
// held the RFQ (each node's timer ends its copy).
import type { Metrics } from '../metrics.js'
import type { RfqBook } from '../../actors/book.js'
import type { LiveIndex } from '../../actors/liveIndex.js'
import type { SocketFront } from './socketFront.js'
import type { Admission } from '../rfq/admission.js'
import type { QuoteWriter } from '../store/quotes.js'

const ENDS = { 'rfq.filled': 'FILLED', 'rfq.cancelled': 'CANCELLED', 'rfq.expired': 'EXPIRED' } as const

export function relayMetrics(
  m: Metrics,
  r: {
    index: LiveIndex
    sockets: SocketFront
    book: RfqBook
    cleanup: { ended: number }
    admission: Admission
    writer: QuoteWriter
  },
): void {
  const { index, sockets, book, cleanup, admission, writer } = r
  book.events.subscribe(e => {
    if (!e.remote && e.type in ENDS) m.flow.rfqEnded(ENDS[e.type as keyof typeof ENDS])
  })
  m.gauge('relay_held_polls', 'long polls waiting for a change', () => index.waiting)
  m.counterBy(
    'relay_long_polls_total',
    'held long polls woken by a change they may see (each re-reads its view), or timed out',
    'outcome',
    () => [
      ['woken', index.wakeups],
      ['timed_out', index.timedOut],
    ],
  )
  m.counter(
    'relay_poll_wakeups_total',
    'held long polls woken by a change they may see (each re-reads its view)',
    () => index.wakeups,
  )
  m.gauge('relay_connected_clients', 'open relay WebSocket connections', () => sockets.connected)
  m.gaugeBy('relay_open_sockets', 'open relay WebSocket connections by encoding', 'encoding', () =>
    sockets.byEncoding(),
  )
  m.gauge('relay_active_rfqs', 'RFQs in the relay active store', () => book.activeRfqs)
  m.gauge('rfq_actors', 'live RFQ actors (one per RFQ in the book)', () => book.activeRfqs)
  m.counter(
    'rfq_actor_abnormal_stops_total',
    'RFQ actors stopped after repeated failures (their RFQs ended as EXPIRED)',
    () => book.abnormalStops,
  )
  m.gauge(
    'rfq_ends_unstored',
    'RFQ ends the store could not take yet (the database was down): stored once it answers',
    () => book.unstored.waiting,
  )
  m.counter(
    'rfq_ends_healed_total',
    'RFQ ends settled once the database returned (stored here, or found stored by another node)',
    () => book.unstored.healed,
  )
  m.counter(
    'rfq_ttl_cleanup_ended_total',
    'RFQs the TTL cleanup stored EXPIRED (open in the store RFQ_TTL_SECS past their expiry)',
    () => cleanup.ended,
  )
  m.counter(
    'relay_quotes_busy_total',
    'quote submissions refused with BUSY by admission control',
    () => admission.stats.refused,
  )
  m.gauge(
    'relay_admission_limit',
    "quotes admitted in flight at once (steered by the pipeline's latency)",
    () => admission.stats.limit,
  )
  m.counter('relay_quote_commits_total', 'group commits of accepted quotes', () => writer.stats.commits)
}
