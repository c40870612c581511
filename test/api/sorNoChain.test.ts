// The route finder without a usable chain: no RPC_URL, or an RPC that does not answer. Scans and refreshes
// answer 503 with the reason, health says so, and quotes still answer (with the advice) instead of failing.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer } from 'node:net'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'

let noRpc: TestEngine, deadRpc: TestEngine
before(async () => {
  const port = await closedPort()
  noRpc = await startTestEngine({})
  deadRpc = await startTestEngine({ RPC_URL: `http://127.0.0.1:${port}` })
})
after(async () => {
  await noRpc?.stop()
  await deadRpc?.stop()
})

const call = async (base: string, method: string, path: string) => {
  const res = await fetch(base + path, { method })
  return { status: res.status, body: (await res.json()) as any }
}

test('without RPC_URL: scan and refresh are 503, health says no-rpc, protocols are empty', async () => {
  for (const path of ['/api/v1/sor/pools/scan', '/api/v1/sor/pool-state/refresh']) {
    const r = await call(noRpc.api, 'POST', path)
    assert.deepEqual(
      [r.status, r.body],
      [503, { error: 'Route finder has no chain: RPC_URL is not configured', code: 'NO_CHAIN' }],
    )
  }
  const h = await call(noRpc.api, 'GET', '/api/v1/sor/health')
  assert.equal(h.body.status, 'no-rpc')
  assert.equal(h.body.poolsTracked, 0)
  assert.equal(h.body.asOfBlock, null)
  assert.deepEqual((await call(noRpc.api, 'GET', '/api/v1/sor/protocols')).body, { protocols: [] })
  assert.deepEqual((await call(noRpc.api, 'GET', '/api/v1/sor/pools')).body, { total: 0, pools: [] })
  assert.deepEqual((await call(noRpc.api, 'GET', '/api/v1/sor/coverage')).body, {
    asOfBlock: null,
    tokens: 0,
    pairCount: 0,
    pairs: [],
  })
})

test('a seeded registry token with no pools: the quote is 200 with zero routes and says to scan', async () => {
  // WETH and USDC are in the registry's seed file (engine/tokens/tokens.31337.json)
  const r = await call(
    noRpc.api,
    'GET',
    '/api/v1/sor/quote?tokenIn=0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2&tokenOut=0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48&amountIn=1000',
  )
  assert.equal(r.status, 200)
  assert.deepEqual(r.body.routes, [])
  assert.equal(r.body.summary.tokenInSymbol, 'WETH')
  assert.equal(r.body.summary.amountOut, '0')
  assert.ok(
    r.body.warnings[0].startsWith('No pools are tracked yet: scan for pools first via POST /api/v1/sor/pools/scan'),
    r.body.warnings,
  )
  assert.equal(typeof r.body.explain.text, 'string')
})

test('an RPC that does not answer: refresh is 503 and health keeps the error', async () => {
  const r = await call(deadRpc.api, 'POST', '/api/v1/sor/pool-state/refresh')
  assert.equal(r.status, 503)
  assert.match(r.body.error, /^Chain RPC failed: /)
  const h = await call(deadRpc.api, 'GET', '/api/v1/sor/health')
  assert.equal(h.body.lastRefreshError, r.body.error)
  const s = await call(deadRpc.api, 'POST', '/api/v1/sor/pools/scan')
  assert.equal(s.status, 503)
  assert.match(s.body.error, /^Chain RPC failed: /)
})

/** A port nothing listens on: bound once, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}
