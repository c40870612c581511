// Tokens held against a real chain (anvil, with freshly deployed ERC-20s): the start-time check of a token
// list (an entry with no contract, with other decimals, a contract that is no ERC-20, an RPC of another chain),
// and TOKENS_POLICY=chain: an unknown address read on chain in one multicall (or eth_calls pinned to one block),
// cached in the registry, refused with a 400 when it is no ERC-20 and a 503 when the chain does not answer.
// A recording proxy in front of anvil shows what the engine asked the chain.
import { test, before, after, describe } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { startAnvil, type Anvil } from '../../engine/devchain/anvil.js'
import { clientsFor } from '../../engine/sandbox/venue.js'
import { ANVIL_KEYS } from '../../engine/sandbox/accounts.js'
import { deploy } from '../../engine/devchain/deploy/clients.js'
import { deployTestToken } from '../../engine/devchain/deploy/erc20.js'
import { compileSolidity } from '../../engine/devchain/solc.js'
import { startTestEngine, type TestEngine } from '../helpers/engine.js'
import { tempTokenList } from '../helpers/tokenList.js'
import { newAgent, post, get } from '../api/agentKit.js'

let anvil: Anvil
let proxy: Server
let rpc: string
let calls: { method: string; params: unknown[] }[] = []
/** a rate-limited RPC: a request holding an eth_call answered 429, everything else passed through */
let failCalls = false
const w: Record<'listed' | 'fresh' | 'multicall', `0x${string}`> = {} as never
const EOA = `0x${'7e'.repeat(20)}` as const

