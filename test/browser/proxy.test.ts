// The console behind the deployment kit's nginx (deploy/nginx/rfq-engine.conf, rewritten onto loopback by
// test/helpers/nginx.ts: plain HTTP, one loopback address per public name). Chromium maps the three names to
// those addresses; the engine listens on 127.0.0.1 only, and any request of the page to one of its ports is
// blocked and recorded. Every view works through the public names alone: Live over the relay's WebSocket
// and REST, League and Route on the API, Options on the terminal with its key, Health naming each surface
// by its public host; /metrics stays off the public name.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'node:http'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { freePortOn, kitConf, kitOnLoopback, startNginx, type Nginx } from '../helpers/nginx.js'
import { deployWorld, type World } from '../sor/fixture.js'
import { newAgent, post } from '../api/agentKit.js'
import { consoleBuilt } from './built.js'
import { parseEnvFile } from '../deploy/systemdUnit.js'
import { repoRoot } from '../../engine/paths.js'
import { launchChromium } from './chromium.js'
import { watchContext, watchPage, type Watch } from './watch.js'
import { ingestSynthetic, loadRoutes, recordFills, MAKERS } from './fixtures.js'

declare const document: any

const NAMES = { 'api.example.com': '127.0.0.2', 'terminal.example.com': '127.0.0.3', 'relay.example.com': '127.0.0.4' }
const REDIRECT = '127.0.0.5'
const KEY = 'terminal-key-behind-the-proxy'

