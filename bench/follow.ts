// The cost of following the chain: 1,000 Uniswap V2 pairs on anvil (50 tokens), tracked by the route finder;
// 20 of them touched in one block (tokens sent to the pair, then `sync()`: a Sync log each). One follow step
// (head, logs, the touched pools re-read) against a full refresh (every pool), in ms and RPC requests, in the
// same run. Run: node dist/bench/follow.js   (BENCH_POOLS, BENCH_TOUCHED)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createPublicClient, createWalletClient, http, type Address, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { parseCli, benchUsage } from '../engine/ops/cli.js'
import { startAnvil } from '../engine/devchain/anvil.js'
import { deploy, type DeployClients } from '../engine/devchain/deploy/clients.js'
import { deployTestToken } from '../engine/devchain/deploy/erc20.js'
import { deployUniswapV2Factory } from '../engine/devchain/deploy/uniswapV2.js'
import { poolContract, uniswapV2Artifact } from '../engine/devchain/deploy/artifacts.js'
import { compileSolidity } from '../engine/devchain/solc.js'
import { loadConfig } from '../engine/config.js'
import { createLogger } from '../engine/log.js'
import { createSorService } from '../engine/sor/service.js'
import { createRouteLane } from '../engine/pool/lanes.js'
import { benchDatabase } from './lib/benchDb.js'

parseCli(
  'follow.js',
  benchUsage(
    'follow',
    'Following one block (20 pools touched of 1,000) against a full refresh, in ms and RPC requests.',
    { BENCH_POOLS: 'V2 pairs tracked (1000)', BENCH_TOUCHED: 'pairs touched in the followed block (20)' },
  ),
  {},
)

const POOLS = Number(process.env.BENCH_POOLS ?? 1000),
  TOUCHED = Number(process.env.BENCH_TOUCHED ?? 20)
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' // anvil's first dev key: local only

const anvil = await startAnvil({ args: ['--gas-limit', '1000000000000'] })
const rpc = (method: string, params: unknown[] = []) =>
  fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then(r => r.json())
const dir = mkdtempSync(join(tmpdir(), 'bench-follow-'))
const db = await benchDatabase('follow', { max: 4 })
const pool = createRouteLane(1)
try {
  const account = privateKeyToAccount(KEY)
  const clients: DeployClients = {
    wallet: createWalletClient({ account, chain: foundry, transport: http(anvil.rpcUrl) }),
    public: createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl), pollingInterval: 20 }),
  }
  const t0 = performance.now()
  const tokens: Address[] = []
  for (let i = 0; i < 50; i++) tokens.push(await deployTestToken(clients, { symbol: `T${i}` }))
  const factory = await deployUniswapV2Factory(clients)
  const m = compileSolidity(['contracts/pools/Multicall3Lite.sol']).Multicall3Lite!
  const multicall = await deploy(clients, m.abi as never, m.bytecode)
  const pairs: [Address, Address][] = []
  for (let i = 0; i < tokens.length && pairs.length < POOLS; i++)
    for (let j = i + 1; j < tokens.length && pairs.length < POOLS; j++) pairs.push([tokens[i]!, tokens[j]!])

  // many transactions, one block: sent with explicit nonces and gas, then mined at once
  let nonce = await clients.public.getTransactionCount({ address: account.address })
  const sendAll = async (txs: { address: Address; abi: never; functionName: string; args: unknown[] }[]) => {
    await rpc('evm_setAutomine', [false])
    for (const tx of txs)
      await clients.wallet.writeContract({ ...tx, account, chain: foundry, gas: 6_000_000n, nonce: nonce++ } as never)
    await rpc('evm_mine')
    await rpc('evm_setAutomine', [true])
  }
  const factoryAbi = uniswapV2Artifact('UniswapV2Factory').abi as never,
    pairAbi = uniswapV2Artifact('UniswapV2Pair').abi as never
  const erc20 = poolContract('TestERC20').abi as never
  await sendAll(
    pairs.map(([a, b]) => ({ address: factory, abi: factoryAbi, functionName: 'createPair', args: [a, b] })),
  )
  const addresses: Address[] = []
  for (const [a, b] of pairs)
    addresses.push(
      await clients.public.readContract({ address: factory, abi: factoryAbi, functionName: 'getPair', args: [a, b] }),
    )
  await sendAll(
    addresses.flatMap((pair, i) => [
      { address: pairs[i]![0], abi: erc20, functionName: 'mint', args: [pair, 1_000n * 10n ** 18n] },
      { address: pairs[i]![1], abi: erc20, functionName: 'mint', args: [pair, 1_000n * 10n ** 18n] },
      { address: pair, abi: pairAbi, functionName: 'mint', args: [account.address] },
    ]),
  )
  const protocolsFile = join(dir, 'protocols.json')
  writeFileSync(
    protocolsFile,
    JSON.stringify({
      protocols: [{ slug: 'uniswap-v2', name: 'Uniswap V2', poolType: 'v2', factoryAddress: factory }],
    }),
  )
  console.log(
    `deployed ${addresses.length} V2 pairs over ${tokens.length} tokens in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )

  // one client for the route finder, counting its HTTP requests (a multicall is one request)
  let requests = 0
  const client = createPublicClient({
    chain: foundry,
    transport: http(anvil.rpcUrl, {
      onFetchRequest: () => {
        requests++
      },
    }),
  }) as PublicClient
  const config = loadConfig({
    DATABASE_URL: db.url,
    RPC_URL: anvil.rpcUrl,
    SOR_PROTOCOLS_FILE: protocolsFile,
    MULTICALL_ADDRESS: multicall,
    SOR_SCAN_BLOCK_RANGE: '100000',
    SOR_FOLLOW_INTERVAL_MS: '600000',
    LOG_LEVEL: 'silent',
  })
  const sor = await createSorService({ config, sql: db.sql, routePool: pool, log: createLogger('silent'), client })
  await sor.followStep!() // the start: scan and read everything (a reload)
  const measure = async (f: () => Promise<unknown>) => {
    const r0 = requests,
      s = performance.now()
    await f()
    return { ms: performance.now() - s, requests: requests - r0 }
  }
  const refresh = await measure(async () => {
    const o = await sor.refresh()
    if (!o.ok) throw new Error(o.code)
  })

  const touched = addresses.slice(0, TOUCHED)
  await sendAll(
    touched.flatMap((pair, i) => [
      { address: pairs[i]![0], abi: erc20, functionName: 'mint', args: [pair, 10n ** 18n] },
      { address: pair, abi: pairAbi, functionName: 'sync', args: [] },
    ]),
  )
  const before = sor.follow!.rereads
  const step = await measure(() => sor.followStep!())
  const reread = sor.follow!.rereads - before
  if (reread !== TOUCHED) throw new Error(`the step re-read ${reread} pools, not the ${TOUCHED} touched`)
  await sor.stop()
  console.table([
    {
      measure: `full refresh (${addresses.length} pools)`,
      value: `${refresh.ms.toFixed(1)} ms, ${refresh.requests} RPC requests`,
    },
    {
      measure: `follow one block (${TOUCHED} of ${addresses.length} pools touched)`,
      value: `${step.ms.toFixed(1)} ms, ${step.requests} RPC requests; ${reread} pools re-read`,
    },
    {
      measure: 'follow vs refresh',
      value: `${((step.ms / refresh.ms) * 100).toFixed(1)}% of the time, ${step.requests} vs ${refresh.requests} requests`,
    },
  ])
} finally {
  await pool.close()
  await db.drop()
  await anvil.stop()
  rmSync(dir, { recursive: true, force: true })
}