before(async () => {
  anvil = await startAnvil()
  const c = clientsFor(anvil.rpcUrl, ANVIL_KEYS[0]!)
  w.listed = (await deployTestToken(c, { name: 'Listed', symbol: 'LST', decimals: 6 })).toLowerCase() as `0x${string}`
  w.fresh = (await deployTestToken(c, { name: 'Fresh', symbol: 'FRESH', decimals: 9 })).toLowerCase() as `0x${string}`
  const m = compileSolidity(['contracts/pools/Multicall3Lite.sol']).Multicall3Lite!
  w.multicall = (await deploy(c, m.abi as never, m.bytecode)).toLowerCase() as `0x${string}`
  // every JSON-RPC request the engine makes, batched or not, on its way to anvil
  proxy = createServer(
    (req, res) =>
      void (async () => {
        let body = ''
        for await (const chunk of req) body += chunk
        const parsed = JSON.parse(body) as
          { method: string; params: unknown[] } | { method: string; params: unknown[] }[]
        const list = Array.isArray(parsed) ? parsed : [parsed]
        for (const x of list) calls.push({ method: x.method, params: x.params })
        if (failCalls && list.some(x => x.method === 'eth_call'))
          return res.writeHead(429, { 'content-type': 'text/plain' }).end('Too Many Requests')
        const up = await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        res.writeHead(up.status, { 'content-type': 'application/json' }).end(await up.text())
      })(),
  )
  await new Promise<void>(r => proxy.listen(0, '127.0.0.1', r))
  rpc = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`
})
after(async () => {
  await new Promise(r => proxy?.close(r))
  await anvil?.stop()
})

const list = (...entries: [string, string, number][]) =>
  tempTokenList(
    31337,
    entries.map(([address, symbol, decimals]) => ({ address, symbol, name: symbol, decimals })),
  )

describe('a token list is held against the chain at start', () => {
  const refused = async (env: Record<string, string>): Promise<string> => {
    const e = await startTestEngine({ RPC_URL: anvil.rpcUrl, ...env }).then(
      async t => {
        await t.stop()
        return undefined
      },
      (err: unknown) => err as Error,
    )
    assert.ok(e, 'the engine started')
    assert.equal(e.name, 'TokenListError')
    assert.equal(e.message.split('\n').length, 1, e.message)
    return e.message
  }

  test('an entry with no contract, one with other decimals, one that is no ERC-20: each stops the start naming file and entry', async () => {
    const noCode = list([w.listed, 'LST', 6], [EOA, 'NOPE', 18])
    assert.match(
      await refused({ TOKENS_FILE: noCode }),
      new RegExp(
        `^TOKENS_FILE=${noCode}: entry 1 \\(NOPE ${EOA}\\): no contract at ${EOA} on this chain \\(block \\d+\\)$`,
      ),
    )
    const decimals = list([w.listed, 'LST', 18])
    assert.equal(
      await refused({ TOKENS_FILE: decimals }),
      `TOKENS_FILE=${decimals}: entry 0 (LST ${w.listed}): the chain says 6 decimals, the list 18`,
    )
    const notErc20 = list([w.multicall, 'MC', 18], [EOA, 'NOPE', 18])
    assert.match(
      await refused({ TOKENS_FILE: notErc20 }),
      new RegExp(
        `^TOKENS_FILE=${notErc20}: entry 0 \\(MC ${w.multicall}\\): the contract at ${w.multicall} is not an ERC-20 \\(decimals\\(\\): .*\\); 1 more entries fail \\(1\\)$`,
      ),
    )
  })

  test('an RPC on another chain than CHAIN_ID stops the start naming both', async () => {
    const message = await refused({ CHAIN_ID: '1', SPOT_RFQ_ADDRESS: `0x${'a'.repeat(40)}` })
    assert.equal(message, 'RPC_URL answers for chain 31337, not CHAIN_ID=1: point RPC_URL at a node of chain 1')
  })

  test("the local chain's shipped list (mainnet placeholders) is refused on a fresh chain: a list of its own is needed", async () => {
    assert.match(
      await refused({}),
      /^engine\/tokens\/lists\/local\.tokenlist\.json: entry 0 \(WETH 0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2\): no contract at .*; 4 more entries fail \(1, 2, 3, 4\)$/,
    )
  })
})

for (const multicall of [true, false]) {
  describe(`TOKENS_POLICY=chain, ${multicall ? 'through MULTICALL_ADDRESS' : 'with eth_calls pinned to one block'}`, () => {
    let t: TestEngine
    let taker: Awaited<ReturnType<typeof newAgent>>
    before(async () => {
      t = await startTestEngine({
        RPC_URL: rpc,
        TOKENS_POLICY: 'chain',
        TOKENS_FILE: list([w.listed, 'LST', 6]),
        ...(multicall ? { MULTICALL_ADDRESS: w.multicall } : {}),
        AGENT_REGISTRATION_PER_HOUR: '1000',
        AGENT_REGISTRATION_PER_DAY: '1000',
        AGENT_RATE_PER_MIN: '100000',
      })
      taker = await newAgent(t.api, ['taker'])
    })
    after(() => t?.stop())
    const create = (tokenIn: string) =>
      post(t.api, '/api/v1/agent/rfqs', { tokenIn, tokenOut: 'LST', amountIn: '1000' }, taker.headers)

    test('an unknown ERC-20 is read on chain at one block, answered, and kept in the registry', async () => {
      calls = []
      const r = await create(w.fresh.toUpperCase().replace('0X', '0x'))
      assert.equal(r.status, 201, JSON.stringify(r.body))
      const eth = calls.filter(c => c.method === 'eth_call')
      if (multicall) {
        assert.equal(eth.length, 1, 'one multicall')
        assert.equal((eth[0]!.params[0] as { to: string }).to.toLowerCase(), w.multicall)
      } else {
        assert.equal(eth.length, 3, 'symbol, decimals, totalSupply')
        assert.ok(
          eth.every(c => eth[0]!.params[1] === c.params[1] && /^0x[0-9a-f]+$/.test(c.params[1] as string)),
          'pinned to one block',
        )
      }
      const d = await get(t.api, `/api/v1/rfqs/${r.body.rfqId}`)
      assert.deepEqual(d.body.rfq.tokenIn, { address: w.fresh, symbol: 'FRESH', decimals: 9 })
      const [row] = await t.db.sql`select symbol, decimals, source from tokens where address = ${w.fresh}`
      assert.deepEqual({ ...row }, { symbol: 'FRESH', decimals: 9, source: 'chain' })
      const listed = await get(t.api, '/api/v1/tokens')
      assert.deepEqual(
        listed.body.tokens.map((x: { symbol: string; source: string; label: string }) => [x.symbol, x.source, x.label]),
        [
          ['LST', 'list', 'LST'],
          ['FRESH', 'chain', 'FRESH'],
        ],
      )
      calls = []
      const again = await create('fresh') // now a symbol the registry knows
      assert.equal(again.status, 201)
      assert.equal(calls.length, 0, 'answered from the registry')
    })

    test('an address with no contract and a contract that is no ERC-20: 400 TOKEN_NOT_ERC20 saying which', async () => {
      const none = await create(EOA)
      assert.equal(none.status, 400)
      assert.match(
        none.body.error,
        new RegExp(`^tokenIn ${EOA} is not an ERC-20 token: no contract at ${EOA} on this chain \\(block \\d+\\)$`),
      )
      assert.equal(none.body.code, 'TOKEN_NOT_ERC20')
      const contract = await create(w.multicall)
      assert.deepEqual([contract.status, contract.body.code], [400, 'TOKEN_NOT_ERC20'])
      assert.match(
        contract.body.error,
        new RegExp(
          `^tokenIn ${w.multicall} is not an ERC-20 token: the contract at ${w.multicall} is not an ERC-20 \\(decimals\\(\\): `,
        ),
      )
      calls = []
      assert.equal((await create(EOA)).status, 400)
      assert.equal(calls.length, 0, 'a refused address is remembered for a while')
      const [n] = await t.db.sql`select count(*)::int as n from tokens where address in (${EOA}, ${w.multicall})`
      assert.equal(n?.n, 0, 'nothing cached in the registry')
    })
  })
}

test('a rate-limited RPC (eth_call refused, getCode fine) never makes a real token look like no ERC-20: the start serves the list unchecked, a read is 503', async () => {
  failCalls = true
  try {
    const t = await startTestEngine({
      RPC_URL: rpc,
      TOKENS_POLICY: 'chain',
      TOKENS_FILE: list([w.listed, 'LST', 6]),
      AGENT_REGISTRATION_PER_HOUR: '1000',
      AGENT_REGISTRATION_PER_DAY: '1000',
    })
    try {
      const taker = await newAgent(t.api, ['taker'])
      const r = await post(
        t.api,
        '/api/v1/agent/rfqs',
        { tokenIn: w.fresh, tokenOut: 'LST', amountIn: '1' },
        taker.headers,
      )
      assert.deepEqual([r.status, r.body.code], [503, 'CHAIN_UNAVAILABLE'], JSON.stringify(r.body))
      const [n] = await t.db.sql`select count(*)::int as n from tokens where address = ${w.fresh}`
      assert.equal(n?.n, 0)
    } finally {
      await t.stop()
    }
  } finally {
    failCalls = false
  }
})

test("TOKENS_POLICY=list (the default): an address not in the list is refused with the spec's text, and the chain is not asked", async () => {
  const t = await startTestEngine({
    RPC_URL: rpc,
    TOKENS_FILE: list([w.listed, 'LST', 6]),
    AGENT_REGISTRATION_PER_HOUR: '1000',
    AGENT_REGISTRATION_PER_DAY: '1000',
  })
  try {
    const taker = await newAgent(t.api, ['taker'])
    calls = []
    const r = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: w.fresh, tokenOut: 'LST', amountIn: '1' },
      taker.headers,
    )
    assert.deepEqual(
      [r.status, r.body],
      [400, { error: `Unknown tokenIn: ${w.fresh}. Use address or symbol.`, code: 'TOKEN_UNKNOWN' }],
    )
    assert.equal(calls.filter(c => c.method === 'eth_call').length, 0)
  } finally {
    await t.stop()
  }
})

test('TOKENS_POLICY=chain with the chain down: 503 CHAIN_UNAVAILABLE for an unknown address, nothing cached; listed tokens still answer', async () => {
  const t = await startTestEngine({
    RPC_URL: rpc,
    TOKENS_POLICY: 'chain',
    TOKENS_FILE: list([w.listed, 'LST', 6], [w.fresh, 'FRESH', 9]),
    AGENT_REGISTRATION_PER_HOUR: '1000',
    AGENT_REGISTRATION_PER_DAY: '1000',
  })
  try {
    const taker = await newAgent(t.api, ['taker'])
    await new Promise(r => proxy.close(r))
    proxy.closeAllConnections()
    const r = await post(t.api, '/api/v1/agent/rfqs', { tokenIn: EOA, tokenOut: 'LST', amountIn: '1' }, taker.headers)
    assert.deepEqual(
      [r.status, r.body.code, r.headers.get('retry-after')],
      [503, 'CHAIN_UNAVAILABLE', '5'],
      JSON.stringify(r.body),
    )
    assert.match(r.body.error, /^The chain did not answer \(RPC_URL\): /)
    const [n] = await t.db.sql`select count(*)::int as n from tokens where address = ${EOA}`
    assert.equal(n?.n, 0)
    const known = await post(
      t.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'FRESH', tokenOut: w.listed, amountIn: '1' },
      taker.headers,
    )
    assert.equal(known.status, 201, JSON.stringify(known.body))
  } finally {
    await t.stop()
  }
})
