// League: makers or takers for a period, by composite score, with search (4+ characters of an address)
// and paging; each entry's score components; selecting one shows its profile, badges and recent fills.
// The histogram shows how the page's participants stand against the AMM baseline.
import { useState } from 'preact/hooks'
import { useEngine, tokenOf, symbolOf } from '../engine'
import { getJson, useLoad } from '../http'
import { num, usd, pct, short, units, ago } from '../format'
import { Chart, histogram, fullest } from '../chart'
import { selectable, useSettled } from '../ui'

interface Entry {
  rank: number
  address: string
  score: number
  rawScore: number
  filledNotional: number
  avgImprovementBps: number
  privateShare: number
  fills: number
  reliability: number | null
  cancelRate: number | null
  points: number
}
interface Standings {
  entries: Entry[]
  totalParticipants: number
  hasMore: boolean
  kpi: { totalNotional: number; avgImprovementBps: number; privateVolumePct: number; fillCount: number }
}
const PAGE = 20

export function League() {
  const e = useEngine()
  const [role, setRole] = useState<'maker' | 'taker'>('maker')
  const [period, setPeriod] = useState<'7d' | '30d' | 'all'>('7d')
  const [search, setSearch] = useState('')
  const [offset, setOffset] = useState(0)
  const [selected, setSelected] = useState<string | null>(null)
  const typed = useSettled(search.trim(), 300)
  const term = typed.length >= 4 ? typed : ''
  const query = new URLSearchParams({
    role,
    period,
    limit: String(PAGE),
    offset: String(offset),
    ...(term ? { search: term } : {}),
  }).toString()
  const board = useLoad(query, () => getJson<Standings>(`${e.api}/api/v1/league?${query}`), 30_000)
  const entries = board.data?.entries ?? []
  const k = board.data?.kpi
  const pick = (f: () => void) => {
    f()
    setOffset(0)
    setSelected(null)
  }
  return (
    <section aria-labelledby="league-h">
      <h1 id="league-h">League</h1>
      <form class="bar" onSubmit={ev => ev.preventDefault()}>
        <label>
          Role{' '}
          <select value={role} onChange={ev => pick(() => setRole((ev.target as HTMLSelectElement).value as 'maker'))}>
            <option value="maker">makers</option>
            <option value="taker">takers</option>
          </select>
        </label>
        <label>
          Period{' '}
          <select value={period} onChange={ev => pick(() => setPeriod((ev.target as HTMLSelectElement).value as '7d'))}>
            <option value="7d">7 days</option>
            <option value="30d">30 days</option>
            <option value="all">all time</option>
          </select>
        </label>
        <label>
          Search{' '}
          <input
            type="search"
            value={search}
            placeholder="0x… (4+ characters)"
            onInput={ev => pick(() => setSearch((ev.target as HTMLInputElement).value))}
          />
        </label>
      </form>
      {board.error && (
        <p class="error" role="alert">
          {board.error.message}
        </p>
      )}
      {k && (
        <dl class="kpis">
          <div>
            <dt>Volume</dt>
            <dd>{usd(k.totalNotional)}</dd>
          </div>
          <div>
            <dt>Fills</dt>
            <dd>{k.fillCount}</dd>
          </div>
          <div>
            <dt>Avg improvement</dt>
            <dd>{num(k.avgImprovementBps)} bps</dd>
          </div>
          <div>
            <dt>Private volume</dt>
            <dd>{num(k.privateVolumePct)}%</dd>
          </div>
        </dl>
      )}
      <div class="split">
        <div class="scroll">
          <table class="rows" aria-label={`${role}s, ${period}`}>
            <thead>
              <tr>
                <th class="n">#</th>
                <th>Address</th>
                <th class="n">Score</th>
                <th class="n">Raw</th>
                <th class="n">Notional</th>
                <th class="n">Improvement</th>
                <th class="n">Private</th>
                <th class="n">Fills</th>
                {role === 'maker' && (
                  <>
                    <th class="n">Reliability</th>
                    <th class="n">Cancel rate</th>
                  </>
                )}
              </tr>
            </thead>
            <tbody>
              {entries.map(x => (
                <tr
                  key={x.address}
                  {...selectable(selected === x.address, () => setSelected(x.address))}
                  class={selected === x.address ? 'selected' : ''}
                  data-address={x.address}
                >
                  <td class="n">{x.rank}</td>
                  <td class="mono" title={x.address}>
                    {short(x.address)}
                  </td>
                  <td class="n">
                    <b>{num(x.score)}</b>
                  </td>
                  <td class="n">{num(x.rawScore)}</td>
                  <td class="n">{usd(x.filledNotional)}</td>
                  <td class="n">{num(x.avgImprovementBps)} bps</td>
                  <td class="n">{pct(x.privateShare, 0)}</td>
                  <td class="n">{x.fills}</td>
                  {role === 'maker' && (
                    <>
                      <td class="n">{num(x.reliability, 3)}</td>
                      <td class="n">{pct(x.cancelRate, 0)}</td>
                    </>
                  )}
                </tr>
              ))}
              {!entries.length && !board.loading && (
                <tr>
                  <td colSpan={10} class="muted">
                    No {role}s with fills in this period{term ? ' matching the search' : ''}.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
          <div class="pager">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Previous
            </button>
            <span>
              {entries.length ? `${offset + 1}–${offset + entries.length} of ${board.data?.totalParticipants}` : ''}
            </span>
            <button type="button" disabled={!board.data?.hasMore} onClick={() => setOffset(offset + PAGE)}>
              Next
            </button>
          </div>
          <Chart
            bars
            label={`${role === 'maker' ? 'Makers' : 'Takers'} on this page by average improvement vs the AMM baseline (bps)`}
            data={histogram(
              entries.map(x => x.avgImprovementBps),
              10,
            )}
            series={[{ label: role + 's' }]}
            height={160}
            xLabel="bps vs baseline"
            yLabel={role + 's'}
            legendAt={fullest}
          />
        </div>
        <aside class="detail" aria-live="polite">
          {selected ? (
            <Profile address={selected} role={role} period={period} />
          ) : (
            <p class="muted">Select an address to see its profile and badges.</p>
          )}
        </aside>
      </div>
    </section>
  )
}

interface RoleTotals {
  fills: number
  notionalUsd: number
  avgImprovementBps: number | null
  privateFills: number
  points: number
}
interface ProfileReply {
  points: { total: number }
  asMaker: RoleTotals
  asTaker: RoleTotals
  badges: { id: string; name: string; description: string }[]
}
interface ActivityFill {
  txHash: string
  filledAt: string
  counterparty: string
  tokenIn: string
  tokenOut: string
  amountIn: string
  amountOut: string
  notionalUsd: number
  improvementBps: number
  isPrivate: boolean
}

function Profile({ address, role, period }: { address: string; role: string; period: string }) {
  const e = useEngine()
  const profile = useLoad(address, () => getJson<ProfileReply>(`${e.api}/api/v1/profile/${address}`))
  const act = useLoad(`${address}|${role}|${period}`, () =>
    getJson<{ fills: ActivityFill[] }>(
      `${e.api}/api/v1/league/activity?address=${address}&role=${role}&period=${period}&limit=10`,
    ),
  )
  const p = profile.data
  const totals = (name: string, t: RoleTotals) => (
    <tr>
      <th>{name}</th>
      <td class="n">{t.fills}</td>
      <td class="n">{usd(t.notionalUsd)}</td>
      <td class="n">{num(t.avgImprovementBps)} bps</td>
      <td class="n">{num(t.points)}</td>
    </tr>
  )
  return (
    <div>
      <h2 class="mono">{short(address)}</h2>
      <p class="mono small">{address}</p>
      {profile.error && <p class="error">{profile.error.message}</p>}
      {p && (
        <>
          <p>
            Points: <b>{num(p.points.total)}</b>
          </p>
          <table aria-label="Totals by role">
            <thead>
              <tr>
                <th />
                <th class="n">Fills</th>
                <th class="n">Notional</th>
                <th class="n">Improvement</th>
                <th class="n">Points</th>
              </tr>
            </thead>
            <tbody>
              {totals('As maker', p.asMaker)}
              {totals('As taker', p.asTaker)}
            </tbody>
          </table>
          <h3>Badges</h3>
          {p.badges.length ? (
            <ul class="badges">
              {p.badges.map(b => (
                <li key={b.id} title={b.description}>
                  {b.name}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">No badges yet.</p>
          )}
        </>
      )}
      <h3>Recent fills as {role}</h3>
      <table aria-label="Recent fills">
        <thead>
          <tr>
            <th>When</th>
            <th>Pair</th>
            <th class="n">Out</th>
            <th class="n">USD</th>
            <th class="n">Improvement</th>
          </tr>
        </thead>
        <tbody>
          {(act.data?.fills ?? []).map(f => {
            const out = tokenOf(e, f.tokenOut)
            return (
              <tr key={f.txHash}>
                <td>{ago(f.filledAt)}</td>
                <td>
                  {symbolOf(tokenOf(e, f.tokenIn))} → {symbolOf(out)}
                  {f.isPrivate && <span class="tag">private</span>}
                </td>
                <td class="n">{units(f.amountOut, out.decimals)}</td>
                <td class="n">{usd(f.notionalUsd)}</td>
                <td class="n">{num(f.improvementBps)} bps</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}
