// The options market data surface (TERMINAL_PORT, no version prefix, GET only): tape, ladder,
// venues, strike detail. Thin: validate the query, run the store's query, shape the reply.
// A database failure throws out of the handler: 503 when the database is unreachable, else 500 {error}.
import type { EngineContext } from '../context.js'
import { ok, type Handler } from '../front/request.js'
import {
  tapeBody,
  ladder,
  expirySummaries,
  latestSpot,
  ownVenueActive,
  strikeDetail,
  underlyings,
} from '../store/options.js'
import { parseExpiryDay } from '../../workers/options/deribit/instrumentName.js'
import {
  requireParams,
  underlyingParam,
  expiryParam,
  limitParam,
  offsetParam,
  liquidityParam,
  venueParam,
  strikeParam,
  isCallParam,
} from './params.js'
import { ladderStrikeView, expiryView, strikeDetailView, EMPTY_STRIKE_DETAIL } from './views.js'

/** The own venue's key in /options/venues and its status while it has no on-chain activity. */
export const OWN_VENUE_KEY = 'own_venue'
export const OWN_VENUE_NOTE =
  'VENUE_B, our own on-chain options venue, is coming soon: no on-chain activity yet. Data shown is from VENUE_A.'

// API_KEY is asked at the terminal's front door, before routing (engine/options/auth.ts, app.ts).
export function optionsRoutes({ surfaces, sql }: EngineContext): void {
  const get = (path: string, h: Handler) => surfaces.terminal.get(path, h)

  get('/options/tape', async req => {
    const q = req.query
    const filter = {
      underlying: underlyingParam(q),
      liqClass: liquidityParam(q),
      venue: venueParam(q),
      limit: limitParam(q),
      offset: offsetParam(q),
    }
    // count is the total matching the filters (not the page size): a client pages with it
    return { status: 200, rawJson: await tapeBody(sql, filter) }
  })

  get('/options/ladder', async req => {
    const q = req.query
    requireParams(q, ['underlying', 'expiry'])
    const underlying = underlyingParam(q)!
    const expiry = expiryParam(q)
    const rows = await ladder(sql, underlying, expiry)
    // with no instruments, expiryTs is VENUE_A's convention: 08:00 UTC on the expiry date
    const expiryTs = rows[0]?.expiry_ts ?? parseExpiryDay(expiry)!.date
    return ok({ underlying, expiry, expiryTs: expiryTs.toISOString(), strikes: rows.map(ladderStrikeView) })
  })

  // beyond the spec: what the tape can be filtered by, with each underlying's size and freshness
  get('/options/underlyings', async () => ok({ underlyings: await underlyings(sql) }))

  get('/options/venues', async req => {
    const q = req.query
    requireParams(q, ['underlying'])
    const underlying = underlyingParam(q)!
    const [expiries, spot, ownActive] = await Promise.all([
      expirySummaries(sql, underlying),
      latestSpot(sql, underlying),
      ownVenueActive(sql, underlying),
    ])
    return ok({
      venue: 'VENUE_A',
      underlying,
      expiries: expiries.map(e => expiryView(e, spot?.index_price ?? null)),
      [OWN_VENUE_KEY]: ownActive
        ? { status: 'live', note: 'VENUE_B has on-chain activity for this underlying.' }
        : { status: 'coming_soon', note: OWN_VENUE_NOTE },
    })
  })

  get('/options/strike-detail', async req => {
    const q = req.query
    requireParams(q, ['underlying', 'expiry', 'strike', 'isCall'])
    const underlying = underlyingParam(q)!
    const params = { underlying, expiryDay: expiryParam(q), strike: strikeParam(q), isCall: isCallParam(q) }
    const row = await strikeDetail(sql, params)
    if (!row) return ok(EMPTY_STRIKE_DETAIL) // no data for this instrument: every field null
    const spot = (await latestSpot(sql, underlying))?.index_price ?? row.index_price
    return ok(strikeDetailView(row, spot))
  })
}
