// Live: RFQs and quotes as the relay broadcasts them, with no reload. Each RFQ: pair, size, expiry
// countdown, quote count, best quote, time to first quote. Selecting one (click or Enter) shows its
// quotes and, once it ends, its status, fill and price improvement from the API. An ended RFQ stops
// counting down, in its row and its detail, from the moment either learns how it ended.
import { useEffect, useMemo, useState } from 'preact/hooks'
import { useEngine, tokenOf, symbolOf, type Engine } from '../engine'
import { LiveFeed, bestQuote, firstQuoteMs, type LiveRfq } from '../liveFeed'
import { units, duration, short, price, toFloat, clock, num } from '../format'
import { getJson, useLoad } from '../http'
import { Chart } from '../chart'
import { useNow, selectable } from '../ui'
import { hasExpired, isOpen } from '../../workers/values/rfqStatus'

export function Live() {
  const e = useEngine()
  const feed = useMemo(() => new LiveFeed(e.relay, e.relayWs), [e])
  const [, setVersion] = useState(0)
  const [selected, setSelected] = useState<string | null>(null)
  const [token, setToken] = useState('')
  const now = useNow(1000)
  useEffect(() => {
    const off = feed.onChange(() => setVersion(v => v + 1))
    feed.start()
    return () => {
      off()
      feed.stop()
    }
  }, [feed])

  const rfqs = [...feed.rfqs.values()].sort((a, b) => b.createdAt - a.createdAt)
  const live = rfqs.filter(r => !r.ended && !hasExpired(r.expiry, now)).length
  const chosen = selected ? feed.rfqs.get(selected) : undefined
  const latency = feed.latencies
  return (
    <section aria-labelledby="live-h">
      <h1 id="live-h">Live</h1>
      <div class="bar">
        <span class={`dot ${feed.status === 'open' ? 'ok' : 'bad'}`} role="status">
          relay {feed.status === 'open' ? 'connected' : feed.status}
        </span>
        <span>
          {live} live · {rfqs.length} shown
        </span>
        <form
          class="inline"
          onSubmit={ev => {
            ev.preventDefault()
            feed.addShareToken(token)
            setToken('')
          }}
        >
          <label>
            Share token{' '}
            <input
              value={token}
              onInput={ev => setToken((ev.target as HTMLInputElement).value)}
              placeholder="private RFQs"
              autocomplete="off"
            />
          </label>
          <button type="submit" disabled={!token.trim()}>
            Show private RFQs
          </button>
        </form>
        {feed.shareTokens.length > 0 && <span class="muted">{feed.shareTokens.length} share token(s) in use</span>}
      </div>
      {feed.lastError && (
        <p class="error" role="alert">
          Relay: {feed.lastError}
        </p>
      )}
      <div class="spark-row">
        <Chart
          spark
          label={`Quote latency, last ${latency.length} quotes: ${latency.length ? duration(latency[latency.length - 1]!) + ' latest' : 'none yet'}`}
          data={[latency.map((_, i) => i), latency]}
          series={[{ label: 'ms' }]}
          height={48}
        />
      </div>
      <div class="split">
        <div class="scroll">
          <table class="rows" aria-label="RFQs, newest first">
            <thead>
              <tr>
                <th>Pair</th>
                <th class="n">Size</th>
                <th class="n">Expires in</th>
                <th class="n">Quotes</th>
                <th class="n">Best quote</th>
                <th class="n">First quote</th>
              </tr>
            </thead>
            <tbody>
              {rfqs.map(r => (
                <RfqRow
                  key={r.id}
                  e={e}
                  r={r}
                  now={now}
                  selected={r.id === selected}
                  onSelect={() => setSelected(r.id)}
                />
              ))}
              {!rfqs.length && (
                <tr>
                  <td colSpan={6} class="muted">
                    No RFQs yet. They appear here the moment the relay broadcasts them.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <aside class="detail" aria-live="polite">
          {chosen ? (
            <RfqDetail e={e} r={chosen} now={now} onEnded={status => feed.markEnded(chosen.id, status)} />
          ) : (
            <p class="muted">Select an RFQ (click, or Tab to it and press Enter) to see its quotes.</p>
          )}
        </aside>
      </div>
    </section>
  )
}

function pairOf(e: Engine, r: LiveRfq): string {
  return `${symbolOf(tokenOf(e, r.tokenIn))} → ${symbolOf(tokenOf(e, r.tokenOut))}`
}

function sizeOf(e: Engine, r: LiveRfq): string {
  return r.kind === 1
    ? `${units(r.amountOut, tokenOf(e, r.tokenOut).decimals)} ${symbolOf(tokenOf(e, r.tokenOut))} out`
    : `${units(r.amountIn, tokenOf(e, r.tokenIn).decimals)} ${symbolOf(tokenOf(e, r.tokenIn))}`
}

function RfqRow({
  e,
  r,
  now,
  selected,
  onSelect,
}: {
  e: Engine
  r: LiveRfq
  now: number
  selected: boolean
  onSelect: () => void
}) {
  const best = bestQuote(r)
  const first = firstQuoteMs(r)
  const left = r.expiry * 1000 - now
  const out = tokenOf(e, r.tokenOut),
    inn = tokenOf(e, r.tokenIn)
  return (
    <tr
      {...selectable(selected, onSelect)}
      data-rfq={r.id}
      class={[selected && 'selected', (r.ended || hasExpired(r.expiry, now)) && 'ended'].filter(Boolean).join(' ')}
    >
      <td>
        {pairOf(e, r)}
        {r.visibility === 'private' && <span class="tag">private</span>}
      </td>
      <td class="n">{sizeOf(e, r)}</td>
      <td class="n" data-ends>
        {r.ended ? r.ended.toLowerCase() : hasExpired(r.expiry, now) ? 'expired' : duration(left)}
      </td>
      <td class="n" data-quotes>
        {r.quotes.length}
      </td>
      <td class="n">
        {best
          ? r.kind === 1
            ? `${units(best.amountIn, inn.decimals)} ${symbolOf(inn)}`
            : `${units(best.amountOut, out.decimals)} ${symbolOf(out)}`
          : '–'}
      </td>
      <td class="n">{first === undefined ? '–' : duration(first)}</td>
    </tr>
  )
}

interface Detail {
  status: string
  fillTxHash?: string | null
}
interface Performance {
  improvementBps: number
  rfqAmountOut: string
  baselineAmountOut: string
  baselineSource: string
}

function RfqDetail({ e, r, now, onEnded }: { e: Engine; r: LiveRfq; now: number; onEnded: (status: string) => void }) {
  const inn = tokenOf(e, r.tokenIn),
    out = tokenOf(e, r.tokenOut)
  const headers: Record<string, string> = r.shareToken ? { 'x-share-token': r.shareToken } : {}
  // the relay does not broadcast fills: the API's detail says how the RFQ ended, asked every 5 s while shown
  const detail = useLoad(r.id, () => getJson<Detail>(`${e.api}/api/v1/rfqs/${encodeURIComponent(r.id)}`, headers), 5000)
  const status = detail.data?.status
  const filled = status === 'FILLED'
  const ended = r.ended ?? (status && !isOpen(status) ? status : undefined)
  useEffect(() => {
    if (status && !isOpen(status)) onEnded(status)
  }, [status])
  const perf = useLoad(filled ? r.id : null, () =>
    getJson<Performance>(`${e.api}/api/v1/rfq/performance?rfqId=${encodeURIComponent(r.id)}`),
  )
  const best = bestQuote(r)
  return (
    <div>
      <h2>
        {pairOf(e, r)} <span class="muted mono">{r.id}</span>
      </h2>
      <dl class="facts">
        <dt>Size</dt>
        <dd>
          {sizeOf(e, r)} ({r.kind === 1 ? 'exact out' : 'exact in'})
        </dd>
        <dt>Taker</dt>
        <dd class="mono" title={r.taker}>
          {short(r.taker)}
        </dd>
        <dt>Expiry</dt>
        <dd data-expiry>
          {clock(r.expiry * 1000)} (
          {ended
            ? ended.toLowerCase()
            : hasExpired(r.expiry, now)
              ? 'expired'
              : `in ${duration(r.expiry * 1000 - now)}`}
          )
        </dd>
        <dt>Status</dt>
        <dd data-status>{detail.data?.status ?? (detail.error ? detail.error.message : '…')}</dd>
        {filled && (
          <>
            <dt>Fill</dt>
            <dd class="mono" title={detail.data?.fillTxHash ?? ''}>
              {detail.data?.fillTxHash ? short(detail.data.fillTxHash) : 'recorded'}
            </dd>
          </>
        )}
        {filled && (
          <>
            <dt>Improvement</dt>
            <dd data-improvement>
              {perf.data
                ? `${num(perf.data.improvementBps, 2)} bps vs ${perf.data.baselineSource} (${units(perf.data.rfqAmountOut, out.decimals)} vs ${units(perf.data.baselineAmountOut, out.decimals)} ${symbolOf(out)})`
                : perf.error
                  ? perf.error.status === 404
                    ? 'no baseline stored for this RFQ'
                    : perf.error.message
                  : '…'}
            </dd>
          </>
        )}
      </dl>
      <table aria-label="Quotes of the selected RFQ">
        <thead>
          <tr>
            <th>Maker</th>
            <th class="n">In</th>
            <th class="n">Out</th>
            <th class="n">
              Price ({symbolOf(out)}/{symbolOf(inn)})
            </th>
            <th class="n">Time</th>
          </tr>
        </thead>
        <tbody>
          {r.quotes.map(q => (
            <tr key={q.maker} class={q === best ? 'best' : ''} data-maker={q.maker}>
              <td class="mono" title={q.maker}>
                {short(q.maker)}
                {q === best && <span class="tag">best</span>}
              </td>
              <td class="n">{units(q.amountIn, inn.decimals)}</td>
              <td class="n">{units(q.amountOut, out.decimals)}</td>
              <td class="n">{price(toFloat(q.amountOut, out.decimals) / toFloat(q.amountIn, inn.decimals))}</td>
              <td class="n">
                {clock(q.receivedAt)} (+{duration(q.receivedAt - r.createdAt)})
              </td>
            </tr>
          ))}
          {!r.quotes.length && (
            <tr>
              <td colSpan={5} class="muted">
                No quotes yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  )
}
