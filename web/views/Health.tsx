// Health: the three surfaces (API, terminal, relay) as their /health answers, the relay's connections
// and live RFQs, the route finder's state (pools, age, lag behind the chain), options ingestion
// freshness and a few figures from /metrics. Asked every 5 s; /health and /metrics are not rate limited.
// Behind the kit's proxy /metrics is operator-only (deploy/nginx answers 404 on the public name): the
// figures from it then say so instead of showing an error.
import { useEngine } from '../engine'
import { getJson, getText, useLoad, type Loaded } from '../http'
import { num, duration } from '../format'
import { parseMetrics, type MetricTotals } from '../metrics'

export function Health() {
  const e = useEngine()
  const every = 5000
  const api = useLoad(
    'api',
    () => getJson<{ status: string; database: string; version: string }>(`${e.api}/health`),
    every,
  )
  const terminal = useLoad('terminal', () => getJson<{ status: string }>(`${e.terminal}/health`), every)
  const relay = useLoad(
    'relay',
    () =>
      getJson<{
        status: string
        chainId: number
        connectedClients: number
        activeRfqs: number
        totalQuotes: number
        uptime: number
        cancelAuth: string
      }>(`${e.relay}/health`),
    every,
  )
  const sor = useLoad(
    'sor',
    () =>
      getJson<{
        status: string
        poolsTracked: number
        poolsWithState: number
        ageSeconds: number | null
        stale: boolean
        asOfBlock: string | null
        follow: { lagBlocks: number | null; lagSeconds: number | null } | null
        lastRefreshError: string | null
      }>(`${e.api}/api/v1/sor/health`),
    every,
  )
  const metrics = useLoad('metrics', async () => parseMetrics(await getText(`${e.api}/metrics`)), every)
  const m = metrics.data
  const hidden = metrics.error?.status === 404 || metrics.error?.status === 403
  const missing = hidden ? 'not public here' : undefined
  return (
    <section aria-labelledby="health-h">
      <h1 id="health-h">Health</h1>
      <div class="cards">
        <Surface name="API" at={e.api} s={api} detail={d => `database ${d.database}, version ${d.version}`} />
        <Surface name="Terminal" at={e.terminal} s={terminal} detail={() => 'options market data'} />
        <Surface name="Relay" at={e.relay} s={relay} detail={d => `chain ${d.chainId}, cancel ${d.cancelAuth}`} />
      </div>
      <div class="cards">
        <article class="card" aria-labelledby="h-relay">
          <h2 id="h-relay">Relay</h2>
          <dl class="facts">
            <dt>Connections</dt>
            <dd data-connections>{relay.data?.connectedClients ?? '–'}</dd>
            <dt>Live RFQs</dt>
            <dd>{relay.data?.activeRfqs ?? '–'}</dd>
            <dt>Quotes accepted</dt>
            <dd>{relay.data?.totalQuotes ?? '–'}</dd>
            <dt>Up for</dt>
            <dd>{relay.data ? duration(relay.data.uptime * 1000) : '–'}</dd>
          </dl>
        </article>
        <article class="card" aria-labelledby="h-sor">
          <h2 id="h-sor">Route finder</h2>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{sor.data?.status ?? sor.error?.message ?? '–'}</dd>
            <dt>Pools</dt>
            <dd>{sor.data ? `${sor.data.poolsWithState} with state of ${sor.data.poolsTracked} tracked` : '–'}</dd>
            <dt>State age</dt>
            <dd>
              {sor.data?.ageSeconds == null
                ? 'never loaded'
                : `${duration(sor.data.ageSeconds * 1000)}${sor.data.stale ? ' (stale)' : ''}`}
            </dd>
            <dt>Lag</dt>
            <dd>
              {sor.data?.follow
                ? `${sor.data.follow.lagBlocks ?? '–'} blocks, ${sor.data.follow.lagSeconds === null ? '–' : duration(sor.data.follow.lagSeconds * 1000)}`
                : 'not following the chain'}
            </dd>
            {sor.data?.lastRefreshError && (
              <>
                <dt>Last error</dt>
                <dd class="error">{sor.data.lastRefreshError}</dd>
              </>
            )}
          </dl>
        </article>
        <article class="card" aria-labelledby="h-ingest">
          <h2 id="h-ingest">Options ingestion</h2>
          <dl class="facts">
            <dt>Last success</dt>
            <dd>
              {fig(
                m,
                'options_ingest_last_success_age_seconds',
                v => `${duration(v * 1000)} ago`,
                missing ?? 'no ingestion has run',
              )}
            </dd>
            <dt>Lag</dt>
            <dd>{fig(m, 'options_ingest_lag_seconds', v => duration(v * 1000), missing)}</dd>
            <dt>Trades</dt>
            <dd>{fig(m, 'options_ingest_trades_total', v => num(v, 0), missing)}</dd>
            <dt>Errors</dt>
            <dd>{fig(m, 'options_ingest_errors_total', v => num(v, 0), missing)}</dd>
          </dl>
        </article>
        <article class="card" aria-labelledby="h-metrics">
          <h2 id="h-metrics">Metrics</h2>
          {hidden ? (
            <p class="muted" data-metrics-private>
              /metrics is operator-only and not served on this host (the proxy keeps it off the public name; Prometheus
              scrapes each node directly).
            </p>
          ) : (
            metrics.error && <p class="error">{metrics.error.message}</p>
          )}
          <dl class="facts">
            <dt>Database up</dt>
            <dd>{fig(m, 'database_up', v => (v === 1 ? 'yes' : 'NO'), missing)}</dd>
            <dt>HTTP requests</dt>
            <dd>{fig(m, 'http_requests_total', v => num(v, 0), missing)}</dd>
            <dt>Live actors</dt>
            <dd>{fig(m, 'actors', v => num(v, 0), missing)}</dd>
            <dt>Mailbox depth</dt>
            <dd>{fig(m, 'actor_mailbox_depth', v => num(v, 0), missing)}</dd>
            <dt>Worker queue</dt>
            <dd>{fig(m, 'worker_pool_queue_size', v => num(v, 0), missing)}</dd>
            <dt>Quotes refused busy</dt>
            <dd>{fig(m, 'relay_quotes_busy_total', v => num(v, 0), missing)}</dd>
            <dt>Uncaught errors</dt>
            <dd>{fig(m, 'process_uncaught_errors_total', v => num(v, 0), missing)}</dd>
          </dl>
        </article>
      </div>
    </section>
  )
}

/** a surface's card, named with where this page reaches it (its public host behind a proxy) */
function Surface<T extends { status: string }>({
  name,
  at,
  s,
  detail,
}: {
  name: string
  at: string
  s: Loaded<T>
  detail: (d: T) => string
}) {
  const up = s.data?.status === 'ok' && !s.error
  return (
    <article class="card surface" aria-labelledby={`s-${name}`} data-surface={name}>
      <h2 id={`s-${name}`}>
        <span class={`dot ${up ? 'ok' : 'bad'}`} />
        {name} <span class="muted">{new URL(at).host}</span>
      </h2>
      <p>{s.error ? `down: ${s.error.message}` : s.data ? `${s.data.status}, ${detail(s.data)}` : 'asking…'}</p>
    </article>
  )
}

/** a metric summed over its labels; ages and lags (`_seconds` gauges) as their largest, the stalest stream */
function fig(m: MetricTotals | undefined, name: string, show: (v: number) => string, missing: string = '–'): string {
  const v = name.endsWith('_seconds') ? m?.max.get(name) : m?.sum.get(name)
  return v === undefined ? missing : show(v)
}
