// Route: ask the route finder for a swap. The form takes tokens from the registry, an amount in whole
// tokens, max hops, max split and protocols; the answer shows each route's share of the input, its
// hops with protocol and fee, the price impact, the alternatives and the warnings. An error answer is
// shown as the engine's own sentence. Two tokens that share a symbol are told apart by their address, and
// the form starts on a pair the route finder has pools for (its coverage), so its first answer is a route.
import { useState } from 'preact/hooks'
import { useEngine, tokenOf, symbolOf, tokenLabels, type Engine, type Token } from '../engine'
import { getJson, useLoad, HttpFailure } from '../http'
import { units, num, parseUnits, price } from '../format'

interface Pool {
  address: string
  protocol: string
  poolType: string
  fee: number
}
interface Quote {
  meta: {
    timestamp: string
    asOfBlock: string | null
    computeTimeMs: number
    candidatesConsidered: number
    viableRoutes: number
    isSplit: boolean
  }
  summary: {
    tokenIn: string
    tokenOut: string
    amountIn: string
    amountOut: string
    effectivePrice: number
    priceImpactBps: number
  }
  routes: { path: string[]; pools: Pool[]; hops: number; amountIn: string; amountOut: string; fractionPct: number }[]
  alternatives: { protocol: string; amountOut: string; diffBps: number }[]
  warnings: string[]
  fees: Fee[]
}
interface Fee {
  pool: string
  protocol: string
  feeBps: number
  token: string
  amount: string
}

