// Options: the terminal's trade tape with its filters, and per expiry the venue summary and the strike
// ladder (calls left, puts right, around the strike), with IV by strike and the snapshot's age. When
// the engine runs with API_KEY the terminal needs it: asked here, kept for this tab only.
import { useState } from 'preact/hooks'
import { useEngine, terminalKey, terminalHeaders } from '../engine'
import { getJson, useLoad } from '../http'
import { num, usd, ago, clock, price } from '../format'
import { Chart } from '../chart'
import { selectable, useNow } from '../ui'

interface Trade {
  venue: string
  trade_ref: string
  instrument: string
  is_call: boolean
  strike_display: number
  price: number
  quantity_display: number
  premium_usd: number | null
  iv: number | null
  side: string
  venue_a_liquidity_guess: string
  ts: string
}
interface Expiry {
  expiry: string
  instruments: number
  calls: number
  puts: number
  tradeCount24h: number
  spot: number | null
  totalOI: number | null
  totalVolume24h: number | null
  lastSnapshot: string | null
}
interface Strike {
  instrument: string
  strike: number
  isCall: boolean
  bid: number | null
  ask: number | null
  mark: number | null
  iv: number | null
  delta: number | null
  oi: number | null
  snapshotAt: string | null
}

export function Options() {
  const e = useEngine()
  const [key, setKey] = useState(terminalKey.get())
  const needKey = e.config.terminalKeyRequired && !key
  return (
    <section aria-labelledby="options-h">
      <h1 id="options-h">Options</h1>
      {e.config.terminalKeyRequired && (
        <KeyForm
          has={!!key}
          onKey={k => {
            terminalKey.set(k)
            setKey(k)
          }}
        />
      )}
      {needKey ? (
        <p class="muted">
          The terminal answers only with its key (the engine runs with <code>API_KEY</code>).
        </p>
      ) : (
        <Market key={key} />
      )}
    </section>
  )
}

function KeyForm({ has, onKey }: { has: boolean; onKey: (k: string) => void }) {
  const [text, setText] = useState('')
  return (
    <form
      class="bar"
      onSubmit={ev => {
        ev.preventDefault()
        onKey(text.trim())
        setText('')
      }}
    >
      <label>
        Terminal API key{' '}
        <input
          type="password"
          value={text}
          onInput={ev => setText((ev.target as HTMLInputElement).value)}
          autocomplete="off"
        />
      </label>
      <button type="submit" disabled={!text.trim()}>
        Use key
      </button>
      {has && (
        <button type="button" onClick={() => onKey('')}>
          Forget key
        </button>
      )}
      <span class="muted">
        The terminal needs <code>Authorization: Bearer &lt;API_KEY&gt;</code>; the key stays in this tab's session
        storage.
      </span>
    </form>
  )
}

function Market() {
  const e = useEngine()
  const get = <T,>(path: string) => getJson<T>(e.terminal + path, terminalHeaders())
  const list = useLoad(
    'underlyings',
    () => get<{ underlyings: { underlying: string; tradeCount: number }[] }>('/options/underlyings'),
    30_000,
  )
  const [chosen, setChosen] = useState('')
  const underlying = chosen || list.data?.underlyings[0]?.underlying || ''
  if (list.error)
    return (
      <p class="error" role="alert">
        {list.error.status === 401 ? "The terminal refused the key: enter the engine's API_KEY." : list.error.message}
      </p>
    )
  if (list.data && !list.data.underlyings.length)
    return (
      <p class="muted">
        No options trades ingested yet: run the engine with <code>INGEST_SOURCE</code> set (e.g. <code>synthetic</code>
        ).
      </p>
    )
  return (
    <>
      <div class="bar">
        <label>
          Underlying{' '}
          <select value={underlying} onChange={ev => setChosen((ev.target as HTMLSelectElement).value)}>
            {(list.data?.underlyings ?? []).map(u => (
              <option key={u.underlying} value={u.underlying}>
                {u.underlying} ({u.tradeCount} trades)
              </option>
            ))}
          </select>
        </label>
      </div>
      {underlying && (
        <div class="split wide-left">
          <Tape underlying={underlying} get={get} />
          <Expiries underlying={underlying} get={get} />
        </div>
      )}
    </>
  )
}

type Get = <T>(path: string) => Promise<T>

