// Token lists without a chain: what ships for each chain, every way a list can be malformed (one line naming the
// file and the entry), a chain with no list (one line naming CHAIN_ID), the start that stops before it touches
// anything, and a symbol two listed tokens share (mainnet's two LIT): never two choices that read alike, never a guess.
import { test, describe, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadTokenList, SHIPPED_CHAINS, uniswapListFile } from '../../engine/tokens/shippedLists.js'
import { readTokenList } from '../../engine/tokens/tokenList.js'
import { labels } from '../../engine/tokens/labels.js'
import { refusedStart } from '../faults/process.js'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { newAgent, post, get } from '../api/agentKit.js'
import { repoRoot } from '../../engine/paths.js'
import { byJson } from '../helpers/order.js'

const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
const dir = mkdtempSync(join(tmpdir(), 'lists-'))
const good = {
  chainId: 1,
  address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
  symbol: 'WETH',
  name: 'Wrapped Ether',
  decimals: 18,
}
const doc = (tokens: object[], over: object = {}) => ({
  name: 'Test',
  timestamp: '2026-01-01T00:00:00Z',
  version: { major: 1, minor: 0, patch: 0 },
  tokens,
  ...over,
})
const file = (name: string, content: unknown) => {
  const f = join(dir, name)
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content))
  return f
}

test('lists ship for Ethereum and seven other EVM chains, each with WETH and USDC; the local chain has its own', () => {
  assert.ok(Object.keys(SHIPPED_CHAINS).length >= 4)
  for (const chainId of Object.keys(SHIPPED_CHAINS).map(Number)) {
    const list = loadTokenList({ CHAIN_ID: chainId, TOKENS_FILE: undefined })
    assert.equal(list.chainId, chainId)
    assert.ok(list.tokens.length >= 5, `${chainId}: ${list.tokens.length} tokens`)
    assert.ok(list.tokens.every(t => /^0x[0-9a-f]{40}$/.test(t.address)))
    assert.equal(new Set(list.tokens.map(t => t.address)).size, list.tokens.length)
    for (const symbol of ['WETH', 'USDC'])
      assert.ok(
        list.tokens.some(t => t.symbol === symbol),
        `${chainId} lists ${symbol}`,
      )
  }
  const mainnet = loadTokenList({ CHAIN_ID: 1, TOKENS_FILE: undefined })
  assert.equal(mainnet.source, '@uniswap/default-token-list')
  const pkg = JSON.parse(readFileSync(join(uniswapListFile(), '../../package.json'), 'utf8'))
  assert.equal(mainnet.version, pkg.version, "the list's own version is the pinned package's")
  assert.deepEqual(
    mainnet.tokens
      .filter(t => t.address === WETH || t.address === USDC)
      .map(t => [t.symbol, t.decimals])
      .sort(byJson),
    [
      ['USDC', 6],
      ['WETH', 18],
    ],
  )
})

