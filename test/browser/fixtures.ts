// What the console's views show in the browser suite, made the way the venue makes it: options trades
// from the synthetic ingestion source into the engine's own database, fills of three makers recorded
// through the API, and the route finder's pools scanned and loaded from a real anvil world.
import { createLogger } from '../../engine/log.js'
import { createIngestMetrics } from '../../engine/ingest/metrics.js'
import { runSynthetic } from '../../engine/ingest/sources/synthetic.js'
import { upsertToken } from '../../engine/store/tokens.js'
import type { TestEngine } from '../helpers/engine.js'
import type { World } from '../sor/fixture.js'
import { addr, baselineBody, fillBody, post } from '../api/fillsFixtures.js'

/** Synthetic SIMBTC trades (a minute of backfill) and ticker snapshots for `tickers` instruments. */
export async function ingestSynthetic(t: TestEngine, tickers = 40): Promise<void> {
  const stop = new AbortController()
  const running = runSynthetic({
    sql: t.db.sql,
    log: createLogger('silent'),
    currencies: ['BTC'],
    intervalMs: 500,
    tradesPerCycle: 20,
    snapshotIntervalMs: 60_000,
    tickersPerCycle: tickers,
    backfillMinutes: 1,
    metrics: createIngestMetrics('synthetic'),
    signal: stop.signal,
  })
  try {
    for (let i = 0; i < 600; i++) {
      const [{ n }] = (await t.db
        .sql`select count(*)::int as n from option_snapshots where kind = 'ticker'`) as unknown as [{ n: number }]
      if (n >= tickers) return
      await new Promise(r => setTimeout(r, 25))
    }
    throw new Error('the synthetic source wrote no ticker snapshots in 15 s')
  } finally {
    stop.abort()
    await running
  }
}

export const MAKERS = [addr(0xc0a1), addr(0xc0a2), addr(0xc0a3)]
export const TAKER = addr(0xd0a1)

/** One to three fills per maker, each against a stored baseline, so improvement and points are not zero. */
export async function recordFills(t: TestEngine): Promise<void> {
  for (const [i, maker] of MAKERS.entries()) {
    for (let k = 0; k <= i; k++) {
      const b = baselineBody({ baselineAmountOut: String(2_000_000 - 2_000 * (i + k)) })
      const stored = await post(t.api, '/api/v1/rfq/baseline', b)
      if (stored.status !== 200) throw new Error(`baseline: ${stored.status} ${JSON.stringify(stored.body)}`)
      const f = await post(
        t.api,
        '/api/v1/fills',
        fillBody({
          rfqId: b.rfqId,
          maker,
          taker: TAKER,
          amountInUsd: 1_000 * (i + 1),
          visibility: k === 1 ? 'private' : 'public',
        }),
      )
      if (f.status !== 200) throw new Error(`fill: ${f.status} ${JSON.stringify(f.body)}`)
    }
  }
}

/** The anvil world's tokens in the registry (so the Route form lists them), its pools scanned and loaded. */
export async function loadRoutes(t: TestEngine, world: World): Promise<void> {
  const { AAA, BBB, MID } = world.tokens
  for (const [address, symbol, decimals] of [
    [AAA, 'AAA', 18],
    [BBB, 'BBB', 6],
    [MID, 'MID', 18],
  ] as const)
    await upsertToken(t.db.sql, { chainId: 31337, address, symbol, decimals })
  for (const path of ['/api/v1/sor/pools/scan', '/api/v1/sor/pool-state/refresh']) {
    const r = await fetch(t.api + path, { method: 'POST' })
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${await r.text()}`)
  }
}
