// The deployment kit trades: deploy/engine.env.example as shipped is refused, one line per value the operator
// must still give; with those given (and only those: a database, a key, a node of chain 1, the SpotRFQ address),
// a real engine process on CHAIN_ID=1 checks mainnet's shipped token list against the chain, joins NATS, and
// creates an RFQ for mainnet WETH -> USDC. The chain is anvil with chain id 1, holding an ERC-20 with the list's
// decimals at every listed address and Multicall3 at its usual address (the kit's MULTICALL_ADDRESS).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, http, type Hex } from 'viem'
import { repoRoot } from '../../engine/paths.js'
import { startAnvil, type Anvil } from '../../engine/devchain/anvil.js'
import { clientsFor } from '../../engine/sandbox/venue.js'
import { ANVIL_KEYS } from '../../engine/sandbox/accounts.js'
import { deploy } from '../../engine/devchain/deploy/clients.js'
import { deployTestToken } from '../../engine/devchain/deploy/erc20.js'
import { compileSolidity } from '../../engine/devchain/solc.js'
import { deploySpotRfq } from '../../engine/chain/spotRfq.js'
import { startSecureNats, type SecureNats } from '../cluster/secureNats.js'
import { loadTokenList } from '../../engine/tokens/shippedLists.js'
import { parseEnvFile } from './systemdUnit.js'
import { refusedStart, spawnEngine } from '../faults/process.js'
import { testDatabase, type TestDatabase } from '../helpers/db.js'
import { newAgent, post } from '../api/agentKit.js'

const kit = parseEnvFile(readFileSync(join(repoRoot, 'deploy/engine.env.example'), 'utf8')).set
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11'
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'

let anvil: Anvil
let nats: SecureNats
let db: TestDatabase
let spotRfq: string
const dataDir = mkdtempSync(join(tmpdir(), 'kit-'))

before(async () => {
  anvil = await startAnvil({ chainId: 1 })
  const c = clientsFor(anvil.rpcUrl, ANVIL_KEYS[0]!, 1)
  const pub = createPublicClient({ transport: http(anvil.rpcUrl) })
  // one ERC-20 per decimals value (decimals is immutable: it is in the code), its code set at every listed address
  const listed = loadTokenList({ CHAIN_ID: 1, TOKENS_FILE: undefined }).tokens
  const code = new Map<number, Hex>()
  for (const d of new Set(listed.map(t => t.decimals))) {
    code.set(d, (await pub.getCode({ address: await deployTestToken(c, { name: 'T', symbol: 'T', decimals: d }) }))!)
  }
  const m = compileSolidity(['contracts/pools/Multicall3Lite.sol']).Multicall3Lite!
  const multicallCode = (await pub.getCode({ address: await deploy(c, m.abi as never, m.bytecode) }))!
  const calls = [...listed.map(t => [t.address, code.get(t.decimals)!]), [MULTICALL3, multicallCode]].map(
    ([address, bytes], id) => ({ jsonrpc: '2.0', id, method: 'anvil_setCode', params: [address, bytes] }),
  )
  const set = (await (
    await fetch(anvil.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(calls),
    })
  ).json()) as { error?: unknown }[]
  assert.ok(
    set.every(r => !r.error),
    'anvil took every code',
  )
  spotRfq = (await deploySpotRfq(c.wallet, c.public)).toLowerCase()
  nats = await startSecureNats(['kit-1'])
  db = await testDatabase('kit')
})
after(async () => {
  await nats?.close()
  await anvil?.stop()
  await db?.drop()
  rmSync(dataDir, { recursive: true, force: true })
})