describe('a malformed list: one line naming the file and the entry', () => {
  const cases: [string, unknown, RegExp | string][] = [
    ['not-json.json', '{"name": ', /^F: not a readable JSON token list \(.+\)$/],
    [
      'no-version.json',
      { name: 'Test', timestamp: '2026-01-01T00:00:00Z', tokens: [good] },
      "F: not a valid token list: the document must have required property 'version'",
    ],
    [
      'decimals.json',
      doc([good, { ...good, address: USDC, symbol: 'USDC', decimals: 300 }]),
      `F: not a valid token list: entry 1 (USDC ${USDC}): decimals 300 must be <= 255`,
    ],
    [
      'symbol.json',
      doc([{ ...good, symbol: 'W ETH' }]),
      `F: not a valid token list: entry 0 (W ETH ${good.address}): symbol "W ETH" must match pattern "^\\S+$"`,
    ],
    [
      'extra.json',
      doc([{ ...good, price: 1 }]),
      `F: not a valid token list: entry 0 (WETH ${good.address}): must NOT have additional properties (price)`,
    ],
    [
      'solana.json',
      doc([{ ...good, address: 'So11111111111111111111111111111111111111112' }]),
      'F: entry 0 (WETH So11111111111111111111111111111111111111112): the address is not an EVM address (0x + 40 hex digits)',
    ],
    [
      'twice.json',
      doc([good, { ...good, address: good.address.toLowerCase(), symbol: 'WETH2' }]),
      `F: entry 1 (WETH2 ${WETH}): the same address as entry 0 on chain 1`,
    ],
    [
      'other-chain.json',
      doc([
        { ...good, chainId: 10 },
        { ...good, chainId: 8453 },
      ]),
      'F: no token for chain 1 (CHAIN_ID); the list has chains 10, 8453',
    ],
  ]
  for (const [name, content, expected] of cases) {
    test(name, () => {
      const f = file(name, content)
      const message = (() => {
        try {
          readTokenList(f, 1, 'F')
          return 'read'
        } catch (e) {
          return (e as Error).message
        }
      })()
      assert.equal(message.split('\n').length, 1)
      if (typeof expected === 'string') assert.equal(message, expected)
      else assert.match(message, expected)
    })
  }
  test('a missing file', () => {
    assert.throws(() => readTokenList(join(dir, 'nope.json'), 1, 'F'), {
      name: 'TokenListError',
      message: 'F: not a readable JSON token list (no such file)',
    })
  })
})

