// The web console in a real Chromium against the real engine (its own database, a real anvil world for
// the route finder): RFQs made through the API and quotes signed on the relay appear on Live within 3 s
// without a reload; League shows the makers of recorded fills; Options shows synthetic trades and a
// ladder; Route answers its form; Health names the three surfaces. Throughout: no console error, no
// request leaving the machine, and a screenshot of every view in test-output/console/.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { deployWorld, type World } from '../sor/fixture.js'
import { newAgent, post, signedQuote, wallet } from '../api/agentKit.js'
import { txHash } from '../api/fillsFixtures.js'
import { Client } from '../relay/helpers.js'
import { consoleBuilt } from './built.js'
import { repoRoot } from '../../engine/paths.js'
import { launchChromium } from './chromium.js'
import { watchContext, watchPage, type Watch } from './watch.js'
import { ingestSynthetic, loadRoutes, recordFills, MAKERS } from './fixtures.js'
import { inkOfSeries } from './ink.js'
import { upsertToken } from '../../engine/store/tokens.js'
import { byJson } from '../helpers/order.js'

/** the page's document, inside functions Playwright runs in the browser (this program has no DOM types) */
declare const document: any

const shots = join(repoRoot, 'test-output/console')
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'

describe('the web console in Chromium', () => {
  let world: World, t: TestEngine, browser: Browser, context: BrowserContext, page: Page, watch: Watch
  let taker: Awaited<ReturnType<typeof newAgent>>
  /** the maker whose quote the Live test fills: a maker of the league too */
  const liveMaker = wallet()
  /** console errors a step provoked on purpose (the Route view's refused request), checked there */
  const expected: string[] = []

  before(async () => {
    browser = await launchChromium() // first: without Chromium the suite fails at once, with one line
    await consoleBuilt() // dist/web, current with the web/ sources under test
    world = await deployWorld()
    t = await startTestEngine({
      RPC_URL: world.anvil.rpcUrl,
      SOR_PROTOCOLS_FILE: world.protocolsFile,
      TOKENS_FILE: world.tokensFile,
      MULTICALL_ADDRESS: world.multicall,
      PUBLIC_RATE_LIMIT_PER_MIN: '1000000',
    })
    await Promise.all([loadRoutes(t, world), ingestSynthetic(t), recordFills(t)])
    taker = await newAgent(t.api, ['taker', 'monitor'])
    mkdirSync(shots, { recursive: true })
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' })
    watch = await watchContext(context)
    page = await context.newPage()
    watchPage(page, watch)
  })
  after(async () => {
    await browser?.close()
    await t?.stop()
    await world?.stop()
  })

  const view = async (name: string) => {
    await page.goto(`${t.api}/#/${name}`)
    await page.locator(`h1#${name}-h`).waitFor()
  }
  /** a screenshot of the view, once it is known to fit a laptop screen's width (no sideways scrolling) */
  const shot = async (name: string) => {
    const [scroll, width] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ])
    assert.ok(scroll <= width, `${name} is ${scroll} px wide in a ${width} px window`)
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true })
  }
  const createRfq = async (over: Record<string, unknown> = {}) => {
    const r = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000000000000000000', ttlSeconds: 120, ...over },
      taker.headers,
    )
    assert.equal(r.status, 201, JSON.stringify(r.body))
    return r.body as { rfqId: string; shareToken: string }
  }

  test('Live: an RFQ made through the API, then a quote on the relay, appear within 3 s without a reload', async () => {
    await view('live')
    await page.getByText('relay connected').waitFor({ timeout: 5000 })
    const navigations: string[] = []
    page.on('framenavigated', f => navigations.push(f.url()))
    const { rfqId } = await createRfq()
    const row = page.locator(`tr[data-rfq="${rfqId}"]`)
    await row.waitFor({ timeout: 3000 })
    assert.match(await row.innerText(), /WETH → USDC\s+1 WETH/)

    const maker = liveMaker
    const relay = await Client.open(t.relayWs)
    const { quote, signature } = await signedQuote(
      maker,
      { tokenIn: WETH, tokenOut: USDC, amountIn: '1000000000000000000' },
      { amountOut: '2500000000' },
    )
    relay.send('QUOTE_SUBMIT', { rfqId, quote, signature })
    await relay.nextOf('QUOTE_BROADCAST')
    await relay.close()
    await page.waitForFunction(
      sel => document.querySelector(sel)?.textContent === '1',
      `tr[data-rfq="${rfqId}"] [data-quotes]`,
      { timeout: 3000 },
    )
    assert.match(await row.innerText(), /2,500 USDC/) // best quote
    assert.deepEqual(navigations, [], 'the page never reloaded')

    // selected by keyboard: its quotes, then its fill and improvement once filled (baseline 2,490 USDC: +40.16 bps)
    await row.focus()
    await page.keyboard.press('Enter')
    await page.locator(`aside [data-maker="${maker.address}"]`).waitFor({ timeout: 3000 })
    assert.match(await page.locator(`aside [data-maker="${maker.address}"]`).innerText(), /2,500\s+2,500\b/) // out, implied price
    await t.engine.modules.baselines.settled()
    assert.equal(
      (
        await post(t.api, '/api/v1/rfq/baseline', {
          rfqId,
          tokenIn: WETH,
          tokenOut: USDC,
          amountIn: '1000000000000000000',
          baselineAmountOut: '2490000000',
          baselineEffectivePrice: 2490,
          baselinePriceImpactBps: 1,
          baselineBlockNumber: '1',
          baselineTimestamp: new Date().toISOString(),
        })
      ).status,
      200,
    )
    const fill = await post(
      t.api,
      `/api/v1/agent/rfqs/${rfqId}/fill`,
      {
        txHash: txHash(),
        maker: maker.address,
        amountIn: '1000000000000000000',
        amountOut: '2500000000',
        amountInUsd: 2500,
      },
      taker.headers,
    )
    assert.equal(fill.status, 200, JSON.stringify(fill.body))
    await page.waitForFunction(
      () => document.querySelector('[data-improvement]')?.textContent?.includes('bps'),
      undefined,
      { timeout: 8000 },
    )
    assert.equal(await page.locator('[data-status]').innerText(), 'FILLED')
    assert.match(await page.locator('[data-improvement]').innerText(), /^40\.16 bps vs /)
    // ended: the detail says how, instead of counting down to an expiry that no longer matters
    assert.match(await page.locator('[data-expiry]').innerText(), /^\d\d:\d\d:\d\d \(filled\)$/)
    // the row learns the end too (the relay lists it no more; its /quotes says FILLED), and it no longer counts as live
    await page.waitForFunction(
      sel => document.querySelector(sel)?.textContent === 'filled',
      `tr[data-rfq="${rfqId}"] [data-ends]`,
      { timeout: 8000 },
    )
    await shot('live')
  })

  test('Live: a private RFQ appears only once its share token is entered', async () => {
    await view('live')
    await page.getByText('relay connected').waitFor({ timeout: 5000 })
    const hidden = await createRfq({ visibility: 'private' })
    const { rfqId: control } = await createRfq() // broadcast after the private one
    await page.locator(`tr[data-rfq="${control}"]`).waitFor({ timeout: 3000 })
    assert.equal(await page.locator(`tr[data-rfq="${hidden.rfqId}"]`).count(), 0)
    await page.getByLabel('Share token').fill(hidden.shareToken)
    await page.getByRole('button', { name: 'Show private RFQs' }).click()
    const row = page.locator(`tr[data-rfq="${hidden.rfqId}"]`)
    await row.waitFor({ timeout: 3000 })
    assert.match(await row.innerText(), /private/)
  })

  test('League: the makers of recorded fills, their scores, and a profile with badges', async () => {
    await view('league')
    for (const m of MAKERS) await page.locator(`tr[data-address="${m}"]`).waitFor({ timeout: 5000 })
    const rows = await page
      .locator('tbody tr[data-address]')
      .evaluateAll(trs => trs.map(tr => tr.getAttribute('data-address')))
    assert.deepEqual([...rows].sort(byJson), [...MAKERS, liveMaker.address].sort(byJson))
    assert.equal((await page.locator('figure[aria-label*="average improvement"] canvas').count()) > 0, true)
    await page.locator(`tr[data-address="${MAKERS[2]}"]`).focus()
    await page.keyboard.press('Enter')
    await page.locator('.badges li', { hasText: 'First Fill' }).waitFor({ timeout: 5000 })
    assert.match(await page.locator('aside').innerText(), /As maker\s+3\b/)
    await shot('league')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot('league-dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })

  test('Options: synthetic trades on the tape, an expiry ladder with its snapshot age and IV by strike', async () => {
    await view('options')
    await page.locator('tr[data-trade^="SIM-"]').first().waitFor({ timeout: 5000 })
    assert.equal(await page.locator('tr[data-trade]').count(), 25)
    await page.locator('table.ladder tbody tr').first().waitFor({ timeout: 5000 })
    assert.match(await page.locator('[data-snapshot]').innerText(), /^Snapshot \d+ (ms|s|min) ago/)
    // delta wherever the terminal has one, at two decimals; '–' only where it has none
    const day = (await page.locator('h2', { hasText: /^Ladder / }).innerText()).slice(7).replace(/-/g, '')
    type Strike = { strike: number; isCall: boolean; delta: number | null }
    const { strikes } = (await (
      await fetch(`${t.terminal}/options/ladder?underlying=SIMBTC&expiry=${day}`)
    ).json()) as { strikes: Strike[] }
    const shown = await page
      .locator('table.ladder tbody tr')
      .evaluateAll(trs => trs.map(tr => [tr.children[4]?.textContent, tr.children[10]?.textContent]))
    const want = [...new Set(strikes.map(x => x.strike))]
      .sort((a, b) => a - b)
      .map(k =>
        [true, false].map(call => {
          const d = strikes.find(x => x.strike === k && x.isCall === call)?.delta
          return d === null || d === undefined ? '–' : d.toLocaleString('en-US', { maximumFractionDigits: 2 })
        }),
      )
    assert.deepEqual(shown, want)
    assert.ok(
      want.flat().some(d => d !== '–'),
      'the fixture has deltas',
    )
    // the liquidity guesses are explained under the tape, each abbreviation the column uses
    const legend = await page.locator('[data-liq-legend]').innerText()
    for (const abbr of [
      'RFQ a Block RFQ trade',
      'RFQ? another block trade',
      'book? likely the order book',
      '? a combo leg',
    ]) {
      assert.ok(legend.includes(abbr), legend)
    }
    // the IV chart's legend shows values (at the strike nearest spot until the cursor moves), and both lines show
    const iv = page.locator('figure[aria-label^="IV by strike"]')
    const values = await iv.locator('.u-legend .u-value').allInnerTexts()
    assert.equal(values.length, 3)
    assert.ok(
      values.every(v => /^[\d,.]+$/.test(v)),
      values.join(' | '),
    )
    const inks = await iv.locator('canvas').evaluate(inkOfSeries)
    assert.ok(inks.calls > 200 && inks.puts > 200, `IV lines drawn: ${JSON.stringify(inks)} pixels of each colour`)
    await page.getByLabel('Liquidity').selectOption('rfq')
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('tr[data-trade]')].every(tr =>
          /RFQ/.test(tr.lastElementChild?.textContent ?? ''),
        ),
      undefined,
      { timeout: 5000 },
    )
    assert.equal((await page.locator('figure[aria-label^="IV by strike"] canvas').count()) > 0, true)
    await shot('options')
  })

  test('Route: it starts on a pair with a route, and tokens sharing a symbol are told apart by address', async () => {
    const twin = '0x00000000000000000000000000000000000beef1'
    await upsertToken(t.db.sql, { chainId: 31337, address: twin, symbol: 'WETH', decimals: 18 })
    await view('route')
    await page.reload() // the token list is read when the page loads
    await page.locator('h1#route-h').waitFor()
    const labels = await page.getByLabel('Token in').locator('option').allInnerTexts()
    assert.equal(new Set(labels).size, labels.length, `no two choices read the same: ${labels.join(', ')}`)
    assert.ok(labels.includes('WETH (0xc02a…6cc2)') && labels.includes('WETH (0x0000…eef1)'), labels.join(', '))
    // the default pair is one the route finder has pools for: asked as it stands, it answers with a route
    await page.waitForFunction(
      () => ['AAA', 'BBB', 'MID'].includes(document.querySelector('form select')?.selectedOptions[0]?.textContent),
      undefined,
      { timeout: 5000 },
    )
    const [inn, out] = await page
      .locator('form select')
      .evaluateAll(ss => ss.slice(0, 2).map(s => s.selectedOptions[0]?.textContent))
    assert.ok(
      [inn, out].every(x => ['AAA', 'BBB', 'MID'].includes(x)),
      `default pair ${inn} → ${out}`,
    )
    await page.getByRole('button', { name: 'Find routes' }).click()
    await page.locator('[data-answer] tr[data-route]').first().waitFor({ timeout: 10_000 })
  })

  test("Route: the form answers with split routes, hop fees and price impact; a refused request shows the engine's sentence", async () => {
    await view('route')
    await page.getByLabel('Token in').selectOption({ label: 'AAA' })
    await page.getByLabel('Token out').selectOption({ label: 'BBB' })
    await page.getByLabel(/^Amount/).fill('50')
    await page.getByRole('button', { name: 'Find routes' }).click()
    await page.locator('[data-answer] tr[data-route]').first().waitFor({ timeout: 10_000 })
    const answer = await page.locator('[data-answer]').innerText()
    assert.match(answer, /^50 AAA → [\d.,]+ BBB/)
    assert.match(answer, /Price impact\s+-?[\d.,]+ bps/)
    assert.match(answer, /(uniswap-v2|uniswap-v3|stableswap) [\d.]+%/) // a hop with its fee
    assert.match(answer, /\d+(\.\d)?%/)
    await shot('route')

    const huge = '1' + '0'.repeat(70) // 10^88 raw units: past uint256, which the engine refuses
    await page.getByLabel(/^Amount/).fill(huge)
    const refused = (await (
      await fetch(
        `${t.api}/api/v1/sor/quote?tokenIn=${world.tokens.AAA}&tokenOut=${world.tokens.BBB}&amountIn=${huge}${'0'.repeat(18)}`,
      )
    ).json()) as { error: string }
    assert.match(refused.error, /amountIn/)
    const before = watch.errors.length
    await page.getByRole('button', { name: 'Find routes' }).click()
    await page.locator('[data-route-error]').waitFor({ timeout: 5000 })
    assert.equal(await page.locator('[data-route-error]').innerText(), refused.error)
    // the browser reports the refused request itself as a console error: that one, and nothing else, is expected here
    const provoked = watch.errors.splice(before)
    assert.ok(
      provoked.every(e => /status of 400/.test(e) && e.includes('/api/v1/sor/quote')),
      provoked.join('\n'),
    )
    expected.push(...provoked)
  })

  test("Health: the three surfaces are up, with relay connections and the route finder's pools", async () => {
    await view('health')
    for (const name of ['API', 'Terminal', 'Relay']) {
      const card = page.locator(`[data-surface="${name}"]`)
      await page.waitForFunction(
        n => /^ok,/.test(document.querySelector(`[data-surface="${n}"] p`)?.textContent ?? ''),
        name,
        { timeout: 5000 },
      )
      assert.match(await card.innerText(), new RegExp(`^${name} 127\\.0\\.0\\.1:\\d+`))
    }
    assert.match(await page.locator('main').innerText(), /Pools\s+7 with state of 7 tracked/)
    // options ingestion, from /metrics: the view asks every 5 s, and the first trades may land after its first ask
    // (a run under load once read 0 here)
    await page.waitForFunction(
      () => /Trades\s+[1-9]/.test(document.querySelector('main')?.innerText ?? ''),
      undefined,
      {
        timeout: 15_000,
      },
    )
    assert.match(await page.locator('main').innerText(), /Trades\s+[1-9]/)
    await shot('health')
  })

  test('at 390 px wide (a phone) the nav wraps onto the screen and no view scrolls sideways', async () => {
    const phone = await context.newPage()
    watchPage(phone, watch)
    await phone.setViewportSize({ width: 390, height: 844 })
    try {
      for (const name of ['live', 'league', 'options', 'route', 'health']) {
        await phone.goto(`${t.api}/#/${name}`)
        await phone.locator(`h1#${name}-h`).waitFor()
        await phone.waitForTimeout(1500) // its data in: the widest it gets
        const [scroll, width] = await phone.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.clientWidth,
        ])
        assert.ok(scroll <= width, `${name} is ${scroll} px wide in a ${width} px window`)
        const links = await phone.locator('nav a').evaluateAll(as =>
          as.map(a => {
            const r = a.getBoundingClientRect()
            return [a.textContent, r.left, r.right]
          }),
        )
        assert.equal(links.length, 5)
        for (const [text, left, right] of links as [string, number, number][]) {
          assert.ok(left >= 0 && right <= width, `${text} at ${left}-${right} px`)
        }
        await phone.screenshot({ path: join(shots, `${name}-390.png`), fullPage: true })
      }
    } finally {
      await phone.close()
    }
  })

  test('throughout: no console errors, no request off this machine, a screenshot of every view', () => {
    assert.deepEqual(watch.errors, [])
    assert.deepEqual(watch.offsite, [])
    assert.ok(
      watch.requests.some(u => u.includes(':' + t.engine.ports.terminal + '/options/')) &&
        watch.requests.some(u => u.includes(':' + t.engine.ports.relay + '/')),
    )
    for (const v of ['live', 'league', 'options', 'route', 'health']) assert.ok(existsSync(join(shots, `${v}.png`)), v)
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'dist/web/manifest.json'), 'utf8'))
    assert.ok(manifest.firstLoad.gzip < 150 * 1024, `first load ${manifest.firstLoad.gzip} bytes gzip`)
  })
})