export function Route() {
  const e = useEngine()
  const protocols = useLoad('protocols', () =>
    getJson<{ protocols: { slug: string; name: string }[] }>(`${e.api}/api/v1/sor/protocols`),
  )
  const list = e.tokenList
  const labels = tokenLabels(list)
  const coverage = useLoad('coverage', () => getJson<{ pairs: Pair[] }>(`${e.api}/api/v1/sor/coverage`))
  // until the user picks, the pair follows the coverage as it loads
  const [picked, setPicked] = useState<{ in?: string; out?: string }>({})
  const [firstIn, firstOut] = defaultPair(list, coverage.data?.pairs)
  const tokenIn = picked.in ?? firstIn,
    tokenOut = picked.out ?? firstOut
  const setIn = (a: string) => setPicked({ in: a, out: tokenOut })
  const setOut = (a: string) => setPicked({ in: tokenIn, out: a })
  const [amount, setAmount] = useState('1')
  const [maxHops, setHops] = useState('2')
  const [maxSplit, setSplit] = useState('4')
  const [slugs, setSlugs] = useState<string[]>([])
  const [answer, setAnswer] = useState<{ quote?: Quote; error?: string; busy?: boolean }>({})
  const inn = tokenOf(e, tokenIn)
  const raw = inn.decimals === null ? null : parseUnits(amount, inn.decimals)
  const problem =
    !tokenIn || !tokenOut
      ? 'Choose two tokens.'
      : tokenIn === tokenOut
        ? 'Token in and token out must differ.'
        : raw === null
          ? 'Enter a positive amount.'
          : ''
  const ask = async () => {
    setAnswer({ busy: true })
    const q = new URLSearchParams({
      tokenIn,
      tokenOut,
      amountIn: raw!,
      maxHops,
      maxSplit,
      ...(slugs.length ? { slugs: slugs.join(',') } : {}),
    })
    try {
      setAnswer({ quote: await getJson<Quote>(`${e.api}/api/v1/sor/quote?${q}`) })
    } catch (err) {
      setAnswer({ error: err instanceof HttpFailure ? err.message : String(err) })
    }
  }
  const tokenSelect = (label: string, value: string, set: (v: string) => void) => (
    <label>
      {label}{' '}
      <select value={value} onChange={ev => set((ev.target as HTMLSelectElement).value)}>
        {list.map(t => (
          <option key={t.address} value={t.address}>
            {labels.get(t.address)}
          </option>
        ))}
      </select>
    </label>
  )
  return (
    <section aria-labelledby="route-h">
      <h1 id="route-h">Route</h1>
      <form
        class="form"
        aria-label="Route request"
        onSubmit={ev => {
          ev.preventDefault()
          if (!problem) void ask()
        }}
      >
        {tokenSelect('Token in', tokenIn, setIn)}
        {tokenSelect('Token out', tokenOut, setOut)}
        <label>
          Amount ({symbolOf(inn)}){' '}
          <input
            name="amount"
            inputMode="decimal"
            value={amount}
            onInput={ev => setAmount((ev.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          Max hops{' '}
          <select value={maxHops} onChange={ev => setHops((ev.target as HTMLSelectElement).value)}>
            <option>1</option>
            <option>2</option>
          </select>
        </label>
        <label>
          Max split{' '}
          <input
            type="number"
            min={1}
            max={10}
            value={maxSplit}
            onInput={ev => setSplit((ev.target as HTMLInputElement).value)}
          />
        </label>
        <fieldset>
          <legend>Protocols</legend>
          {(protocols.data?.protocols ?? []).map(p => (
            <label key={p.slug} class="check">
              <input
                type="checkbox"
                checked={slugs.includes(p.slug)}
                onChange={ev =>
                  setSlugs(
                    (ev.target as HTMLInputElement).checked ? [...slugs, p.slug] : slugs.filter(s => s !== p.slug),
                  )
                }
              />{' '}
              {p.name}
            </label>
          ))}
          <span class="muted">
            {protocols.data?.protocols.length
              ? 'none ticked: all'
              : 'no protocols known (the route finder has no chain or no protocols file)'}
          </span>
        </fieldset>
        <button type="submit" disabled={!!problem || answer.busy}>
          {answer.busy ? 'Finding routes…' : 'Find routes'}
        </button>
        {problem && <span class="muted">{problem}</span>}
      </form>
      <div aria-live="polite">
        {answer.error && (
          <p class="error" role="alert" data-route-error>
            {answer.error}
          </p>
        )}
        {answer.quote && <Answer e={e} q={answer.quote} />}
      </div>
    </section>
  )
}

interface Pair {
  tokenA: { address: string }
  tokenB: { address: string }
}

/** the route finder's best-covered pair among the listed tokens; else the first two with different symbols */
function defaultPair(list: Token[], pairs: Pair[] | undefined): [string, string] {
  const listed = new Map(list.map(t => [t.address.toLowerCase(), t.address]))
  for (const p of pairs ?? []) {
    const a = listed.get(p.tokenA.address.toLowerCase()),
      b = listed.get(p.tokenB.address.toLowerCase())
    if (a && b) return [a, b]
  }
  const first = list[0]
  const other = list.find(t => t !== first && symbolOf(t).toLowerCase() !== symbolOf(first!).toLowerCase()) ?? list[1]
  return [first?.address ?? '', other?.address ?? '']
}

function Answer({ e, q }: { e: Engine; q: Quote }) {
  const inn = tokenOf(e, q.summary.tokenIn),
    out = tokenOf(e, q.summary.tokenOut)
  return (
    <div class="answer" data-answer>
      <h2>
        {units(q.summary.amountIn, inn.decimals)} {symbolOf(inn)} → {units(q.summary.amountOut, out.decimals)}{' '}
        {symbolOf(out)}
      </h2>
      <dl class="kpis">
        <div>
          <dt>Price</dt>
          <dd>
            {price(q.summary.effectivePrice)} {symbolOf(out)}/{symbolOf(inn)}
          </dd>
        </div>
        <div>
          <dt>Price impact</dt>
          <dd>{num(q.summary.priceImpactBps)} bps</dd>
        </div>
        <div>
          <dt>Routes</dt>
          <dd>
            {q.routes.length}
            {q.meta.isSplit ? ' (split)' : ''}
          </dd>
        </div>
        <div>
          <dt>Searched</dt>
          <dd>
            {q.meta.candidatesConsidered} candidates in {num(q.meta.computeTimeMs)} ms, block {q.meta.asOfBlock ?? '–'}
          </dd>
        </div>
      </dl>
      {q.warnings.length > 0 && (
        <ul class="warnings" aria-label="Warnings">
          {q.warnings.map(w => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {q.routes.length > 0 && (
        <table aria-label="Routes">
          <thead>
            <tr>
              <th class="n">Share</th>
              <th>Path</th>
              <th>Hops (protocol, fee)</th>
              <th class="n">In</th>
              <th class="n">Out</th>
            </tr>
          </thead>
          <tbody>
            {q.routes.map((r, i) => (
              <tr key={i} data-route>
                <td class="n">
                  <span class="share" style={{ '--share': `${r.fractionPct}%` }}>
                    {num(r.fractionPct, 1)}%
                  </span>
                </td>
                <td>{r.path.map(a => symbolOf(tokenOf(e, a))).join(' → ')}</td>
                <td>
                  {r.pools.map((p, j) => (
                    <span key={j} class="hop">
                      {p.protocol} <span class="muted">{feeText(e, p, q.fees)}</span>
                    </span>
                  ))}
                </td>
                <td class="n">{units(r.amountIn, inn.decimals)}</td>
                <td class="n">{units(r.amountOut, out.decimals)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {q.alternatives.length > 0 && (
        <>
          <h3>Alternatives</h3>
          <table aria-label="Alternatives">
            <thead>
              <tr>
                <th>Protocol</th>
                <th class="n">Out</th>
                <th class="n">vs best</th>
              </tr>
            </thead>
            <tbody>
              {q.alternatives.map(a => (
                <tr key={a.protocol}>
                  <td>{a.protocol}</td>
                  <td class="n">{units(a.amountOut, out.decimals)}</td>
                  <td class="n">{num(a.diffBps)} bps</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  )
}

/** a pool's fee is in pips for every kind (3000 = 0.30%); `fees` adds what the hop pays, in its token */
function feeText(e: Engine, p: Pool, fees: Fee[]): string {
  const paid = fees.find(f => f.pool.toLowerCase() === p.address.toLowerCase())
  const t = paid ? tokenOf(e, paid.token) : undefined
  return `${num(p.fee / 1e4, 3)}%${paid && t ? `, ${units(paid.amount, t.decimals)} ${symbolOf(t)}` : ''}`
}
