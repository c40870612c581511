// The kit end to end: Debian's Prometheus on loopback, run with deploy/prometheus/'s own scrape config and rules,
// scrapes two engine nodes of one venue (real processes, real NATS, one PostgreSQL). Quotes are driven over the
// relay's WebSocket; Prometheus' HTTP API then shows them in the latency histogram, the outcome counters match what
// was sent on each node, and once a node is killed the node-down rule is pending or firing (and the survivor's
// ClusterPeerMissing with it).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PrivateKeyAccount } from 'viem/accounts'
import { spawnEngine, type EngineProc } from '../faults/process.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { startSecureNats, type SecureNats } from '../cluster/secureNats.js'
import { startPrometheus, type Prometheus } from '../helpers/prometheus.js'
import { newAgent, post, get } from '../api/agentKit.js'
import { Client, account, sign, waitFor, ZERO } from '../relay/helpers.js'
import type { Quote } from '../../sdk/types.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const AMOUNT = '1000000000000000000'
const DOMAIN = { name: 'SpotRFQ', version: '1', chainId: 31337, verifyingContract: ZERO }
const RFQS = 4

let nats: SecureNats
let db: TestDatabase
const nodes: EngineProc[] = []
let prom: Prometheus
let clients: Client[] = []
const hostOf = (n: EngineProc) => `127.0.0.1:${n.ports.api}`

before(async () => {
  nats = await startSecureNats(['n1', 'n2'])
  db = await testDatabase('p')
  const env = {
    DATABASE_URL: db.url,
    FILL_VERIFY: 'off',
    RATE_LIMIT_PER_MIN: '100000',
    PUBLIC_RATE_LIMIT_PER_MIN: '100000',
    AGENT_RATE_PER_MIN: '100000',
    AGENT_RATE_PER_HOUR: '1000000',
    MAX_ACTIVE_RFQS_PER_WALLET: '1000',
  }
  for (const id of ['n1', 'n2']) {
    nodes.push(await spawnEngine({ ...env, ...nats.env(id), DATA_DIR: mkdtempSync(join(tmpdir(), `prom-${id}-`)) }))
  }
  for (const n of nodes)
    await waitFor(
      async () => (await get(n.relay, '/health')).body.cluster?.peers?.length,
      len => len === 1,
      10_000,
    )
  prom = await startPrometheus(nodes.map(hostOf), { kit: true })
})
after(async () => {
  await Promise.all(clients.map(c => c.close()))
  await prom?.stop()
  await Promise.all(nodes.filter(n => n.child.exitCode === null).map(n => n.term()))
  await nats?.close()
  await db?.drop()
})

async function until<T>(what: string, f: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await f()
    if (ok(v)) return v
    if (Date.now() > end) assert.fail(`${what}: ${JSON.stringify(v)}`)
    await new Promise(r => setTimeout(r, 250))
  }
}
/** an instant query's value per node (its `instance`) */
const byNode = async (expr: string) =>
  Object.fromEntries((await prom.query(expr)).map(s => [s.metric.instance!, Number(s.value[1])]))

const quoteFor = async (maker: PrivateKeyAccount, expiry: number, signer = maker) => {
  const quote: Quote = {
    maker: maker.address.toLowerCase() as Quote['maker'],
    taker: ZERO,
    tokenIn: WETH,
    tokenOut: USDC,
    amountIn: AMOUNT,
    amountOut: String(2_500_000_000 + Math.floor(Math.random() * 1e6)),
    expiry,
    nonce: String(Math.floor(Math.random() * 1e12)),
    deadline: Math.floor(Date.now() / 1000) + 120,
  }
  return { quote, signature: await sign(signer, DOMAIN, quote) }
}

test("both nodes are scraped with the kit's config", async () => {
  const up = await until(
    'both nodes up',
    () => byNode('up{job="rfq-engine"}'),
    v => Object.keys(v).length === 2,
  )
  assert.deepEqual(up, Object.fromEntries(nodes.map(n => [hostOf(n), 1])))
})