/** the venue's liquidity guess in a narrow column, with what it means (docs/options.md), shown under the tape */
const GUESS: Record<string, { short: string; means: string }> = {
  RFQ: { short: 'RFQ', means: 'a Block RFQ trade' },
  LIKELY_RFQ: { short: 'RFQ?', means: 'another block trade: likely negotiated' },
  LIKELY_CLOB: { short: 'book?', means: 'likely the order book' },
  UNKNOWN: { short: '?', means: 'a combo leg: the data cannot tell' },
}

function Guess({ value }: { value: string }) {
  const g = GUESS[value]
  return <td title={`${value}: ${g?.means ?? ''}`}>{g?.short ?? value}</td>
}

function Tape({ underlying, get }: { underlying: string; get: Get }) {
  const [venue, setVenue] = useState('all')
  const [guess, setGuess] = useState('all')
  const [offset, setOffset] = useState(0)
  const q = new URLSearchParams({
    underlying,
    venue,
    liquidityGuess: guess,
    limit: '25',
    offset: String(offset),
  }).toString()
  const tape = useLoad(q, () => get<{ trades: Trade[]; count: number }>(`/options/tape?${q}`), 5000)
  const trades = tape.data?.trades ?? []
  return (
    <div class="scroll">
      <h2>Tape</h2>
      <div class="bar">
        <label>
          Venue{' '}
          <select
            value={venue}
            onChange={ev => {
              setVenue((ev.target as HTMLSelectElement).value)
              setOffset(0)
            }}
          >
            <option value="all">all</option>
            <option value="VENUE_A">VENUE_A</option>
            <option value="VENUE_B">VENUE_B</option>
          </select>
        </label>
        <label>
          Liquidity{' '}
          <select
            value={guess}
            onChange={ev => {
              setGuess((ev.target as HTMLSelectElement).value)
              setOffset(0)
            }}
          >
            <option value="all">all</option>
            <option value="rfq">RFQ</option>
            <option value="clob">order book</option>
            <option value="unknown">unknown</option>
          </select>
        </label>
        <span class="muted">{tape.data ? `newest ${trades[0] ? ago(trades[0].ts) : '–'}` : ''}</span>
      </div>
      {tape.error && <p class="error">{tape.error.message}</p>}
      <table aria-label="Options trades, newest first">
        <thead>
          <tr>
            <th>Time</th>
            <th>Instrument</th>
            <th>Side</th>
            <th class="n">Price</th>
            <th class="n">Qty</th>
            <th class="n">Premium</th>
            <th class="n">IV</th>
            <th title="the venue's liquidity guess: see below the tape">Liq.</th>
          </tr>
        </thead>
        <tbody>
          {trades.map(t => (
            <tr key={t.venue + t.trade_ref} data-trade={t.trade_ref}>
              <td>{clock(t.ts)}</td>
              <td class="mono">{t.instrument}</td>
              <td class={t.side}>{t.side}</td>
              <td class="n">{price(t.price)}</td>
              <td class="n">{num(t.quantity_display, 2)}</td>
              <td class="n">{usd(t.premium_usd)}</td>
              <td class="n">{num(t.iv, 1)}</td>
              <Guess value={t.venue_a_liquidity_guess} />
            </tr>
          ))}
        </tbody>
      </table>
      <p class="legend small muted" data-liq-legend>
        Liq., the venue's liquidity guess:{' '}
        {Object.values(GUESS).map(g => (
          <span key={g.short}>
            <b>{g.short}</b> {g.means}
          </span>
        ))}
      </p>
      <div class="pager">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - 25))}>
          Newer
        </button>
        <span>{trades.length ? `${offset + 1}–${offset + trades.length}` : 'no trades'}</span>
        <button type="button" disabled={trades.length < 25} onClick={() => setOffset(offset + 25)}>
          Older
        </button>
      </div>
    </div>
  )
}