test('the kit as shipped is refused before anything is touched: one line per value the operator must still give', async () => {
  const r = await refusedStart({ ...kit, DATA_DIR: join(dataDir, 'as-shipped') })
  assert.equal(r.code, 2)
  assert.deepEqual(r.stderr.trim().split('\n'), [
    "DATABASE_URL still holds the deployment kit's placeholder (REPLACE…): set its real value",
    "API_KEY still holds the deployment kit's placeholder (REPLACE…): set its real value",
    "RPC_URL still holds the deployment kit's placeholder (REPLACE…): set its real value",
    'SPOT_RFQ_ADDRESS is the zero address: on chain 1 (CHAIN_ID) set the deployed SpotRFQ contract, the verifyingContract of every quote signature',
  ])
  assert.ok(!r.stderr.includes('REPLACE-password'), 'no value echoed')
})

test("CHAIN_ID=1 with the kit and the operator's values: the list is checked on chain, and an RFQ for mainnet WETH -> USDC is created", async () => {
  assert.equal(kit.CHAIN_ID, '1')
  assert.equal(kit.MULTICALL_ADDRESS, MULTICALL3)
  assert.equal(kit.TOKENS_FILE, undefined, 'the list that ships for chain 1')
  const engine = await spawnEngine({
    ...kit,
    // what the operator fills in
    DATABASE_URL: db.url,
    API_KEY: randomBytes(24).toString('base64url'),
    RPC_URL: anvil.rpcUrl,
    SPOT_RFQ_ADDRESS: spotRfq,
    // what the unit and this host decide: the node's directory and id, this cluster's NATS (its CA, the node's key
    // and the venue's peers), ports free here
    DATA_DIR: join(dataDir, 'node'),
    ...nats.env('kit-1'),
    API_PORT: '0',
    TERMINAL_PORT: '0',
    RELAY_PORT: '0',
  })
  try {
    const checked = engine
      .stdout()
      .split('\n')
      .filter(l => l.includes('"msg":"token list checked on chain"'))
      .map(l => JSON.parse(l))
    assert.equal(checked.length, 1, engine.stdout())
    assert.equal(checked[0].tokens, loadTokenList({ CHAIN_ID: 1, TOKENS_FILE: undefined }).tokens.length)
    const taker = await newAgent(engine.api, ['taker'])
    const r = await post(
      engine.api,
      '/api/v1/agent/rfqs',
      { tokenIn: 'WETH', tokenOut: 'USDC', amountIn: '1000000000000000000' },
      taker.headers,
    )
    assert.equal(r.status, 201, JSON.stringify(r.body))
    const d = (await (await fetch(`${engine.api}/api/v1/rfqs/${r.body.rfqId}`)).json()) as {
      rfq: { tokenIn: unknown; tokenOut: unknown }
    }
    assert.deepEqual(
      [d.rfq.tokenIn, d.rfq.tokenOut],
      [
        { address: WETH, symbol: 'WETH', decimals: 18 },
        { address: USDC, symbol: 'USDC', decimals: 6 },
      ],
    )
    assert.equal(await engine.term(), 0)
  } finally {
    engine.child.kill('SIGKILL')
  }
})

test("the kit's build is make build (the console included: a tree built by tsc alone answers / with 503)", () => {
  const guide = readFileSync(join(repoRoot, 'deploy/README.md'), 'utf8')
  const recipe = /```sh\ngit clone[\s\S]+?```/.exec(guide)?.[0] ?? ''
  const lines = recipe.split('\n').map(l => l.replace(/#.*$/, '').trim())
  assert.ok(lines.includes('make build'), recipe)
  assert.ok(
    lines.indexOf('make build') < lines.findIndex(l => l.startsWith('npm prune')),
    'built before the dev dependencies go',
  )
  assert.ok(!lines.some(l => /npx tsc/.test(l)), 'no partial build')
  // test/operator/cleanTree.test.ts runs `make build` in a fresh clone and finds dist/web/index.html
  assert.match(
    readFileSync(join(repoRoot, 'Makefile'), 'utf8'),
    /^build:.*\n(\t.*\n)*\tnode dist\/engine\/console\/build\.js$/m,
  )
})