test('driven quotes show in the latency histogram, and the outcome counters match what each node was sent', async () => {
  const taker = await newAgent(nodes[0]!.api, ['taker', 'monitor'])
  clients = await Promise.all(nodes.map(n => Client.open(n.relayWs)))
  const [a, b] = [account(), account()]
  for (let i = 0; i < RFQS; i++) {
    const r = await post(
      nodes[0]!.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: AMOUNT, ttlSeconds: 120 },
      taker.headers,
    )
    assert.equal(r.status, 201, JSON.stringify(r.body))
    const { rfqId, expiry } = r.body as { rfqId: string; expiry: number }
    for (const c of clients) await c.next(f => f.type === 'RFQ_BROADCAST' && f.data.rfqId === rfqId, 5000)
    // n1: a's quote (accepted), then a's again (DUPLICATE_QUOTE); n2: b's (accepted), then one b did not sign
    clients[0]!.send('QUOTE_SUBMIT', { rfqId, ...(await quoteFor(a, expiry)) })
    await clients[0]!.next(
      f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfqId && f.data.quote.maker === a.address.toLowerCase(),
    )
    assert.equal((await clients[0]!.error({ rfqId, ...(await quoteFor(a, expiry)) })).code, 'DUPLICATE_QUOTE')
    clients[1]!.send('QUOTE_SUBMIT', { rfqId, ...(await quoteFor(b, expiry)) })
    await clients[1]!.next(
      f => f.type === 'QUOTE_BROADCAST' && f.data.rfqId === rfqId && f.data.quote.maker === b.address.toLowerCase(),
    )
    assert.equal(
      (await clients[1]!.error({ rfqId, ...(await quoteFor(b, expiry, account())) })).code,
      'INVALID_SIGNATURE',
    )
  }
  const [n1, n2] = nodes.map(hostOf) as [string, string]
  // a scrape after the last refusal holds them all (each node counts the submissions it answered)
  await until(
    'the scrapes',
    () => byNode('sum by (instance) (relay_quotes_total)'),
    v => v[n1] === 2 * RFQS && v[n2] === 2 * RFQS,
  )
  assert.deepEqual(await byNode('relay_quotes_total{outcome="ACCEPTED"}'), { [n1]: RFQS, [n2]: RFQS })
  assert.deepEqual(await byNode('relay_quotes_total{outcome="DUPLICATE_QUOTE"}'), { [n1]: RFQS, [n2]: 0 })
  assert.deepEqual(await byNode('relay_quotes_total{outcome="INVALID_SIGNATURE"}'), { [n1]: 0, [n2]: RFQS })
  assert.deepEqual(
    await byNode('sum by (instance) (relay_quotes_total{outcome!~"ACCEPTED|DUPLICATE_QUOTE|INVALID_SIGNATURE"})'),
    { [n1]: 0, [n2]: 0 },
    'nothing else counted',
  )
  // the histogram times the accepted quotes: one observation each, every one inside the buckets
  assert.deepEqual(await byNode('relay_quote_duration_seconds_count'), { [n1]: RFQS, [n2]: RFQS })
  assert.deepEqual(await byNode('relay_quote_duration_seconds_bucket{le="+Inf"}'), { [n1]: RFQS, [n2]: RFQS })
  const p99 = await prom.query('histogram_quantile(0.99, sum by (le) (rate(relay_quote_duration_seconds_bucket[1m])))')
  assert.equal(p99.length, 1)
  const seconds = Number(p99[0]!.value[1])
  assert.ok(seconds > 0 && seconds <= 5, `a p99 inside the buckets: ${seconds}`)
  // each node applied the other's quotes: the cluster's apply lag has them
  assert.deepEqual(
    await until(
      'apply lag',
      () => byNode('cluster_apply_lag_seconds_count'),
      v => v[n1] === RFQS && v[n2] === RFQS,
    ),
    { [n1]: RFQS, [n2]: RFQS },
  )
})

test('a killed node makes EngineNodeDown pending or firing, and its survivor ClusterPeerMissing', async () => {
  const [n1, n2] = nodes.map(hostOf) as [string, string]
  assert.deepEqual(
    (await prom.alerts()).filter(a => a.labels.alertname === 'EngineNodeDown'),
    [],
    'quiet while both are up',
  )
  await clients[1]!.close()
  await nodes[1]!.kill9()
  const down = await until(
    'EngineNodeDown',
    () => prom.alerts(),
    as => as.some(a => a.labels.alertname === 'EngineNodeDown'),
  )
  assert.deepEqual(
    down
      .filter(a => a.labels.alertname === 'EngineNodeDown')
      .map(a => [a.labels.instance, ['pending', 'firing'].includes(a.state)]),
    [[n2, true]],
  )
  const missing = await until(
    'ClusterPeerMissing',
    () => prom.alerts(),
    as => as.some(a => a.labels.alertname === 'ClusterPeerMissing'),
  )
  assert.deepEqual(
    missing.filter(a => a.labels.alertname === 'ClusterPeerMissing').map(a => a.labels.instance),
    [n1],
  )
})