describe('the engine stops before it touches anything (a real process: exit 2, one line, no data directory made)', () => {
  test('a chain no list ships for, with no TOKENS_FILE: the line names CHAIN_ID', async () => {
    const dataDir = join(dir, 'data-unknown-chain')
    const r = await refusedStart({
      CHAIN_ID: '12345',
      SPOT_RFQ_ADDRESS: `0x${'a'.repeat(40)}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    })
    assert.equal(r.code, 2)
    assert.match(
      r.stderr.trim(),
      /^CHAIN_ID=12345: no token list ships for this chain \(lists ship for 1, 10, .*43114\); set TOKENS_FILE to a token list \(tokenlists\.org format\) holding its tokens$/,
    )
    assert.ok(!existsSync(dataDir), 'nothing was written')
  })
  test('a malformed TOKENS_FILE: the line names the variable, the file and the entry', async () => {
    const f = file('bad-entry.json', doc([good, { ...good, address: USDC, symbol: 'USDC', decimals: -1 }]))
    const dataDir = join(dir, 'data-bad-list')
    const r = await refusedStart({
      CHAIN_ID: '1',
      SPOT_RFQ_ADDRESS: `0x${'a'.repeat(40)}`,
      TOKENS_FILE: f,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    })
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr.trim(),
      `TOKENS_FILE=${f}: not a valid token list: entry 1 (USDC ${USDC}): decimals -1 must be >= 0`,
    )
    assert.ok(!existsSync(dataDir), 'nothing was written')
  })
})

describe("mainnet's list served (CHAIN_ID=1, no chain): two tokens named LIT", () => {
  let t: TestEngine
  let taker: Awaited<ReturnType<typeof newAgent>>
  const LIT = ['0xb59490ab09a0f526cc7305822ac65f2ab12f9723', '0x232ce3bd40fcd6f80f3d55a522d03f25df784ee2']
  before(async () => {
    t = await startTestEngine({
      CHAIN_ID: '1',
      SPOT_RFQ_ADDRESS: `0x${'a'.repeat(40)}`,
      AGENT_REGISTRATION_PER_HOUR: '1000',
      AGENT_REGISTRATION_PER_DAY: '1000',
    })
    taker = await newAgent(t.api, ['taker'])
  })
  after(() => t?.stop())

  test('GET /api/v1/tokens: the whole list, every label distinct; the two LIT read apart, WETH reads WETH', async () => {
    const r = await get(t.api, '/api/v1/tokens')
    const tokens = r.body.tokens as { address: string; symbol: string; label: string; source: string; name: string }[]
    assert.equal(tokens.length, loadTokenList({ CHAIN_ID: 1, TOKENS_FILE: undefined }).tokens.length)
    assert.equal(new Set(tokens.map(x => x.label)).size, tokens.length, 'no two labels alike')
    assert.deepEqual(
      tokens
        .filter(x => x.symbol === 'LIT')
        .map(x => [x.label, x.name])
        .sort(byJson),
      [
        ['LIT (0x232c…4ee2)', 'Lighter'],
        ['LIT (0xb594…9723)', 'Litentry'],
      ],
    )
    assert.deepEqual(
      tokens.find(x => x.address === WETH),
      { address: WETH, symbol: 'WETH', decimals: 18, name: 'Wrapped Ether', source: 'list', label: 'WETH' },
    )
  })

  test('WETH -> USDC by symbol is created; LIT is refused as ambiguous, naming both, and either address is taken', async () => {
    const ok = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'usdc', amountIn: '1000000000000000000' },
      taker.headers,
    )
    assert.equal(ok.status, 201, JSON.stringify(ok.body))
    const lit = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'LIT', tokenOut: 'USDC', amountIn: '1' },
      taker.headers,
    )
    assert.equal(lit.status, 400)
    assert.equal(lit.body.code, 'TOKEN_AMBIGUOUS')
    assert.deepEqual(lit.body.candidates.sort(), [...LIT].sort())
    assert.match(
      lit.body.error,
      /^tokenIn LIT names 2 tokens on chain 1 \(0x[0-9a-f]{40}, 0x[0-9a-f]{40}\)\. Use the address\.$/,
    )
    const byAddress = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: LIT[1], tokenOut: 'USDC', amountIn: '1' },
      taker.headers,
    )
    assert.equal(byAddress.status, 201)
  })
})

test('labels: a symbol shared by a list entry and a chain read leaves the bare symbol to the entry it resolves to; look-alike ends get the whole address', () => {
  const a = (n: string) => `0x${n.padEnd(40, '0')}`
  const l = labels([
    { address: a('aa'), symbol: 'USDC', source: 'list' },
    { address: a('bb'), symbol: 'usdc', source: 'chain' },
    { address: a('cc'), symbol: 'X', source: 'chain' },
    { address: a('dd'), symbol: 'X', source: 'chain' },
    { address: a('ee'), symbol: '', source: 'chain' },
    { address: a('ff'), symbol: 'ONE', source: 'chain' },
    // the same first and last four hex digits: the short forms would read alike
    { address: '0x1234000000000000000000000000000000005678', symbol: 'V', source: 'list' },
    { address: '0x1234ffffffffffffffffffffffffffffffff5678', symbol: 'V', source: 'list' },
  ])
  assert.deepEqual(
    [...l.values()],
    [
      'USDC',
      'usdc (0xbb00…0000)',
      'X (0xcc00…0000)',
      'X (0xdd00…0000)',
      '(0xee00…0000)',
      'ONE',
      'V (0x1234000000000000000000000000000000005678)',
      'V (0x1234ffffffffffffffffffffffffffffffff5678)',
    ],
  )
})

test('docs/tokens.md: its TOKENS_FILE example is a valid list, and its table names the chains that ship', () => {
  const text = readFileSync(join(repoRoot, 'docs/tokens.md'), 'utf8')
  const example = /```json\n([\s\S]+?)```/.exec(text)![1]!
  const list = readTokenList(file('doc-example.json', example), 999, 'docs')
  assert.deepEqual(
    list.tokens.map(t => t.symbol),
    ['WHYPE'],
  )
  const rows = [...text.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map(m => `${m[1]} ${m[2]!.trim()}`).sort()
  assert.deepEqual(
    rows,
    Object.entries(SHIPPED_CHAINS)
      .map(([id, name]) => `${id} ${name}`)
      .sort(),
  )
})