describe("the console behind the kit's nginx", () => {
  let world: World, t: TestEngine, nginx: Nginx, browser: Browser, context: BrowserContext, page: Page, watch: Watch
  let port: number, site: string
  /** requests and sockets of the page aimed at one of the engine's own ports: blocked, and listed here */
  const direct: string[] = []
  const engineOwnPort = (u: URL) => Object.values(t.engine.ports).map(String).includes(u.port)

  before(async () => {
    const rules = Object.entries(NAMES)
      .map(([n, ip]) => `MAP ${n} ${ip}`)
      .join(', ')
    browser = await launchChromium([`--host-resolver-rules=${rules}`])
    await consoleBuilt()
    port = await freePortOn([...Object.values(NAMES), REDIRECT])
    world = await deployWorld()
    t = await startTestEngine({
      RPC_URL: world.anvil.rpcUrl,
      SOR_PROTOCOLS_FILE: world.protocolsFile,
      TOKENS_FILE: world.tokensFile,
      MULTICALL_ADDRESS: world.multicall,
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
      API_KEY: KEY,
      ...kitEnv(port),
    })
    await Promise.all([loadRoutes(t, world), ingestSynthetic(t), recordFills(t)])
    const { api, terminal, relay } = t.engine.ports
    site = kitOnLoopback(kitConf(), {
      port,
      names: NAMES,
      redirectAddress: REDIRECT,
      upstreams: {
        rfq_api: `127.0.0.1:${api}`,
        rfq_terminal: `127.0.0.1:${terminal}`,
        rfq_relay: `127.0.0.1:${relay}`,
      },
    })
    nginx = await startNginx(site, { host: NAMES['api.example.com'], port })
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    watch = await watchContext(context, new Set(Object.keys(NAMES)))
    // registered after the watch: Playwright asks the newest route first, so these never reach the engine
    await context.route(
      url => engineOwnPort(url),
      route => {
        direct.push(route.request().url())
        return route.abort('blockedbyclient')
      },
    )
    await context.routeWebSocket(
      url => engineOwnPort(url),
      ws => {
        direct.push(ws.url())
        return ws.close()
      },
    )
    page = await context.newPage()
    watchPage(page, watch, new Set(Object.keys(NAMES)))
  })
  after(async () => {
    await browser?.close()
    await nginx?.stop()
    await t?.stop()
    await world?.stop()
  })

  const origin = () => `http://api.example.com:${port}`
  const view = async (name: string) => {
    await page.goto(`${origin()}/#/${name}`)
    await page.locator(`h1#${name}-h`).waitFor()
  }

  test("the kit's config is what runs: the rewrite kept its locations, changing only listen, ssl and node lines", () => {
    for (const line of [
      'location /metrics {',
      'location /api/v1/feed {',
      'proxy_set_header Upgrade $http_upgrade;',
      'least_conn;',
    ]) {
      assert.ok(site.includes(line), line)
    }
    assert.equal(site.match(/^\s*server 127\.0\.0\.1:\d+;$/gm)?.length, 3)
    assert.equal(site.match(new RegExp(`^\\s*listen 127\\.0\\.0\\.[2-5]:${port};$`, 'gm'))?.length, 4)
  })

  test('nginx keeps /metrics off the public name in every spelling, while the node serves it; HTTP redirects', async () => {
    const spellings = [
      '/metrics',
      '/metrics?x=1',
      '//metrics',
      '/metrics/',
      '/metrics//',
      '/%6detrics',
      '/./metrics',
      '/api/../metrics',
      '/METRICS',
    ]
    for (const path of spellings) {
      const r = await via(NAMES['api.example.com'], port, 'api.example.com', path)
      assert.ok(!r.body.includes('# HELP'), `${path}: ${r.status} served the metrics`)
      assert.ok(r.status === 404 || r.status === 400, `${path}: ${r.status}`)
    }
    assert.match(await (await fetch(`${t.api}/metrics`)).text(), /# HELP/)
    const plain = await via(REDIRECT, port, 'relay.example.com', '/rfqs?x=1')
    assert.equal(plain.status, 301)
    assert.equal(plain.headers.location, 'https://relay.example.com/rfqs?x=1')
  })

  test("with the kit's engine.env, config.json gives the public URLs; the other names allow the console's origin", async () => {
    const cfg = JSON.parse((await via(NAMES['api.example.com'], port, 'api.example.com', '/console/config.json')).body)
    assert.deepEqual(cfg.urls, {
      terminal: `http://terminal.example.com:${port}`,
      relay: `http://relay.example.com:${port}`,
      relayWs: `ws://relay.example.com:${port}`,
    })
    for (const [name, path] of [
      ['terminal.example.com', '/health'],
      ['relay.example.com', '/rfqs'],
    ] as const) {
      const mine = await via(NAMES[name], port, name, path, { origin: origin() })
      assert.equal(mine.status, 200)
      assert.equal(mine.headers['access-control-allow-origin'], origin())
      const other = await via(NAMES[name], port, name, path, { origin: 'http://evil.example' })
      assert.equal(other.headers['access-control-allow-origin'], undefined)
    }
  })

  test("Live: the relay's WebSocket upgrades through nginx; an RFQ made through the API shows, then how it ended", async () => {
    await view('live')
    await page.getByText('relay connected').waitFor({ timeout: 5000 })
    const taker = await newAgent(t.api, ['taker', 'monitor'])
    const terms = { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000000000000000000', ttlSeconds: 120 }
    const made = await post(t.api, '/api/v1/agent/rfqs', terms, taker.headers)
    assert.equal(made.status, 201, JSON.stringify(made.body))
    const { rfqId } = made.body as { rfqId: string }
    const row = page.locator(`tr[data-rfq="${rfqId}"]`)
    await row.waitFor({ timeout: 5000 })
    assert.match(await row.innerText(), /WETH → USDC\s+1 WETH/)
    assert.equal((await post(t.api, `/api/v1/rfqs/${rfqId}/cancel`, {}, taker.headers)).status, 200)
    // the relay's REST listing (through nginx, ETag and all) tells the row it ended
    await page.waitForFunction(
      sel => document.querySelector(sel)?.textContent === 'cancelled',
      `tr[data-rfq="${rfqId}"] [data-ends]`,
      { timeout: 10_000 },
    )
  })

  test('League, Options (the terminal with its key, across names), Route and Health work on the public names', async () => {
    await view('league')
    for (const m of MAKERS) await page.locator(`tr[data-address="${m}"]`).waitFor({ timeout: 5000 })

    await view('options')
    await page.getByLabel('Terminal API key').fill(KEY)
    await page.getByRole('button', { name: 'Use key' }).click()
    await page.locator('tr[data-trade^="SIM-"]').first().waitFor({ timeout: 5000 })
    await page.locator('table.ladder tbody tr').first().waitFor({ timeout: 5000 })

    await view('route')
    await page.waitForFunction(
      () => ['AAA', 'BBB', 'MID'].includes(document.querySelector('form select')?.selectedOptions[0]?.textContent),
      undefined,
      { timeout: 5000 },
    )
    await page.getByRole('button', { name: 'Find routes' }).click()
    await page.locator('[data-answer] tr[data-route]').first().waitFor({ timeout: 10_000 })

    await view('health')
    for (const [name, host] of [
      ['API', 'api'],
      ['Terminal', 'terminal'],
      ['Relay', 'relay'],
    ]) {
      await page.waitForFunction(
        n => /^ok,/.test(document.querySelector(`[data-surface="${n}"] p`)?.textContent ?? ''),
        name,
        { timeout: 5000 },
      )
      const heading = await page.locator(`[data-surface="${name}"] h2`).innerText()
      assert.match(heading, new RegExp(`${name} ${host}\\.example\\.com:${port}$`))
    }
    await page.locator('[data-metrics-private]').waitFor({ timeout: 5000 })
    assert.match(await page.locator('main').innerText(), /Pools\s+7 with state of 7 tracked/)
  })

  test("throughout: every request went to a public name, none to the engine's ports; no console error but /metrics'", () => {
    assert.deepEqual(direct, [])
    assert.deepEqual(watch.offsite, [])
    const hosts = new Set(watch.requests.filter(u => !u.startsWith('data:')).map(u => new URL(u).host))
    assert.deepEqual(
      [...hosts].sort(),
      Object.keys(NAMES)
        .map(n => `${n}:${port}`)
        .sort(),
    )
    assert.ok(
      watch.requests.some(u => u.startsWith(`ws://relay.example.com:${port}/`)),
      'the relay socket went through nginx',
    )
    const metrics404 = (e: string) => /status of 404/.test(e) && e.includes(`api.example.com:${port}/metrics`)
    const unexpected = watch.errors.filter(e => !metrics404(e))
    assert.deepEqual(unexpected, [])
    // what nginx saw: the page's calls on every name, and the socket's upgrade answered 101
    const access = readAccess(nginx)
    assert.match(access, /"GET \/\?channels=rfqs,quotes HTTP\/1\.1" 101 /)
    assert.match(access, /"GET \/options\/tape\?/)
  })
})

/**
 * What the kit's engine.env says about the proxy (the public URLs, CORS, the trusted hop), its https:// and
 * wss:// names moved to plain HTTP on the test's port, as nginx serves them here.
 */
function kitEnv(port: number): Record<string, string> {
  const { set } = parseEnvFile(readFileSync(join(repoRoot, 'deploy/engine.env.example'), 'utf8'))
  const local = (v: string) =>
    v.replace(
      /\b(https|wss):\/\/([a-z0-9.-]+)/g,
      (_, scheme: string, name: string) => `${scheme === 'https' ? 'http' : 'ws'}://${name}:${port}`,
    )
  const env: Record<string, string> = {}
  for (const k of ['PUBLIC_TERMINAL_URL', 'PUBLIC_RELAY_URL', 'CORS_ORIGIN', 'TRUST_PROXY', 'TRUST_PROXY_HOPS']) {
    assert.ok(set[k], `deploy/engine.env.example sets ${k}`)
    env[k] = local(set[k])
  }
  return env
}

/** one request to a loopback address with the given Host: what a browser resolving `host` there would send */
function via(
  address: string,
  port: number,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: address, port, path, headers: { host: `${host}:${port}`, ...headers } }, res => {
      let body = ''
      res.on('data', c => {
        body += c
      })
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }),
      )
    })
      .on('error', reject)
      .end()
  })
}

function readAccess(n: Nginx): string {
  return readFileSync(join(n.dir, 'access.log'), 'utf8')
}
