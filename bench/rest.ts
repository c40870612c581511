// REST read throughput: GET /api/v1/rfqs (a page of 50 from Postgres, tokens from the registry
// cache) and GET /api/v1/rfqs/:id for a live RFQ (an ask to its actor), through the real engine
// in its own process, `BENCH_CONCURRENCY` keep-alive connections (default 64) for
// `BENCH_SECONDS` each (default 5). The public per-IP limit is raised: every client is 127.0.0.1.
// Also the relay's REST polling (served from memory) against the relay's /health, and the open list
// against /api/v1/health, as ratios measured in the same run.
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { load, type LoadResult } from './lib/load.js'
import { startEngineProcess } from './lib/engineProcess.js'
import { repoRoot } from '../engine/paths.js'
import { registrationMessage } from '../engine/agents/message.js'

parseCli(
  'rest.js',
  benchUsage('rest', 'REST read throughput: the RFQ list and detail, the relay polling routes against its /health.', {
    BENCH_SECONDS: 'seconds per case (5)',
    BENCH_CONCURRENCY: 'keep-alive connections (64)',
    BENCH_RFQS: 'live RFQs (200)',
  }),
  {},
)

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64)
const rfqCount = Number(process.env.BENCH_RFQS ?? 200)

const engine = await startEngineProcess({
  PUBLIC_RATE_LIMIT_PER_MIN: '1000000000',
  RELAY_REST_RATE_LIMIT_PER_MIN: '1000000000',
  AGENT_RATE_PER_MIN: '1000000',
  AGENT_RATE_PER_HOUR: '1000000',
  AGENT_REGISTRATION_PER_HOUR: '1000',
  AGENT_REGISTRATION_PER_DAY: '1000',
  MAX_ACTIVE_RFQS_PER_WALLET: String(rfqCount + 10),
  RFQ_TTL_SECS: '600',
  POOL_THREADS: '1',
  DATA_DIR: process.env.DATA_DIR ?? join(repoRoot, '.data/bench-rest'),
})
try {
  const api = `http://127.0.0.1:${engine.ports.api}`
  const owner = privateKeyToAccount(generatePrivateKey())
  const agent = privateKeyToAccount(generatePrivateKey())
  const f = {
    name: 'bench',
    ownerWallet: owner.address,
    agentWallet: agent.address,
    roles: ['taker'],
    timestamp: Math.floor(Date.now() / 1000),
  }
  const reg = await postJson<{ apiKey: string }>(`${api}/api/v1/agent/register`, {
    ...f,
    signature: await owner.signMessage({ message: registrationMessage(f) }),
  })
  const headers = { authorization: `Bearer ${reg.apiKey}` }
  const ids: string[] = []
  for (let i = 0; i < rfqCount; i++) {
    const r = await postJson<{ rfqId: string }>(
      `${api}/api/v1/agent/rfqs`,
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: String(10n ** 18n + BigInt(i)), ttlSeconds: 300 },
      headers,
    )
    ids.push(r.rfqId)
  }
  const live = ids[ids.length - 1]!
  const opts = { concurrency, durationMs: seconds * 1000 }
  await load(`${api}/api/v1/rfqs`, { ...opts, durationMs: 1000 }) // warm up
  const list = await load(`${api}/api/v1/rfqs`, opts)
  const detail = await load(`${api}/api/v1/rfqs/${live}`, opts)
  const openList = await load(`${api}/api/v1/rfqs?status=open`, opts)
  const apiHealth = await load(`${api}/api/v1/health`, opts)
  const relay = `http://127.0.0.1:${engine.ports.relay}`
  const relayHealth = await load(`${relay}/health`, opts)
  const relayRfqs = await load(`${relay}/rfqs`, opts)
  const cursor = ((await (await fetch(`${relay}/rfqs`)).json()) as { cursor: string }).cursor
  const relaySince = await load(`${relay}/rfqs?since=${cursor}`, opts)
  const relayQuotes = await load(`${relay}/quotes?rfqId=${live}`, opts)
  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  errors ${r.errors}  (${r.requests} requests)`
  console.log(`bench/rest: ${concurrency} keep-alive connections, ${seconds}s each, loopback, ${rfqCount} live RFQs`)
  console.log(row('GET /api/v1/rfqs (page of 50, Postgres)', list))
  console.log(row('GET /api/v1/rfqs/:id (live, actor ask)', detail))
  const ratio = (a: LoadResult, b: LoadResult) => `${((a.rps / b.rps) * 100).toFixed(0)}%`
  console.log(row('GET /api/v1/rfqs?status=open', openList) + `  ${ratio(openList, apiHealth)} of /api/v1/health`)
  console.log(row('GET /api/v1/health (reference)', apiHealth))
  console.log(
    row('relay GET /rfqs (memory, all live)', relayRfqs) + `  ${ratio(relayRfqs, relayHealth)} of relay /health`,
  )
  console.log(
    row('relay GET /rfqs?since=<cursor>', relaySince) + `  ${ratio(relaySince, relayHealth)} of relay /health`,
  )
  console.log(row('relay GET /quotes?rfqId=', relayQuotes) + `  ${ratio(relayQuotes, relayHealth)} of relay /health`)
  console.log(row('relay GET /health (reference)', relayHealth))
  console.log("note: client and engine share the machine's cores; the load generator is one node process.")
} finally {
  await engine.stop()
}

async function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as T
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`)
  return json
}