function Expiries({ underlying, get }: { underlying: string; get: Get }) {
  const venues = useLoad(
    underlying,
    () => get<{ expiries: Expiry[] }>(`/options/venues?underlying=${encodeURIComponent(underlying)}`),
    30_000,
  )
  const [chosen, setChosen] = useState<string | null>(null)
  const list = venues.data?.expiries ?? []
  const expiry = list.find(x => x.expiry === chosen) ?? list[0]
  return (
    <div class="scroll">
      <h2>Expiries</h2>
      {venues.error && <p class="error">{venues.error.message}</p>}
      <table class="rows" aria-label="Venue summary per expiry">
        <thead>
          <tr>
            <th>Expiry</th>
            <th class="n">Calls/puts</th>
            <th class="n">Trades 24 h</th>
            <th class="n">Spot</th>
            <th class="n">OI</th>
            <th class="n">Vol 24 h</th>
            <th>Snapshot</th>
          </tr>
        </thead>
        <tbody>
          {list.map(x => (
            <tr
              key={x.expiry}
              {...selectable(x === expiry, () => setChosen(x.expiry))}
              class={x === expiry ? 'selected' : ''}
            >
              <td>{x.expiry.slice(0, 10)}</td>
              <td class="n">
                {x.calls}/{x.puts}
              </td>
              <td class="n">{x.tradeCount24h}</td>
              <td class="n">{num(x.spot)}</td>
              <td class="n">{num(x.totalOI, 1)}</td>
              <td class="n">{num(x.totalVolume24h, 1)}</td>
              <td>{ago(x.lastSnapshot)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {expiry && <Ladder underlying={underlying} expiry={expiry} get={get} />}
    </div>
  )
}

function Ladder({ underlying, expiry, get }: { underlying: string; expiry: Expiry; get: Get }) {
  const day = expiry.expiry.slice(0, 10).replace(/-/g, '')
  const ladder = useLoad(
    `${underlying}|${day}`,
    () => get<{ strikes: Strike[] }>(`/options/ladder?underlying=${encodeURIComponent(underlying)}&expiry=${day}`),
    15_000,
  )
  const now = useNow(5000)
  const strikes = ladder.data?.strikes ?? []
  const byStrike = new Map<number, { call?: Strike; put?: Strike }>()
  for (const s of strikes) byStrike.set(s.strike, { ...byStrike.get(s.strike), [s.isCall ? 'call' : 'put']: s })
  const rows = [...byStrike.entries()].sort((a, b) => a[0] - b[0])
  const snapshots = strikes
    .map(s => s.snapshotAt)
    .filter((x): x is string => !!x)
    .sort()
  const newest = snapshots[snapshots.length - 1]
  const atm =
    expiry.spot === null
      ? null
      : rows.reduce<number | null>(
          (best, [k]) => (best === null || Math.abs(k - expiry.spot!) < Math.abs(best - expiry.spot!) ? k : best),
          null,
        )
  const side = (s?: Strike) =>
    [s?.bid, s?.ask, s?.mark].map((v, i) => (
      <td key={i} class="n">
        {v === null || v === undefined ? '–' : price(v)}
      </td>
    ))
  return (
    <div>
      <h2>Ladder {expiry.expiry.slice(0, 10)}</h2>
      <p class="muted" data-snapshot>
        Snapshot{' '}
        {newest ? (
          <>
            {ago(newest, now)} (<time dateTime={newest}>{newest}</time>)
          </>
        ) : (
          'none yet'
        )}
      </p>
      {ladder.error && <p class="error">{ladder.error.message}</p>}
      <div class="scroll">
        <table class="ladder" aria-label="Strike ladder: calls, strike, puts">
          <thead>
            <tr>
              <th colSpan={5}>Calls</th>
              <th />
              <th colSpan={5}>Puts</th>
            </tr>
            <tr>
              <th class="n">Bid</th>
              <th class="n">Ask</th>
              <th class="n">Mark</th>
              <th class="n">IV</th>
              <th class="n">Δ</th>
              <th class="n">Strike</th>
              <th class="n">Bid</th>
              <th class="n">Ask</th>
              <th class="n">Mark</th>
              <th class="n">IV</th>
              <th class="n">Δ</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([k, { call, put }]) => (
              <tr key={k} class={k === atm ? 'atm' : ''}>
                {side(call)}
                <td class="n">{num(call?.iv, 1)}</td>
                <td class="n">{num(call?.delta, 2)}</td>
                <th class="n strike">{num(k, 2)}</th>
                {side(put)}
                <td class="n">{num(put?.iv, 1)}</td>
                <td class="n">{num(put?.delta, 2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* calls and puts often share an IV at a strike: calls wide and solid, puts thin and dashed on top: both show */}
      <Chart
        label={`IV by strike, ${underlying} ${expiry.expiry.slice(0, 10)}`}
        height={180}
        xLabel="strike"
        yLabel="IV %"
        data={[rows.map(r => r[0]), rows.map(r => r[1].call?.iv ?? null), rows.map(r => r[1].put?.iv ?? null)]}
        series={[
          { label: 'calls IV %', width: 4, points: { size: 7 } },
          { label: 'puts IV %', width: 1.5, dash: [5, 4], points: { size: 4 } },
        ]}
        legendAt={() => (atm === null ? null : rows.findIndex(r => r[0] === atm))}
      />
    </div>
  )
}
